package cli

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/logfile"
	"github.com/trawler/trawler/crawl/secret"
	"github.com/trawler/trawler/db"
)

func init() {
	register("crawl", "crawl from seed URLs into the database", runCrawl)
	register("resume", "continue a stopped or killed crawl with its saved settings", runResume)
}

const crawlUsage = `Usage: trawler crawl [--preset NAME] [--profile FILE] [flags] [SEED...]

Crawls from the SEED URLs and stores every page in the database. Settings
come in layers: the defaults, then --preset, then --profile, then the flags
given, then the SEEDs (which replace a profile's seeds). Every setting flag is
also a profile key; "trawler profile export" writes one to start from.

Sites behind basic auth: --auth host:port=user; the password is recalled from
the keychain, asked for on the terminal, or read with --password-stdin, and
is never stored in clear (--remember-password keeps it in the keychain).
The log goes beside the database (trawler.db → trawler.log).
Ctrl-C stops cleanly; "trawler resume" continues later.`

func dbFlag(fs *flag.FlagSet) *string {
	return fs.String("db", "", "database file (default: trawler.db in the user config directory, shared with the window)")
}

func runCrawl(args []string, s IO) int {
	fs := newFlagSet("crawl", s, crawlUsage)
	flagged := crawl.DefaultConfig()
	settingFlags(fs, &flagged)
	src := addSourceFlags(fs)
	pf := addPasswordFlags(fs)
	dbPath := dbFlag(fs)
	name := fs.String("name", "", "a name for the crawl (default: the first seed)")
	quiet := fs.Bool("quiet", false, "no live status line")
	robotName := robotFlag(fs)
	if code, done := parseFlags(fs, args); done {
		return code
	}
	c, err := settings(fs, crawl.DefaultConfig(), flagged, src)
	if err != nil {
		return fail(s, "crawl", err)
	}
	if err := c.Validate(); err != nil {
		return fail(s, "crawl", usagef("%v", err))
	}
	if err := checkWordLists(&c); err != nil {
		return fail(s, "crawl", err)
	}
	if err := fillPasswords(s, "crawl", &c, pf); err != nil {
		return fail(s, "crawl", err)
	}
	d, err := openDB(*dbPath)
	if err != nil {
		return fail(s, "crawl", err)
	}
	defer d.Close()
	if *name == "" {
		*name = c.Seeds[0]
	}
	id, err := d.CreateCrawl(context.Background(), *name, secret.Strip(c))
	if err != nil {
		return fail(s, "crawl", &storageError{err})
	}
	return onCompletion(s, "crawl", d, id, c, *quiet, runEngine(s, "crawl", d, id, c, *quiet, *robotName))
}

func runResume(args []string, s IO) int {
	fs := newFlagSet("resume", s, `Usage: trawler resume [--db F] [ID]

Continues a stopped or killed crawl with its saved settings: the most recent
unfinished one when no ID is given. Passwords are not saved with a crawl:
they are recalled from the keychain, asked for, or read with --password-stdin.`)
	dbPath := dbFlag(fs)
	quiet := fs.Bool("quiet", false, "no live status line")
	robotName := robotFlag(fs)
	pf := addPasswordFlags(fs)
	if code, done := parseFlags(fs, args); done {
		return code
	}
	d, err := openDB(*dbPath)
	if err != nil {
		return fail(s, "resume", err)
	}
	defer d.Close()
	id, err := crawlArg(d, fs.Args())
	if err != nil {
		return fail(s, "resume", err)
	}
	c, err := d.Settings(context.Background(), id)
	if err != nil {
		return fail(s, "resume", &storageError{err})
	}
	if err := fillPasswords(s, "resume", &c, pf); err != nil {
		return fail(s, "resume", err)
	}
	return onCompletion(s, "resume", d, id, c, *quiet, runEngine(s, "resume", d, id, c, *quiet, *robotName))
}

// crawlArg picks the crawl named by args, or the latest unfinished one.
func crawlArg(d *db.DB, args []string) (int64, error) {
	switch len(args) {
	case 0:
		id, err := d.LatestUnfinished(context.Background())
		if err != nil {
			return 0, usagef("no unfinished crawl to resume (%v)", err)
		}
		return id, nil
	case 1:
		var id int64
		if _, err := fmt.Sscan(args[0], &id); err != nil || id <= 0 {
			return 0, usagef("crawl ID must be a positive number, got %q", args[0])
		}
		if _, err := d.CrawlInfo(context.Background(), id); err != nil {
			return 0, usagef("no crawl %d in this database", id)
		}
		return id, nil
	}
	return 0, usagef("give at most one crawl ID")
}

// runEngine runs a crawl to its end with a live status line, a log beside
// the database, a summary and the hook.
//
// On a PostgreSQL database the run is a robot (see robot.go): other
// robots may crawl the same crawl beside it.
func runEngine(s IO, cmd string, d *db.DB, id int64, c crawl.Config, quiet bool, robotName string) int {
	return runCrawler(s, cmd, d, id, c, quiet, robotFlags{id: robotName})
}

// runCrawler is runEngine with a robot's name and lease for a shared
// database.
func runCrawler(s IO, cmd string, d *db.DB, id int64, c crawl.Config, quiet bool, rf robotFlags) int {
	log, logFile, err := logfile.Open(d.Path(), c)
	if err != nil {
		return fail(s, cmd, err)
	}
	defer logFile.Close()
	log = log.With("crawl", id)
	e, err := newCrawler(d, id, c, log, rf)
	if err != nil {
		return fail(s, cmd, err)
	}
	ctx := context.Background()
	_ = d.SetState(ctx, id, string(crawl.StateRunning))
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	var interrupted atomic.Bool
	go func() {
		if _, ok := <-sig; ok {
			interrupted.Store(true)
			fmt.Fprintln(s.Err, "\nstopping: finishing the fetches in flight…")
			e.Stop()
		}
	}()
	status := newStatusLine(s.Err, quiet)
	stopStatus := status.follow(e.Progress)
	runErr := e.Run(ctx)
	stopStatus()
	p := e.Progress()
	state := p.State
	if runErr != nil {
		state = crawl.StateFailed
	}
	if othersWork(d, id, e) && state != crawl.StateDone {
		// Robots still crawl it: the crawl goes on without this one.
	} else if err := d.SetState(ctx, id, string(state)); err != nil && runErr == nil {
		runErr = err
	}
	printSummary(s, id, p)
	runHook(s, cmd, log, c, id, d.Path(), state)
	switch {
	case runErr != nil:
		fmt.Fprintf(s.Err, "trawler %s: %v\n", cmd, runErr)
		return ExitStorage
	case interrupted.Load():
		again := fmt.Sprintf("trawler resume --db %s %d", shellQuote(d.Path()), id)
		if d.Postgres() {
			again = fmt.Sprintf("trawler robot --db %s --crawl %d", shellQuote(d.Path()), id)
		}
		fmt.Fprintf(s.Err, "stopped; continue with: %s\n", again)
		return ExitInterrupted
	}
	return ExitOK
}

func printSummary(s IO, id int64, p crawl.Progress) {
	rate := 0.0
	if p.Elapsed > 0 {
		rate = float64(p.Fetched()) / p.Elapsed.Seconds()
	}
	fmt.Fprintf(s.Out, "crawl %d %s: %d done, %d errors, %d skipped, %d waiting, %s read in %s (%.1f pages/s)\n",
		id, p.State, p.Done, p.Errors, p.Skipped, p.Waiting, humanBytes(p.Bytes), p.Elapsed.Round(time.Millisecond), rate)
}

func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`*?[]{}()<>|&;#~!") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// openDB opens the database at path, or the default one.
func openDB(path string) (*db.DB, error) {
	if path == "" {
		p, err := db.DefaultPath()
		if err != nil {
			return nil, &storageError{fmt.Errorf("find the default database: %w", err)}
		}
		path = p
	}
	if db.NeedsPassword(path) {
		host, user, _ := db.ServerAccount(path)
		if pw, err := secret.Recall(host, user); err == nil {
			path = db.WithPassword(path, pw)
		} // else the server may need none, or ~/.pgpass has it
	}
	d, err := db.Open(path)
	if err != nil {
		return nil, &storageError{err}
	}
	return d, nil
}
