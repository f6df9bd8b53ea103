package cli

import (
	"bufio"
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/textdiff"
	"github.com/trawler/trawler/db"
)

func init() {
	register("changes", "a re-crawl's change report and its list of changed pages", runChanges)
	register("diff", "the words that changed between two versions of a page", runDiff)
}

func runChanges(args []string, s IO) int {
	fs := newFlagSet("changes", s, `Usage: trawler changes [--db F] [--crawl ID] [--cycle N] [--all] [--csv]

Prints the change report of a cycle of a crawl (the latest cycle of the most
recent crawl by default), then its new, changed, gone and failed pages, the
biggest changes first, with the words added and removed. --all lists the
unchanged pages too; --csv writes the list as CSV instead.`)
	dbPath := dbFlag(fs)
	id := fs.Int64("crawl", 0, "crawl ID (default: the most recent)")
	cycle := fs.Int("cycle", -1, "cycle (default: the crawl's current one)")
	all := fs.Bool("all", false, "list unchanged pages too")
	asCSV := fs.Bool("csv", false, "write the list as CSV")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	if fs.NArg() > 0 {
		return fail(s, "changes", usagef("unexpected argument %q", fs.Arg(0)))
	}
	d, err := openDB(*dbPath)
	if err != nil {
		return fail(s, "changes", err)
	}
	defer d.Close()
	crawlID, err := pickCrawl(d, *id)
	if err != nil {
		return fail(s, "changes", err)
	}
	if *cycle < 0 {
		info, err := d.CrawlInfo(context.Background(), crawlID)
		if err != nil {
			return fail(s, "changes", &storageError{err})
		}
		*cycle = info.Cycle
	}
	q := db.ChangeQuery{Crawl: crawlID, Cycle: *cycle}
	if *all {
		q.Changes = crawl.Changes
	}
	bw := bufio.NewWriter(s.Out)
	defer bw.Flush()
	if *asCSV {
		if _, err := d.ExportChangesCSV(context.Background(), bw, q); err != nil {
			return fail(s, "changes", &storageError{err})
		}
		return ExitOK
	}
	out := IO{In: s.In, Out: bw, Err: s.Err}
	if err := printReport(out, d, crawlID, *cycle, 0); err != nil {
		return fail(s, "changes", notFoundOrStorage(err))
	}
	rows, err := d.Changes(context.Background(), q)
	if err != nil {
		return fail(s, "changes", &storageError{err})
	}
	for _, r := range rows {
		size := ""
		if r.Change == crawl.ChangeChanged {
			size = fmt.Sprintf("+%d -%d words", r.WordsAdded, r.WordsRemoved)
		}
		fmt.Fprintf(bw, "%-9s %3d  %-16s %s\n", r.Change, r.Status, size, r.URL)
	}
	return ExitOK
}

// notFoundOrStorage makes a missing crawl or cycle the user's mistake.
func notFoundOrStorage(err error) error {
	if db.IsStorageError(err) {
		return &storageError{err}
	}
	return usagef("%v", err)
}

func runDiff(args []string, s IO) int {
	fs := newFlagSet("diff", s, `Usage: trawler diff [--db F] [--crawl ID] URL [OLD NEW]

Shows how the body text of a page changed between two of its kept versions:
by default the current text against the one before; OLD and NEW are cycle
numbers ("trawler changes" and the history below tell them). Removed words
are shown [-like this-], added ones {+like this+}.`)
	dbPath := dbFlag(fs)
	id := fs.Int64("crawl", 0, "crawl ID (default: the most recent)")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	if fs.NArg() != 1 && fs.NArg() != 3 {
		return fail(s, "diff", usagef("give a URL, and optionally two cycles"))
	}
	d, err := openDB(*dbPath)
	if err != nil {
		return fail(s, "diff", err)
	}
	defer d.Close()
	crawlID, err := pickCrawl(d, *id)
	if err != nil {
		return fail(s, "diff", err)
	}
	url := fs.Arg(0)
	vers, err := d.Versions(context.Background(), crawlID, url)
	if err != nil {
		return fail(s, "diff", &storageError{err})
	}
	older, newer, err := pickVersions(vers, fs.Args()[1:])
	if err != nil {
		return fail(s, "diff", err)
	}
	bw := bufio.NewWriter(s.Out)
	defer bw.Flush()
	fmt.Fprintf(bw, "%s\n--- cycle %d, %s\n+++ cycle %d, %s\n", url, older.Cycle, older.FetchedAt.Format(time.RFC3339),
		newer.Cycle, newer.FetchedAt.Format(time.RFC3339))
	for _, seg := range textdiff.Words(older.Text, newer.Text) {
		switch seg.Op {
		case textdiff.Delete:
			fmt.Fprintf(bw, "[-%s-]", seg.Text)
		case textdiff.Insert:
			fmt.Fprintf(bw, "{+%s+}", seg.Text)
		default:
			bw.WriteString(seg.Text)
		}
	}
	bw.WriteString("\n")
	return ExitOK
}

// pickVersions returns the versions named by two cycle numbers, or the two
// newest.
func pickVersions(vers []db.Version, cycles []string) (older, newer db.Version, err error) {
	if len(cycles) == 0 {
		if len(vers) < 2 {
			return older, newer, usagef("the page has %d kept version(s); a diff needs two", len(vers))
		}
		return vers[1], vers[0], nil
	}
	find := func(arg string) (db.Version, error) {
		var c int
		if _, err := fmt.Sscan(arg, &c); err == nil {
			for _, v := range vers {
				if v.Cycle == c {
					return v, nil
				}
			}
		}
		var have []string
		for _, v := range vers {
			have = append(have, fmt.Sprint(v.Cycle))
		}
		return db.Version{}, usagef("no version of cycle %q kept (have: %s)", arg, strings.Join(have, ", "))
	}
	if older, err = find(cycles[0]); err == nil {
		newer, err = find(cycles[1])
	}
	return older, newer, err
}
