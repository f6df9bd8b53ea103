package db

import (
	"context"
	"fmt"
	"strings"
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

// sortInMemory is how many matching rows a filtered listing may have for
// SQLite to find them all through the filter's index and sort them; with
// more, it walks the sort column's index instead and skips the rows the
// filters refuse, which is quick unless the matches cluster late in that
// order (a host's URLs, say). A variable so tests can take both ways.
var sortInMemory = 25_000

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
	Rank        float64 // FTS5 rank of a search match (lower is better); 0 without Search

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

// filter builds the FROM and WHERE clauses of q, without paging. A
// non-empty index forces SQLite to walk it.
func (q *PageQuery) filter(index string) (from, where string, args []any, err error) {
	conds := []string{"p.crawl_id = ?"}
	args = []any{q.Crawl}
	from = "pages p"
	if index != "" && !q.pg {
		from += " INDEXED BY " + index
	}
	if q.Search != "" {
		var match string
		if from, match, err = q.searchFrom(); err != nil {
			return "", "", nil, err
		}
		args = append([]any{match}, args...)
		if !q.pg {
			conds = append([]string{"pages_fts MATCH ?"}, conds...)
		} else {
			conds = append(conds, "p.fts @@ tsq")
		}
	}
	switch c := q.StatusClass; {
	case c == -1:
		conds = append(conds, "p.status = 0")
	case c >= 1 && c <= 5:
		// Not BETWEEN: SQLite bounds an index range by the first bound it
		// meets in the WHERE clause, and the keyset bound must come first.
		conds = append(conds, "p.status >= ? AND p.status <= ?")
		args = append(args, c*100, c*100+99)
	case c != 0:
		return "", "", nil, fmt.Errorf("status class %d: want -1, 0 or 1 to 5", c)
	}
	if q.ContentType != "" {
		conds = append(conds, "p.content_type = ?")
		args = append(args, q.ContentType)
	}
	if q.Host != "" {
		conds = append(conds, "p.host = ?")
		args = append(args, q.Host)
	}
	if q.Depth != nil {
		conds = append(conds, "p.depth = ?")
		args = append(args, *q.Depth)
	}
	if q.NearDuplicates {
		conds = append(conds, nearFilter)
	}
	switch q.Verdict {
	case "":
	case "black", "white", "grey":
		conds = append(conds, "p.id IN (SELECT page_id FROM verdicts WHERE crawl_id = ? AND verdict = ?)")
		args = append(args, q.Crawl, q.Verdict)
	default:
		return "", "", nil, fmt.Errorf("verdict %q: want black, white or grey", q.Verdict)
	}
	return from, strings.Join(conds, " AND "), args, nil
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

// filtered reports whether q has filters other than the crawl and search.
func (q *PageQuery) filtered() bool {
	return q.StatusClass != 0 || q.ContentType != "" || q.Host != "" || q.Depth != nil || q.NearDuplicates ||
		q.Verdict != ""
}

// fewMatches reports whether q's filters select at most sortInMemory rows.
func (d *DB) fewMatches(ctx context.Context, q *PageQuery) (bool, error) {
	if !q.filtered() || q.Search != "" {
		return false, nil
	}
	from, where, args, err := q.filter("")
	if err != nil {
		return false, err
	}
	var n int
	err = d.r.QueryRowContext(ctx, fmt.Sprintf("SELECT count(*) FROM (SELECT 1 FROM %s WHERE %s LIMIT %d) AS few",
		from, where, sortInMemory+1), args...).Scan(&n)
	return n <= sortInMemory, wrap(err, "count pages")
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

func (d *DB) pages(ctx context.Context, q PageQuery, offset int) ([]PageRow, error) {
	q.pg = d.pg
	if q.Skipped {
		return d.skipped(ctx, q, offset)
	}
	if q.Sort == SortRelevance && q.Search != "" {
		return d.relevant(ctx, q, offset)
	}
	if q.Sort == SortRelevance {
		q.Sort = SortStored
	}
	few, err := d.fewMatches(ctx, &q)
	if err != nil {
		return nil, err
	}
	pick, args, err := q.pick(offset, few)
	if err != nil {
		return nil, err
	}
	orderBy, _, _, _ := q.order(false)
	// The ids are chosen first, touching only indexes where the filters
	// allow it; the rows are then read for the chosen few.
	join := "CROSS JOIN" // SQLite keeps the left table outside: the few ids picked
	if d.pg {
		join = "JOIN"
	}
	query := fmt.Sprintf(`WITH pick AS MATERIALIZED (%s)
SELECT %s FROM pick %s pages p ON p.id = pick.id ORDER BY %s LIMIT ?`, pick, rowColumns, join, orderBy)
	args = append(args, q.limit())
	rows, err := d.r.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, wrap(badQuery(err, q.Search), "list pages")
	}
	defer rows.Close()
	var list []PageRow
	for rows.Next() {
		r, err := scanRow(rows)
		if err != nil {
			return nil, wrap(err, "list pages")
		}
		list = append(list, r)
	}
	if err := rows.Err(); err != nil {
		return nil, wrap(badQuery(err, q.Search), "list pages")
	}
	if q.Search != "" && len(list) > 0 {
		if err := d.snippets(ctx, q.Search, list); err != nil {
			return nil, err
		}
	}
	return list, nil
}

// pick returns a query for the ids of the rows to list: at most Limit of
// them, a superset of the rows wanted when it is made of two parts. few
// says the filters match few rows (see sortInMemory).
//
// After a cursor (v, id) in column c, the rows wanted are those with c = v
// and a larger id, then those with a larger c. A row-value comparison
// (c, id) > (v, id) is the same set, but SQLite seeks only on c with it and
// would walk every earlier row sharing v (most of a million for status 200).
// Each half below is one exact index seek.
func (q *PageQuery) pick(offset int, few bool) (string, []any, error) {
	sc := sortColumns[q.Sort]
	index := sc.index
	if few || q.Search != "" {
		index = ""
	}
	from, where, args, err := q.filter(index)
	if err != nil {
		return "", nil, err
	}
	orderBy, _, _, err := q.order(few)
	if err != nil {
		return "", nil, err
	}
	col, n := "p."+sc.col, q.limit()
	if few && !q.pg {
		col = "+" + col
	}
	cmp, dir := ">", "ASC"
	if q.Desc {
		cmp, dir = "<", "DESC"
	}
	switch {
	case q.After == nil:
		return fmt.Sprintf(`SELECT p.id AS id FROM %s WHERE %s ORDER BY %s LIMIT ? OFFSET ?`, from, where, orderBy),
			append(args, n, offset), nil
	case q.Sort == SortStored:
		return fmt.Sprintf(`SELECT p.id AS id FROM %s WHERE %s AND %s %s ? ORDER BY %s LIMIT ?`, from, where, col, cmp, orderBy),
			append(args, q.After.ID, n), nil
	}
	// SQLite bounds an index range by the first bound it meets, so the
	// second half puts the keyset bound first; PostgreSQL's planner does
	// not care, and a search's FROM clause holds its own argument there.
	next, nextArgs := "%[3]s %[4]s ? AND %[2]s", append([]any{q.After.Key}, args...)
	if q.pg {
		next, nextArgs = "%[2]s AND %[3]s %[4]s ?", append(append([]any{}, args...), q.After.Key)
	}
	query := fmt.Sprintf(`
SELECT id FROM (SELECT p.id AS id FROM %[1]s WHERE %[2]s AND %[3]s = ? AND p.id %[4]s ? ORDER BY p.id %[5]s LIMIT ?) AS same
UNION ALL
SELECT id FROM (SELECT p.id AS id FROM %[1]s WHERE `+next+` ORDER BY %[6]s LIMIT ?) AS next`,
		from, where, col, cmp, dir, orderBy)
	all := append(append([]any{}, args...), q.After.Key, q.After.ID, n)
	all = append(append(all, nextArgs...), n)
	return query, all, nil
}

// CountPages returns how many pages match q's filters (After and Limit
// are ignored).
func (d *DB) CountPages(ctx context.Context, q PageQuery) (int, error) {
	q.pg = d.pg
	if q.Skipped {
		return d.countSkipped(ctx, q)
	}
	if q.countFilters() {
		return d.keptCount(ctx, &q)
	}
	from, where, args, err := q.filter("")
	if err != nil {
		return 0, err
	}
	var n int
	err = d.r.QueryRowContext(ctx, "SELECT count(*) FROM "+from+" WHERE "+where, args...).Scan(&n)
	return n, wrap(badQuery(err, q.Search), "count pages")
}
