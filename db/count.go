package db

import "context"

// CountPages returns how many pages match q's filters (After and Limit
// are ignored). Filters on status class, type, host and depth alone are
// answered from the kept counts (db/counts.go); others are counted the
// cheap way round: the matches of a verdict, the near-duplicates or a
// search are counted as a set, the other filters' pages walked through
// their most selective index and checked against such sets.
func (d *DB) CountPages(ctx context.Context, q PageQuery) (int, error) {
	q.pg = d.pg
	if q.Skipped {
		return d.countSkipped(ctx, q)
	}
	if q.countFilters() {
		return d.keptCount(ctx, &q)
	}
	query, args, err := d.countQuery(ctx, &q)
	if err != nil {
		return 0, err
	}
	var n int
	err = d.r.QueryRowContext(ctx, query, args...).Scan(&n)
	return n, wrap(badQuery(err, q.Search), "count pages")
}

// countQuery returns the query counting q's pages and its arguments.
func (d *DB) countQuery(ctx context.Context, q *PageQuery) (string, []any, error) {
	if d.pg {
		from, where, args, err := q.filter(access{})
		return "SELECT count(*) FROM " + from + " WHERE " + where, args, err
	}
	s, err := d.sizes(ctx, q)
	if err != nil {
		return "", nil, err
	}
	if q.filtered() && s.mayKeepAll() {
		// A search matching every page leaves the other filters to count:
		// counting its matches costs 0.1 s, checking a million of them
		// against the others' pages several times that.
		all, err := d.searchKeepsAll(ctx, q.Crawl, s.match, s.crawl)
		if err != nil || all {
			unsearched := *q
			unsearched.Search = ""
			return d.unsearchedCount(ctx, &unsearched, err)
		}
	}
	cube := q.StatusClass != 0 || q.ContentType != "" || q.Host != "" || q.Depth != nil // filters page_counts counts by
	switch {
	case q.Search == "" && !cube && q.Verdict != "" && !q.NearDuplicates:
		// A verdict's rows belong to pages of its crawl, while they last.
		return `SELECT count(*) FROM verdicts WHERE crawl_id = ? AND verdict = ?`, []any{q.Crawl, q.Verdict}, nil
	case q.Search == "" && !cube && q.Verdict == "":
		return `SELECT count(*) FROM ` + nearPages + ` AS n`, []any{q.Crawl}, nil
	case q.Search != "" && !q.filtered():
		query, args, shared, err := d.searchCountQuery(ctx, q.Crawl, s.match)
		if shared && err == nil {
			from, where, fargs, err := q.filter(access{drive: bySearch})
			return "SELECT count(*) FROM " + from + " WHERE " + where, fargs, err
		}
		return query, args, err
	}
	// Walk the pages of the most selective filter the indexes hold (all
	// the crawl's when there is none), checking the others in the index or
	// against sets. A search small enough drives instead; a larger one's
	// matches are checked against the set of pages the others keep.
	if q.Search != "" && s.search < countCap && s.search < s.kept {
		from, where, args, err := q.filter(access{drive: bySearch, probe: s.match})
		return "SELECT count(*) FROM " + from + " WHERE " + where, args, err
	}
	from, where, args, err := q.kept(s)
	if q.Search == "" || err != nil {
		return "SELECT count(*) FROM " + from + " WHERE " + where, args, err
	}
	return `SELECT count(*) FROM pages_fts WHERE pages_fts MATCH ? AND +pages_fts.rowid IN (SELECT p.id FROM ` + from +
		` WHERE ` + where + `)`, append([]any{s.match}, args...), nil
}

// unsearchedCount returns the query counting q, which has no search, or
// err.
func (d *DB) unsearchedCount(ctx context.Context, q *PageQuery, err error) (string, []any, error) {
	if err != nil {
		return "", nil, err
	}
	if q.countFilters() {
		n, err := d.keptCount(ctx, q)
		return "SELECT ?", []any{n}, err
	}
	return d.countQuery(ctx, q)
}

// kept returns the FROM and WHERE clauses of the crawl's pages that q's
// filters other than a search keep (all its pages when there is none):
// a walk of the most selective filter's index, checking the others in the
// index or against sets.
func (q *PageQuery) kept(s sizes) (from, where string, args []any, err error) {
	others := *q
	others.Search = ""
	a := access{index: "pages_stored", sets: others.uncovered("pages_stored")}
	best := s.crawl
	for _, f := range []struct {
		n     float64
		set   bool
		index string
	}{{s.status, q.StatusClass != 0, "pages_status"}, {s.depth, q.Depth != nil, "pages_depth"},
		{s.host, q.Host != "", "pages_host"}, {s.ctype, q.ContentType != "", "pages_type"}} {
		if f.set && f.n < best {
			best, a.index, a.sets = f.n, f.index, others.uncovered(f.index)
		}
	}
	return others.filter(a)
}

// searchCountQuery returns the query counting the matches of an FTS5
// query between the crawl's first id and its last, in the full-text index
// alone: the crawl's matches, unless shared reports that other crawls
// have pages there too.
func (d *DB) searchCountQuery(ctx context.Context, crawlID int64, match string) (query string, args []any, shared bool, err error) {
	err = d.r.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM crawls c WHERE c.id <> ?1 AND EXISTS (
    SELECT 1 FROM pages p WHERE p.crawl_id = c.id AND p.id >= (SELECT min(id) FROM pages WHERE crawl_id = ?1)
        AND p.id <= (SELECT max(id) FROM pages WHERE crawl_id = ?1)))`, crawlID).Scan(&shared)
	if err != nil {
		return "", nil, false, wrap(err, "count the matches of a search")
	}
	return `SELECT count(*) FROM pages_fts WHERE pages_fts MATCH ?1
    AND rowid >= (SELECT min(id) FROM pages WHERE crawl_id = ?2) AND rowid <= (SELECT max(id) FROM pages WHERE crawl_id = ?2)`,
		[]any{match, crawlID}, shared, nil
}
