package db

import (
	"context"
	"fmt"
	"time"

	"github.com/trawler/trawler/crawl"
)

// SortKey names the column a listing of pages is sorted by. Ties, and the
// empty key, fall back to the order pages were stored in.
type SortKey string

// Sort keys of the results table.
const (
	SortStored  SortKey = ""
	SortURL     SortKey = "url"
	SortStatus  SortKey = "status"
	SortTitle   SortKey = "title"
	SortDepth   SortKey = "depth"
	SortType    SortKey = "type"
	SortSize    SortKey = "size"
	SortFetched SortKey = "fetched_at"

	// SortRelevance orders the matches of a search best first (FTS5's
	// bm25, a match in the title weighing most); it needs Search.
	SortRelevance SortKey = "relevance"
)

// sortColumns gives each sort key its column and the index that walks the
// crawl's pages in that column's order (ties in id order).
var sortColumns = map[SortKey]struct{ col, index string }{
	SortStored: {"id", "pages_stored"}, SortURL: {"url", "pages_url"}, SortStatus: {"status", "pages_status"},
	SortTitle: {"title", "pages_title"}, SortDepth: {"depth", "pages_depth"}, SortType: {"content_type", "pages_type"},
	SortSize: {"length", "pages_length"}, SortFetched: {"fetched_at", "pages_fetched"},
}

// DefaultLimit is the page size of a listing whose Limit is 0.
const DefaultLimit = 100

// PageQuery selects, sorts and pages the pages of one crawl. Filters left
// at their zero value select everything.
type PageQuery struct {
	Crawl       int64
	StatusClass int    // 0 any; 1…5 the 1xx…5xx statuses; -1 no status (network error)
	ContentType string // exact media type, e.g. "text/html"
	Host        string // exact host:port as stored
	Depth       *int   // nil for any depth
	Search      string // what the user typed (see ftsQuery; AdvancedPrefix for FTS5 syntax); rows then carry a Snippet
	// NearDuplicates keeps the pages in a near-duplicate group of two or
	// more (see crawl/neardup): pages that match an earlier page and the
	// pages they match.
	NearDuplicates bool

	// Verdict keeps the pages the word lists judged so: "black", "white"
	// or "grey" (paper 002's sensitive-word filter); empty for any.
	Verdict string

	// Skipped lists the URLs found and not fetched instead of the pages,
	// optionally of one SkipReason; only Depth and Search (a substring of
	// the URL) filter them further.
	Skipped    bool
	SkipReason crawl.SkipReason

	Sort  SortKey
	Desc  bool
	After *Cursor // continue after this row (keyset paging); nil starts at the top
	Limit int     // rows per call; 0 means DefaultLimit

	pg bool // build PostgreSQL's SQL: set by the DB method that runs the query
}

// Cursor marks a row of a sorted listing: its sort-column value and id.
// Take it from the last row of one call (PageRow.Cursor) to ask for the next.
type Cursor struct {
	Key any // string or int64, the row's value in the sort column; unused for SortStored
	ID  int64
}

// PageRow is one line of the results table.
type PageRow struct {
	ID          int64
	URL         string
	Host        string
	Status      int
	Title       string
	Depth       int
	ContentType string
	Length      int64
	FetchedAt   time.Time
	ContentFP   uint64
	DuplicateOf string
	Err         string
	Snippet     string  // the best fragment for Search, matches between MatchStart and MatchEnd; empty without Search
	Rank        float64 // relevance of a search match, lower first; 0 unless sorted by relevance (SortRelevance)

	NearGroup      uint64       // near-duplicate group (URL fingerprint of its first page); 0 for none
	NearSimilarity float64      // estimated similarity to the best earlier match; 0 when it has none
	Change         crawl.Change // what the latest visit found; empty for pages stored before re-crawls existed

	RedirectTo string           // Location of a 3xx answer
	Truncated  bool             // the body was cut at the size cap
	Verdict    string           // black, white or grey by the crawl's word lists; empty when not scored
	SkipReason crawl.SkipReason // why a skipped URL was not fetched (PageQuery.Skipped)
	Parent     string           // the page that linked to a skipped URL
}

// Cursor returns the position of r in a listing sorted by s.
func (r *PageRow) Cursor(s SortKey) *Cursor {
	c := &Cursor{ID: r.ID}
	switch s {
	case SortURL:
		c.Key = r.URL
	case SortStatus:
		c.Key = int64(r.Status)
	case SortTitle:
		c.Key = r.Title
	case SortDepth:
		c.Key = int64(r.Depth)
	case SortType:
		c.Key = r.ContentType
	case SortSize:
		c.Key = r.Length
	case SortFetched:
		c.Key = r.FetchedAt.UnixNano()
	case SortRelevance:
		c.Key = r.Rank
	}
	return c
}

const rowColumns = `p.id, p.url, p.host, p.status, p.title, p.depth, p.content_type, p.length,
    p.fetched_at, p.content_fp, p.duplicate_of, p.err, p.near_group, p.near_similarity, p.change,
    p.redirect_to, p.truncated, coalesce((SELECT v.verdict FROM verdicts v WHERE v.page_id = p.id), '')`

func scanRow(s scanner, extra ...any) (PageRow, error) {
	var r PageRow
	var fetched, contentFP, group int64
	dst := []any{&r.ID, &r.URL, &r.Host, &r.Status, &r.Title, &r.Depth, &r.ContentType, &r.Length,
		&fetched, &contentFP, &r.DuplicateOf, &r.Err, &group, &r.NearSimilarity, &r.Change,
		&r.RedirectTo, &r.Truncated, &r.Verdict}
	err := s.Scan(append(dst, extra...)...)
	r.FetchedAt = time.Unix(0, fetched).UTC()
	r.ContentFP, r.NearGroup = uint64(contentFP), uint64(group)
	return r, err
}

// order returns the ORDER BY clause of q and the keyset condition for
// After. With noIndex, the sort column is written +p.col, which SQLite
// cannot serve from an index, so the filters' indexes drive the query.
func (q *PageQuery) order(noIndex bool) (orderBy, after string, args []any, err error) {
	if q.Sort == SortRelevance {
		return q.relevanceOrder()
	}
	sc, ok := sortColumns[q.Sort]
	if !ok {
		return "", "", nil, fmt.Errorf("sort by %q: unknown column", q.Sort)
	}
	dir, cmp := "ASC", ">"
	if q.Desc {
		dir, cmp = "DESC", "<"
	}
	col := "p." + sc.col
	if noIndex && !q.pg {
		col = "+" + col
	}
	if q.Sort == SortStored {
		orderBy = col + " " + dir
	} else {
		orderBy = fmt.Sprintf("%s %s, p.id %s", col, dir, dir)
	}
	if q.After != nil {
		if q.Sort == SortStored {
			after, args = col+" "+cmp+" ?", []any{q.After.ID}
		} else {
			after = fmt.Sprintf("(%s, p.id) %s (?, ?)", col, cmp)
			args = []any{q.After.Key, q.After.ID}
		}
	}
	return orderBy, after, args, nil
}

func (q *PageQuery) limit() int {
	if q.Limit <= 0 {
		return DefaultLimit
	}
	return q.Limit
}

// Pages returns the next rows of a listing: up to Limit rows after
// q.After, in q.Sort order. Keyset paging makes every call an index walk,
// however deep into a million rows it starts.
func (d *DB) Pages(ctx context.Context, q PageQuery) ([]PageRow, error) {
	return d.pages(ctx, q, 0)
}

// PagesAt returns up to limit rows starting at row offset (0-based) of
// the listing q describes, ignoring q.After: random access for a table that
// scrolls straight to row 900,000. It skips rows along an index, without
// reading them, so its cost grows with offset; page on with Pages.
func (d *DB) PagesAt(ctx context.Context, q PageQuery, offset, limit int) ([]PageRow, error) {
	q.After, q.Limit = nil, limit
	return d.pages(ctx, q, offset)
}
