package db

import (
	"context"
	"database/sql"
	"time"

	"github.com/trawler/trawler/crawl/rabin"
	"github.com/trawler/trawler/urlfilter"
)

// A crawl's verdicts are lists too (paper 002: the sensitive-word filter
// puts each URL on the black or the white list). They are read from the
// verdicts table, never copied into filter_entries, so a re-scoring with
// new word lists changes the lists at once.

// VerdictEntry is a page's verdict as an exact-URL list entry: black
// verdicts on the black list under the deciding category, white and grey
// ones on the white list (grey under the category "grey", so that a
// gateway policy can block them for some clients).
type VerdictEntry struct {
	urlfilter.Entry
	Verdict   string
	FetchedAt time.Time // when the page was crawled: verdicts age from then
	ScoredAt  time.Time
}

// GreyCategory is the category of grey verdicts on the white list.
const GreyCategory = "grey"

const selectVerdictEntries = `
SELECT p.url, v.verdict, v.category, p.fetched_at, v.scored_at FROM verdicts v JOIN pages p ON p.id = v.page_id
WHERE v.crawl_id = ? AND v.verdict <> '' AND `

// VerdictEntries calls fn with the verdicts of a crawl's pages crawled at
// or after since: the verdict part of the lists, without the aged ones.
func (d *DB) VerdictEntries(ctx context.Context, crawlID int64, since time.Time, fn func(VerdictEntry) error) error {
	return d.verdictEntries(ctx, fn, `p.fetched_at >= ?`, crawlID, since.UnixNano())
}

// VerdictsScoredAfter calls fn with the verdicts of a crawl given after
// t, oldest first: what a running gateway adds to its lists.
func (d *DB) VerdictsScoredAfter(ctx context.Context, crawlID int64, t time.Time, fn func(VerdictEntry) error) error {
	return d.verdictEntries(ctx, fn, `v.scored_at > ? ORDER BY v.scored_at`, crawlID, t.UnixNano())
}

// VerdictsCrawledBetween calls fn with the verdicts of a crawl's pages
// last crawled in [from, to): those that aged out of the lists between
// two looks of a gateway.
func (d *DB) VerdictsCrawledBetween(ctx context.Context, crawlID int64, from, to time.Time, fn func(VerdictEntry) error) error {
	return d.verdictEntries(ctx, fn, `p.fetched_at >= ? AND p.fetched_at < ?`, crawlID, from.UnixNano(), to.UnixNano())
}

func (d *DB) verdictEntries(ctx context.Context, fn func(VerdictEntry) error, where string, args ...any) error {
	rows, err := d.r.QueryContext(ctx, selectVerdictEntries+where, args...)
	if err != nil {
		return wrap(err, "read verdicts as list entries")
	}
	defer rows.Close()
	for rows.Next() {
		var e VerdictEntry
		var fetched, scored int64
		if err := rows.Scan(&e.Value, &e.Verdict, &e.Category, &fetched, &scored); err != nil {
			return wrap(err, "read verdicts as list entries")
		}
		e.Kind, e.FetchedAt, e.ScoredAt = urlfilter.KindURL, time.Unix(0, fetched).UTC(), time.Unix(0, scored).UTC()
		switch e.Verdict {
		case "black":
			e.List = urlfilter.Black
		case "grey":
			e.List, e.Category = urlfilter.White, GreyCategory
		default:
			e.List, e.Category = urlfilter.White, ""
		}
		if err := fn(e); err != nil {
			return err
		}
	}
	return wrap(rows.Err(), "read verdicts as list entries")
}

// PageExplanation is what a gateway's block page says of a page that a
// verdict put on a list.
type PageExplanation struct {
	PageID    int64
	Title     string
	Text      string // the start of the body text, for a snippet
	FetchedAt time.Time
	PageVerdict
}

// ExplainURL returns the stored page of a URL (normalized) in a crawl
// with its verdict; ok is false when the crawl has no page for it.
func (d *DB) ExplainURL(ctx context.Context, crawlID int64, url string) (e PageExplanation, ok bool, err error) {
	var fetched int64
	err = d.r.QueryRowContext(ctx, `SELECT id, title, substr(text, 1, 65536), fetched_at FROM pages WHERE crawl_id = ? AND fp = ?`,
		crawlID, int64(rabin.FingerprintString(url))).Scan(&e.PageID, &e.Title, &e.Text, &fetched)
	if err != nil {
		if err == sql.ErrNoRows {
			return e, false, nil
		}
		return e, false, wrap(err, "read the page of %s", url)
	}
	e.FetchedAt = time.Unix(0, fetched).UTC()
	e.PageVerdict, _, err = d.Verdict(ctx, e.PageID)
	return e, true, err
}
