package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/db"
)

func init() {
	register("recrawl", "visit a finished crawl again and report what changed", runRecrawl)
}

const recrawlUsage = `Usage: trawler recrawl [--db F] [--due-only] [--loop] [--pause D] [ID]

Starts a new cycle of a finished crawl (the most recent one when no ID is
given) with its saved settings: every page it visited is asked for again
with If-None-Match and If-Modified-Since, so an unchanged page answers 304
without a body; new links on changed pages are crawled as usual. The cycle
ends with its change report: pages new, changed, unchanged (a page that
failed before and fails again is unchanged, "still broken"), gone (404 or
410 after a good answer, or no longer linked from any page), and errors:
every visit that failed (no answer, a status of 400 or more), the same
count the window's Live screen and "trawler stats" show. The biggest
changes follow ("trawler changes" lists them all, "trawler diff" shows one).

--due-only visits only the pages the revisit schedule says are due: each
page's change rate is estimated from its history (Cho and Garcia-Molina's
estimator) and the page is due after its expected time between changes,
kept within the crawl's revisit-min and revisit-max (1 hour and 30 days by
default). --loop starts the next cycle when one ends (paper 003's on-
completion "loop"), after --pause and, with --due-only, once a page is due;
Ctrl-C stops it. A killed re-crawl continues with "trawler resume".`

// cycleOptions say how recrawl cycles run.
type cycleOptions struct {
	dueOnly bool
	loop    bool
	pause   time.Duration
	quiet   bool
}

func runRecrawl(args []string, s IO) int {
	fs := newFlagSet("recrawl", s, recrawlUsage)
	dbPath := dbFlag(fs)
	var o cycleOptions
	fs.BoolVar(&o.dueOnly, "due-only", false, "visit only the pages the revisit schedule says are due")
	fs.BoolVar(&o.loop, "loop", false, "start the next cycle each time one ends, until Ctrl-C")
	fs.DurationVar(&o.pause, "pause", 0, "with --loop, wait this long between cycles")
	fs.BoolVar(&o.quiet, "quiet", false, "no live status line")
	pf := addPasswordFlags(fs)
	if code, done := parseFlags(fs, args); done {
		return code
	}
	if fs.NArg() > 1 || o.pause < 0 {
		return fail(s, "recrawl", usagef("give at most one crawl ID, and a --pause of 0 or more"))
	}
	d, err := openDB(*dbPath)
	if err != nil {
		return fail(s, "recrawl", err)
	}
	defer d.Close()
	var id int64
	if fs.NArg() == 1 {
		if _, err := fmt.Sscan(fs.Arg(0), &id); err != nil || id <= 0 {
			return fail(s, "recrawl", usagef("crawl ID must be a positive number, got %q", fs.Arg(0)))
		}
	}
	if id, err = pickCrawl(d, id); err != nil {
		return fail(s, "recrawl", err)
	}
	c, err := d.Settings(context.Background(), id)
	if err != nil {
		return fail(s, "recrawl", &storageError{err})
	}
	if err := fillPasswords(s, "recrawl", &c, pf); err != nil {
		return fail(s, "recrawl", err)
	}
	return recrawlCycles(s, "recrawl", d, id, c, o)
}

// recrawlCycles begins a re-crawl of a done crawl, runs it and prints its
// change report; with o.loop, again and again until Ctrl-C. It serves
// `trawler recrawl` and the on-completion "loop" of `crawl` and `resume`.
func recrawlCycles(s IO, cmd string, d *db.DB, id int64, c crawl.Config, o cycleOptions) int {
	ctx := context.Background()
	// A loop listens for Ctrl-C throughout, so that one coming between two
	// cycles stops it too; during a cycle runEngine stops the run.
	sig := make(chan os.Signal, 1)
	if o.loop {
		signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
		defer signal.Stop(sig)
	}
	for {
		cycle, queued, err := d.BeginRecrawl(ctx, id, o.dueOnly, time.Now())
		switch {
		case errors.Is(err, db.ErrUnfinished):
			return fail(s, cmd, usagef("%v (trawler resume --db %s %d)", err, shellQuote(d.Path()), id))
		case err != nil:
			return fail(s, cmd, &storageError{err})
		}
		fmt.Fprintf(s.Err, "re-crawl of crawl %d, cycle %d: %d known URLs queued\n", id, cycle, queued)
		if code := runEngine(s, cmd, d, id, c, o.quiet, ""); code != ExitOK {
			return code
		}
		if err := printReport(s, d, id, cycle, 10); err != nil {
			return fail(s, cmd, &storageError{err})
		}
		if !o.loop {
			return ExitOK
		}
		if !waitNextCycle(s, d, id, o, sig) {
			fmt.Fprintf(s.Err, "stopped between cycles; crawl %d is done\n", id)
			return ExitInterrupted
		}
	}
}

// waitNextCycle waits for the pause and, for a due-only loop, until a page
// is due. It reports false when Ctrl-C came first (or already came).
func waitNextCycle(s IO, d *db.DB, id int64, o cycleOptions, sig <-chan os.Signal) bool {
	until := time.Now().Add(o.pause)
	if o.dueOnly {
		if due, ok, err := d.NextDue(context.Background(), id); err == nil && ok && due.After(until) {
			until = due
		}
	}
	wait := max(time.Until(until), 0)
	if wait > 0 {
		fmt.Fprintf(s.Err, "next cycle at %s\n", until.Local().Format(time.DateTime))
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-sig:
		return false
	default:
	}
	select {
	case <-t.C:
		return true
	case <-sig:
		return false
	}
}

// printReport prints a cycle's change report and its biggest changes.
func printReport(s IO, d *db.DB, id int64, cycle, top int) error {
	r, err := d.ChangeReport(context.Background(), id, cycle)
	if err != nil {
		return err
	}
	fmt.Fprintf(s.Out, "cycle %d of crawl %d: %s; %s of bodies read\n", cycle, id, r.Summary(), humanBytes(r.Bytes))
	if top <= 0 || cycle == 0 {
		return nil
	}
	rows, err := d.Changes(context.Background(), db.ChangeQuery{Crawl: id, Cycle: cycle,
		Changes: []crawl.Change{crawl.ChangeChanged}, Limit: top})
	if err != nil {
		return err
	}
	for _, row := range rows {
		fmt.Fprintf(s.Out, "  changed  +%-4d -%-4d words  %s\n", row.WordsAdded, row.WordsRemoved, row.URL)
	}
	return nil
}

// onCompletion follows a run of crawl or resume that ended with code: with
// the on-completion action "loop", re-crawl cycles follow until Ctrl-C.
// A resumed re-crawl that finishes prints its change report first.
func onCompletion(s IO, cmd string, d *db.DB, id int64, c crawl.Config, quiet bool, code int) int {
	if code != ExitOK {
		return code
	}
	if info, err := d.CrawlInfo(context.Background(), id); err == nil && info.Cycle > 0 {
		if err := printReport(s, d, id, info.Cycle, 10); err != nil {
			return fail(s, cmd, &storageError{err})
		}
	}
	if c.OnCompletion != crawl.OnCompletionLoop {
		return code
	}
	return recrawlCycles(s, cmd, d, id, c, cycleOptions{loop: true, quiet: quiet})
}
