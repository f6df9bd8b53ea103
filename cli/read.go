package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/db"
)

func init() {
	register("export", "write a crawl's pages as CSV", runExport)
	register("search", "full-text search over the pages of a crawl", runSearch)
	register("stats", "list the crawls in a database with their counts", runStats)
}

// crawlFlag reads --crawl; 0 means "the most recent crawl".
func pickCrawl(d *db.DB, id int64) (int64, error) {
	if id < 0 {
		return 0, usagef("--crawl must be a positive crawl ID")
	}
	if id > 0 {
		if _, err := d.CrawlInfo(context.Background(), id); err != nil {
			return 0, usagef("no crawl %d in %s", id, d.Path())
		}
		return id, nil
	}
	latest, err := d.LatestCrawl(context.Background())
	switch {
	case errors.Is(err, db.ErrNotFound):
		return 0, usagef("%s holds no crawl yet; start one with `trawler crawl URL`", d.Path())
	case err != nil:
		return 0, &storageError{err}
	}
	return latest.ID, nil
}

func runExport(args []string, s IO) int {
	fs := newFlagSet("export", s, `Usage: trawler export [--db F] [--crawl ID] [--query Q] [--skipped] [--format csv] [--out F|-]

Writes the pages of a crawl (the most recent one by default) as CSV: RFC 4180,
UTF-8 (with --bom, a byte-order mark first, for Excel on Windows), a header row starting url,status,depth,title,content_type,length,
fetched_at,content_fp. Cells that a spreadsheet would run as a formula get a
leading apostrophe. --query keeps the pages matching a full-text query.
--skipped writes the URLs found and not fetched instead, with why:
url,reason,reason_text,depth,found_on,found_at.`)
	dbPath := dbFlag(fs)
	id := fs.Int64("crawl", 0, "crawl ID (default: the most recent)")
	query := fs.String("query", "", "search the pages must match (as trawler search takes it)")
	skipped := fs.Bool("skipped", false, "export the skipped URLs and their reasons instead of the pages")
	bom := fs.Bool("bom", false, "start with a UTF-8 byte-order mark, so Excel on Windows reads the text right")
	format := fs.String("format", "csv", "output format: csv")
	out := fs.String("out", "-", "output file, - for standard output")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	if *format != "csv" {
		return fail(s, "export", usagef("format %q not supported (csv)", *format))
	}
	if fs.NArg() > 0 {
		return fail(s, "export", usagef("unexpected argument %q", fs.Arg(0)))
	}
	if *skipped && *query != "" {
		return fail(s, "export", usagef("--query searches pages; it cannot be used with --skipped"))
	}
	d, err := openDB(*dbPath)
	if err != nil {
		return fail(s, "export", err)
	}
	defer d.Close()
	crawlID, err := pickCrawl(d, *id)
	if err != nil {
		return fail(s, "export", err)
	}
	w := s.Out
	var f *os.File
	if *out != "-" {
		if f, err = os.Create(*out); err != nil {
			return fail(s, "export", usagef("cannot write %s: %v", *out, err))
		}
		w = f
	}
	bw := bufio.NewWriterSize(w, 256<<10)
	if *bom {
		_ = db.WriteBOM(bw) // a buffered write; Flush reports a failure
	}
	n, err := d.ExportCSV(context.Background(), bw, db.PageQuery{Crawl: crawlID, Search: *query, Skipped: *skipped}, nil)
	if err == nil {
		err = bw.Flush()
	}
	if f != nil {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return fail(s, "export", queryOrStorage(err, *query))
	}
	if *out != "-" {
		fmt.Fprintf(s.Err, "wrote %d rows to %s\n", n, *out)
	}
	return ExitOK
}

// queryOrStorage classes an error of a read with a user query: a bad query
// is the user's input, anything else a storage problem.
func queryOrStorage(err error, query string) error {
	if query != "" && errors.Is(err, db.ErrBadQuery) {
		return usagef("%v", err)
	}
	return &storageError{err}
}

func runSearch(args []string, s IO) int {
	fs := newFlagSet("search", s, `Usage: trawler search [--db F] [--crawl ID] [--limit N] [--json] QUERY

Finds pages whose title, text or URL match QUERY and prints them best match
first (a match in the title counts most), with a snippet. QUERY is plain
text: every word must match (a lone word also as a prefix), "a phrase" or a
word with punctuation inside (a URL, select.select) as a phrase, and Chinese
or Japanese words as written. Start QUERY with fts: to use SQLite's FTS5
syntax instead: AND, OR, NOT, NEAR(...), prefix*, title:word. Matches are
shown in bold on a terminal; --json gives the snippet with the matched
words between U+E000 and U+E001. A page judged by the crawl's word lists
shows its verdict: [black], [grey] or [white].`)
	dbPath := dbFlag(fs)
	id := fs.Int64("crawl", 0, "crawl ID (default: the most recent)")
	limit := fs.Int("limit", 20, "most results")
	asJSON := fs.Bool("json", false, "print JSON for scripts")
	verdict := fs.String("verdict", "", "only pages the word lists judged black, white or grey (see trawler verdicts)")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	switch *verdict {
	case "", "black", "white", "grey":
	default:
		return fail(s, "search", usagef("--verdict must be black, white or grey, not %q", *verdict))
	}
	query := strings.Join(fs.Args(), " ")
	if strings.TrimSpace(query) == "" {
		return fail(s, "search", usagef("give a QUERY"))
	}
	if *limit < 1 {
		return fail(s, "search", usagef("--limit must be at least 1"))
	}
	d, err := openDB(*dbPath)
	if err != nil {
		return fail(s, "search", err)
	}
	defer d.Close()
	crawlID, err := pickCrawl(d, *id)
	if err != nil {
		return fail(s, "search", err)
	}
	rows, err := d.Pages(context.Background(), db.PageQuery{Crawl: crawlID, Search: query, Verdict: *verdict,
		Sort: db.SortRelevance, Limit: *limit})
	if err != nil {
		return fail(s, "search", queryOrStorage(err, query))
	}
	if *asJSON {
		return writeJSON(s, rows)
	}
	if len(rows) == 0 {
		fmt.Fprintln(s.Out, "no page matches")
		return ExitOK
	}
	bold := isTerminal(s.Out)
	for _, r := range rows {
		verdict := ""
		if r.Verdict != "" {
			verdict = "  [" + r.Verdict + "]"
		}
		fmt.Fprintf(s.Out, "%s  %d  %s%s\n    %s\n", r.URL, r.Status, r.Title, verdict, showSnippet(oneLine(r.Snippet), bold))
	}
	return ExitOK
}

// showSnippet marks a snippet's matches in bold for a terminal, and drops
// the marks for a pipe or a file.
func showSnippet(s string, bold bool) string {
	start, end := "", ""
	if bold {
		start, end = "\x1b[1m", "\x1b[0m"
	}
	return strings.NewReplacer(string(db.MatchStart), start, string(db.MatchEnd), end).Replace(s)
}

func runStats(args []string, s IO) int {
	fs := newFlagSet("stats", s, `Usage: trawler stats [--db F] [--crawl ID] [--json]

Lists the crawls in the database with their IDs, states, re-crawl cycles
(0 until the first re-crawl) and counts. SKIPPED counts the URLs found and
not fetched (robots.txt, scope, depth, ...); with --crawl, each reason is
listed below.`)
	dbPath := dbFlag(fs)
	id := fs.Int64("crawl", 0, "only this crawl")
	asJSON := fs.Bool("json", false, "print JSON for scripts")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	if fs.NArg() > 0 { // "trawler stats cli.db" would otherwise answer from the default database
		return fail(s, "stats", usagef("unexpected argument %q (a database is named with --db)", fs.Arg(0)))
	}
	d, err := openDB(*dbPath)
	if err != nil {
		return fail(s, "stats", err)
	}
	defer d.Close()
	var list []db.CrawlInfo
	if *id != 0 {
		info, err := d.CrawlInfo(context.Background(), *id)
		if err != nil {
			return fail(s, "stats", usagef("no crawl %d in %s", *id, d.Path()))
		}
		list = []db.CrawlInfo{info}
	} else if list, err = d.Crawls(context.Background()); err != nil {
		return fail(s, "stats", &storageError{err})
	}
	if *asJSON {
		return writeJSON(s, list)
	}
	if len(list) == 0 {
		fmt.Fprintf(s.Out, "%s holds no crawl yet; start one with `trawler crawl URL`\n", d.Path())
		return ExitOK
	}
	tw := tabwriter.NewWriter(s.Out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tSTATE\tCYCLE\tCREATED\tDONE\tERRORS\tSKIPPED\tWAITING\tBYTES\tSEEDS")
	for _, c := range list {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t%s\t%d\t%d\t%d\t%d\t%s\t%s\n", c.ID, c.Name, c.State, c.Cycle,
			c.CreatedAt.Local().Format(time.DateTime), c.URLs.Done, c.URLs.Error, c.URLs.Skipped, c.URLs.Waiting,
			humanBytes(c.Bytes), strings.Join(c.Seeds, " "))
	}
	tw.Flush()
	if *id != 0 && list[0].URLs.Skipped > 0 {
		return printSkipReasons(s, d, *id)
	}
	return ExitOK
}

// printSkipReasons lists how many URLs of a crawl were skipped, by reason.
func printSkipReasons(s IO, d *db.DB, id int64) int {
	counts, err := d.SkipCounts(context.Background(), id)
	if err != nil {
		return fail(s, "stats", &storageError{err})
	}
	fmt.Fprintln(s.Out, "\nSkipped URLs by reason (trawler export --skipped lists them):")
	tw := tabwriter.NewWriter(s.Out, 0, 0, 2, ' ', tabwriter.AlignRight)
	for _, r := range crawl.SkipReasons {
		if n := counts[r]; n > 0 {
			fmt.Fprintf(tw, "  %d\t  %s\t\n", n, r.Label())
		}
	}
	tw.Flush()
	return ExitOK
}

func writeJSON(s IO, v any) int {
	enc := json.NewEncoder(s.Out)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fail(s, "json", err)
	}
	return ExitOK
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
