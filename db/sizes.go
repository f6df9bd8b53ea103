package db

import (
	"context"
	"fmt"
	"math"
)

// searchSample is how many matches a plan counts to size a search; past
// that it counts those among the crawl's first searchSample ids.
var searchSample = 20_000

// countCap bounds the counts a plan makes to size the verdict, near-
// duplicate and search filters, and is the most ids it puts in a set.
const countCap = 200_000

// sizes are what a plan knows of a listing's rows: the crawl's pages, and
// how many pages each filter keeps alone (the crawl's when it is unset).
type sizes struct {
	crawl                      float64
	span                       float64 // pages whose sort key lies within bounds: what a walk may read
	bounds                     string  // the range of the sort column the listing's rows have, when the kept counts know it
	boundArgs                  []any
	kept                       float64 // pages the status, type, host and depth filters keep together
	status, depth, host, ctype float64
	verdict, near, search      float64 // bounded by countCap
	match                      string  // the search's full-text query
	cheapProbe                 bool    // match can be asked about one page cheaply (no prefix)
}

// sizes sizes q's filters: exactly from the kept counts for status, type,
// host and depth, by bounded counts of the verdicts, near-duplicates and
// search matches.
func (d *DB) sizes(ctx context.Context, q *PageQuery) (sizes, error) {
	kept := func(k PageQuery) (float64, error) {
		k.Crawl = q.Crawl
		n, err := d.keptCount(ctx, &k)
		return float64(n), err
	}
	var s sizes
	var err error
	if s.crawl, err = kept(PageQuery{}); err != nil {
		return s, err
	}
	s.crawl = math.Max(s.crawl, 1)
	s.kept, s.status, s.depth, s.host, s.ctype = s.crawl, s.crawl, s.crawl, s.crawl, s.crawl
	s.verdict, s.near, s.search = s.crawl, s.crawl, s.crawl
	for _, k := range []struct {
		dst *float64
		q   PageQuery
		set bool
	}{
		{&s.kept, PageQuery{StatusClass: q.StatusClass, ContentType: q.ContentType, Host: q.Host, Depth: q.Depth}, true},
		{&s.status, PageQuery{StatusClass: q.StatusClass}, q.StatusClass != 0},
		{&s.depth, PageQuery{Depth: q.Depth}, q.Depth != nil},
		{&s.host, PageQuery{Host: q.Host}, q.Host != ""},
		{&s.ctype, PageQuery{ContentType: q.ContentType}, q.ContentType != ""},
	} {
		if k.set {
			if *k.dst, err = kept(k.q); err != nil {
				return s, err
			}
		}
	}
	s.span = s.crawl
	if err := d.bound(ctx, q, &s); err != nil {
		return s, err
	}
	bounded := func(dst *float64, query string, args ...any) error {
		var n int
		err := d.r.QueryRowContext(ctx, fmt.Sprintf(`SELECT count(*) FROM (%s LIMIT %d) AS s`, query, countCap), args...).Scan(&n)
		*dst = float64(n)
		return wrap(err, "size the listing")
	}
	if q.Verdict != "" {
		if err := bounded(&s.verdict, `SELECT 1 FROM verdicts WHERE crawl_id = ? AND verdict = ?`, q.Crawl, q.Verdict); err != nil {
			return s, err
		}
	}
	if q.NearDuplicates {
		if err := bounded(&s.near, nearIDs, q.Crawl); err != nil {
			return s, err
		}
	}
	if q.Search != "" {
		if s.match, s.cheapProbe, err = d.probeQuery(ctx, q.Search); err != nil {
			return s, err
		}
		n, err := d.searchCount(ctx, q.Crawl, s.match, searchSample)
		if err != nil || n < searchSample {
			s.search = float64(n)
			return s, err
		}
		// Past a sample's worth, the share of matches among the crawl's
		// first ids stands for all.
		var ids, sample int
		err = d.r.QueryRowContext(ctx, `SELECT (SELECT max(id) FROM pages WHERE crawl_id = ?2) - (
    SELECT min(id) FROM pages WHERE crawl_id = ?2) + 1, (
    SELECT count(*) FROM pages_fts WHERE pages_fts MATCH ?1 AND rowid >= (SELECT min(id) FROM pages WHERE crawl_id = ?2)
        AND rowid < (SELECT min(id) FROM pages WHERE crawl_id = ?2) + ?3)`, s.match, q.Crawl, searchSample).Scan(&ids, &sample)
		s.search = math.Min(s.crawl, math.Max(float64(searchSample), s.crawl*float64(sample)/float64(max(1, min(ids, searchSample)))))
		return s, wrap(badQuery(err, q.Search), "size the search")
	}
	return s, nil
}

// bound finds, for a listing sorted by a column the kept counts count by
// (status, depth, type) and filtered by some of them, the range of values
// its rows have in that column and the crawl's pages in that range: a
// walk of the sort order starts and ends there. One host's pages may all
// answer 404, all of one depth; their walk skips the others unread.
func (d *DB) bound(ctx context.Context, q *PageQuery, s *sizes) error {
	col := map[SortKey]string{SortStatus: "status", SortDepth: "depth", SortType: "content_type"}[q.Sort]
	kept := PageQuery{Crawl: q.Crawl, StatusClass: q.StatusClass, ContentType: q.ContentType, Host: q.Host, Depth: q.Depth}
	if col == "" || !kept.filtered() {
		return nil
	}
	where, args, err := kept.countWhere()
	if err != nil {
		return err
	}
	var lo, hi any
	err = d.r.QueryRowContext(ctx, `SELECT min(`+col+`), max(`+col+`) FROM page_counts WHERE `+where+` AND pages > 0`,
		args...).Scan(&lo, &hi)
	if err != nil || lo == nil {
		return wrap(err, "bound the listing")
	}
	var span int64
	err = d.r.QueryRowContext(ctx, `SELECT coalesce(sum(pages), 0) FROM page_counts WHERE crawl_id = ? AND `+col+` >= ? AND `+
		col+` <= ?`, q.Crawl, lo, hi).Scan(&span)
	s.bounds, s.boundArgs, s.span = "p."+col+" >= ? AND p."+col+" <= ?", []any{lo, hi}, math.Max(float64(span), 1)
	return wrap(err, "bound the listing")
}

// searchCount counts, up to limit, the matches of an FTS5 query among the
// pages whose ids lie between the crawl's first and last: the crawl's
// matches, and those of other crawls stored between its pages. Only the
// full-text index is read.
func (d *DB) searchCount(ctx context.Context, crawlID int64, match string, limit int) (int, error) {
	var n int
	err := d.r.QueryRowContext(ctx, fmt.Sprintf(`SELECT count(*) FROM (SELECT 1 FROM pages_fts WHERE pages_fts MATCH ?1
    AND rowid >= (SELECT min(id) FROM pages WHERE crawl_id = ?2) AND rowid <= (SELECT max(id) FROM pages WHERE crawl_id = ?2)
    LIMIT %d) AS s`, limit), match, crawlID).Scan(&n)
	return n, wrap(badQuery(err, match), "count the matches of a search")
}

// deepOffset is where a listing is deep enough that knowing whether its
// search matches every page pays.
var deepOffset = 10_000

// mayKeepAll reports whether the search, sized from a sample, may match
// every page of the crawl; searchKeepsAll tells for sure.
func (s sizes) mayKeepAll() bool { return s.match != "" && s.search >= s.crawl }
