package db

import (
	"context"
	"database/sql"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/rabin"
)

// Report is the change report of one cycle of a crawl: how its visits
// compared with the previous ones (crawl.Change).
type Report struct {
	CycleInfo
	New, Changed, Unchanged, Gone, Errors int64 // visits by change class (Errors: the class "error")
	NotModified                           int64 // of Unchanged, the pages answered 304 (no body read)
	StillBroken                           int64 // of Unchanged, the pages that failed in both cycles
	Bytes                                 int64 // body bytes read in the cycle

	// Failed counts the cycle's visits that failed: no answer, a status
	// of 400 or more, or a body that could not be read (crawl.Page.Failed).
	// It is the one count of errors Live, the hosts table, trawler stats
	// and Crawls show; gone and still-broken pages are among them.
	Failed int64
}

// Summary is the report in one line, as the command line and the window
// print it: "3 new, 1 changed, 480 unchanged (20 not modified, 1 still
// broken), 2 gone, 3 errors".
func (r Report) Summary() string {
	return fmt.Sprintf("%d new, %d changed, %d unchanged (%d not modified, %d still broken), %d gone, %d errors",
		r.New, r.Changed, r.Unchanged, r.NotModified, r.StillBroken, r.Gone, r.Failed)
}

// Visits returns how many visits the report counts.
func (r Report) Visits() int64 { return r.New + r.Changed + r.Unchanged + r.Gone + r.Errors }

// ChangeReport counts the visits of one cycle of a crawl by change class.
// Gone counts the pages that answered 404 or 410 and, once the cycle is
// finished, those that vanished from every link; a page already gone in
// the cycle before counts again. ErrNotFound when the crawl has no such
// cycle.
func (d *DB) ChangeReport(ctx context.Context, crawlID int64, cycle int) (Report, error) {
	var r Report
	var started int64
	var finished sql.NullInt64
	err := d.r.QueryRowContext(ctx, `SELECT cycle, due_only, queued, started_at, finished_at FROM cycles
WHERE crawl_id = ? AND cycle = ?`, crawlID, cycle).Scan(&r.Cycle, &r.DueOnly, &r.Queued, &started, &finished)
	if err == sql.ErrNoRows {
		return r, fmt.Errorf("cycle %d of crawl %d: %w", cycle, crawlID, ErrNotFound)
	}
	if err != nil {
		return r, wrap(err, "read cycle %d of crawl %d", cycle, crawlID)
	}
	r.StartedAt, r.FinishedAt = time.Unix(0, started).UTC(), fromNanos(finished)
	rows, err := d.r.QueryContext(ctx, `SELECT change, count(*), coalesce(sum(length), 0), count(*) FILTER (WHERE status = 304)
FROM page_visits WHERE crawl_id = ? AND cycle = ? GROUP BY change`, crawlID, cycle)
	if err != nil {
		return r, wrap(err, "count changes of cycle %d", cycle)
	}
	defer rows.Close()
	for rows.Next() {
		var change crawl.Change
		var n, bytes, notModified int64
		if err := rows.Scan(&change, &n, &bytes, &notModified); err != nil {
			return r, wrap(err, "count changes of cycle %d", cycle)
		}
		r.Bytes += bytes
		switch change {
		case crawl.ChangeNew:
			r.New = n
		case crawl.ChangeChanged:
			r.Changed = n
		case crawl.ChangeUnchanged:
			r.Unchanged, r.NotModified = n, notModified
		case crawl.ChangeGone:
			r.Gone = n
		case crawl.ChangeError:
			r.Errors = n
		}
	}
	if err := rows.Err(); err != nil {
		return r, wrap(err, "count changes of cycle %d", cycle)
	}
	err = d.r.QueryRowContext(ctx, `SELECT
    count(*) FILTER (WHERE v.status = 0 OR v.status >= 400 OR coalesce(p.err, '') <> ''),
    count(*) FILTER (WHERE v.change = 'unchanged' AND (v.status = 0 OR v.status >= 400))
FROM page_visits v LEFT JOIN pages p ON p.crawl_id = v.crawl_id AND p.fp = v.fp AND p.cycle = v.cycle
WHERE v.crawl_id = ? AND v.cycle = ?`, crawlID, cycle).Scan(&r.Failed, &r.StillBroken)
	return r, wrap(err, "count the failed visits of cycle %d", cycle)
}

// ChangeQuery selects the visits of one cycle for the list of changes.
type ChangeQuery struct {
	Crawl   int64
	Cycle   int
	Changes []crawl.Change // the classes to list; none means all but unchanged
	Limit   int            // rows per call; 0 means all
	Offset  int
}

// ChangeRow is one visit in the list of changes.
type ChangeRow struct {
	PageID int64 // the page as stored now, for the detail pane; 0 if none
	URL    string
	Title  string
	Change crawl.Change
	Status int
	At     time.Time
	Length int64 // body bytes read (0 for a 304)
	// The size of a change, in words of body text (crawl/textdiff).
	WordsAdded, WordsRemoved int
}

const changeColumns = `coalesce(p.id, 0), u.url, coalesce(p.title, ''), v.change, v.status, v.at, v.length,
    v.words_added, v.words_removed`

// changeOrder lists new pages first, then changed ones (biggest change
// first), gone, errors and unchanged ones, each in URL order.
const changeOrder = `CASE v.change WHEN 'new' THEN 0 WHEN 'changed' THEN 1 WHEN 'gone' THEN 2 WHEN 'error' THEN 3 ELSE 4 END,
    v.words_added + v.words_removed DESC, u.url`

func (q *ChangeQuery) query() (string, []any) {
	kinds := q.Changes
	if len(kinds) == 0 {
		kinds = []crawl.Change{crawl.ChangeNew, crawl.ChangeChanged, crawl.ChangeGone, crawl.ChangeError}
	}
	args := []any{q.Crawl, q.Cycle}
	marks := make([]string, len(kinds))
	for i, k := range kinds {
		marks[i] = "?"
		args = append(args, string(k))
	}
	args = append(args, limitOr(q.Limit), q.Offset)
	return fmt.Sprintf(`SELECT %s FROM page_visits v
JOIN urls u ON u.crawl_id = v.crawl_id AND u.fp = v.fp
LEFT JOIN pages p ON p.crawl_id = v.crawl_id AND p.fp = v.fp
WHERE v.crawl_id = ? AND v.cycle = ? AND v.change IN (%s)
ORDER BY %s LIMIT ? OFFSET ?`, changeColumns, strings.Join(marks, ", "), changeOrder), args
}

// Changes lists the visits of a cycle that q selects: by default every new,
// changed, gone and failed page, with the size of each change.
func (d *DB) Changes(ctx context.Context, q ChangeQuery) ([]ChangeRow, error) {
	query, args := q.query()
	rows, err := d.r.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, wrap(err, "list changes of cycle %d", q.Cycle)
	}
	defer rows.Close()
	var list []ChangeRow
	for rows.Next() {
		r, err := scanChange(rows)
		if err != nil {
			return nil, wrap(err, "list changes of cycle %d", q.Cycle)
		}
		list = append(list, r)
	}
	return list, wrap(rows.Err(), "list changes of cycle %d", q.Cycle)
}

func scanChange(s scanner) (ChangeRow, error) {
	var r ChangeRow
	var at int64
	err := s.Scan(&r.PageID, &r.URL, &r.Title, &r.Change, &r.Status, &at, &r.Length, &r.WordsAdded, &r.WordsRemoved)
	r.At = time.Unix(0, at).UTC()
	return r, err
}

// ChangesCSVHeader is the header row of ExportChangesCSV.
var ChangesCSVHeader = []string{"url", "change", "status", "visited_at", "length", "words_added", "words_removed", "title"}

// ExportChangesCSV writes the list of changes q selects as RFC 4180 CSV
// with the ChangesCSVHeader row, cells defused like ExportCSV's, and
// returns how many rows it wrote.
func (d *DB) ExportChangesCSV(ctx context.Context, w io.Writer, q ChangeQuery) (int, error) {
	query, args := q.query()
	rows, err := d.r.QueryContext(ctx, query, args...)
	if err != nil {
		return 0, wrap(err, "export changes")
	}
	defer rows.Close()
	cw := csv.NewWriter(w)
	if err := cw.Write(ChangesCSVHeader); err != nil {
		return 0, fmt.Errorf("export changes: %w", err)
	}
	n := 0
	for rows.Next() {
		r, err := scanChange(rows)
		if err != nil {
			return n, wrap(err, "export changes")
		}
		rec := []string{r.URL, string(r.Change), strconv.Itoa(r.Status), r.At.Format(time.RFC3339),
			strconv.FormatInt(r.Length, 10), strconv.Itoa(r.WordsAdded), strconv.Itoa(r.WordsRemoved), r.Title}
		for i, c := range rec {
			rec[i] = SafeCell(c)
		}
		if err := cw.Write(rec); err != nil {
			return n, fmt.Errorf("export changes: %w", err)
		}
		n++
	}
	if err := rows.Err(); err != nil {
		return n, wrap(err, "export changes")
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return n, fmt.Errorf("export changes: %w", err)
	}
	return n, nil
}

// Visit is one visit of a page, from its history.
type Visit struct {
	Cycle     int
	At        time.Time
	Status    int
	ContentFP uint64
	Length    int64 // body bytes read (0 for a 304)
	Change    crawl.Change
	Changed   bool // counted as a change by the revisit schedule
	// The size of a change, in words.
	WordsAdded, WordsRemoved int
}

// History returns every visit of a page of the crawl, the first first.
func (d *DB) History(ctx context.Context, crawlID int64, url string) ([]Visit, error) {
	rows, err := d.r.QueryContext(ctx, `SELECT cycle, at, status, content_fp, length, change, changed, words_added, words_removed
FROM page_visits WHERE crawl_id = ? AND fp = ? ORDER BY cycle`, crawlID, int64(rabin.FingerprintString(url)))
	if err != nil {
		return nil, wrap(err, "read history of %s", url)
	}
	defer rows.Close()
	var list []Visit
	for rows.Next() {
		var v Visit
		var at, contentFP int64
		if err := rows.Scan(&v.Cycle, &at, &v.Status, &contentFP, &v.Length, &v.Change, &v.Changed, &v.WordsAdded, &v.WordsRemoved); err != nil {
			return nil, wrap(err, "read history of %s", url)
		}
		v.At, v.ContentFP = time.Unix(0, at).UTC(), uint64(contentFP)
		list = append(list, v)
	}
	return list, wrap(rows.Err(), "read history of %s", url)
}

// Version is one text of a page: the current one or a kept older one.
type Version struct {
	Cycle     int // the cycle whose visit fetched it; for the current text, the latest visit, which may have been a 304
	FetchedAt time.Time
	ContentFP uint64
	Title     string
	Text      string
	Current   bool // the text stored with the page now
}

// Versions returns the texts kept of a page, newest first: the current
// text (when it has one), then up to KeepVersions−1 older ones, so that two
// can be compared with crawl/textdiff.
func (d *DB) Versions(ctx context.Context, crawlID int64, url string) ([]Version, error) {
	rows, err := d.r.QueryContext(ctx, `
SELECT cycle, fetched_at, content_fp, title, text, 1 FROM pages WHERE crawl_id = ?1 AND fp = ?2 AND text <> ''
UNION ALL
SELECT cycle, fetched_at, content_fp, title, text, 0 FROM page_versions WHERE crawl_id = ?1 AND fp = ?2
ORDER BY 6 DESC, 1 DESC`, crawlID, int64(rabin.FingerprintString(url)))
	if err != nil {
		return nil, wrap(err, "read versions of %s", url)
	}
	defer rows.Close()
	var list []Version
	for rows.Next() {
		var v Version
		var at, contentFP int64
		if err := rows.Scan(&v.Cycle, &at, &contentFP, &v.Title, &v.Text, &v.Current); err != nil {
			return nil, wrap(err, "read versions of %s", url)
		}
		v.FetchedAt, v.ContentFP = time.Unix(0, at).UTC(), uint64(contentFP)
		list = append(list, v)
	}
	return list, wrap(rows.Err(), "read versions of %s", url)
}
