package db

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"
)

// How a listing finds its rows on SQLite (PostgreSQL's planner chooses for
// itself). There are two ways:
//
// Walk: read the sort column's index in order, from the cursor or the
// offset, skip the rows the filters refuse and stop at Limit. Every sort
// index carries each page's status and depth (schema 7), so those filters
// cost nothing more than the entry; the stored order's index also carries
// host and type. The other filters are checked either against a set of
// ids found once through their own index (a few hundred nanoseconds an
// id), which keeps the walk in the index, or row by row: the row read by
// id, or the full-text index asked about it. A walk reads about
// (offset+Limit)·N/m index entries for m matching rows of N: cheap when
// many rows match, and bounded by N when they gather late in the order.
//
// Gather: find the matching rows of the most selective filter first,
// through its index, the full-text index or a set of ids; read each row,
// check the other filters and keep the best offset+Limit by the sort key
// (SQLite's sorter keeps no more): cheap when few rows match.
//
// A plan estimates both from the kept counts (db/counts.go) and a few
// bounded counts, and takes the cheaper. One host's pages in URL order
// are a walk of the host index, whatever their number.

// Estimated costs, in microseconds, of the steps of a listing on a million
// pages whose file is in the operating system's cache but not SQLite's.
const (
	costEntry = 0.3   // the next entry of an index walked in order
	costSet   = 0.4   // an id added to a set of ids
	costRow   = 4.0   // a page, or a verdict, read by id: a random read
	costProbe = 100.0 // asking the full-text index whether one page matches
)

// clusterShare is the run of refused rows, as a share of the rows a walk
// may read, that a plan allows for before a walk's first matches.
const clusterShare = 0.1

// searchSample is how many matches a plan counts to size a search; past
// that it counts those among the crawl's first searchSample ids.
var searchSample = 20_000

// countCap bounds the counts a plan makes to size the verdict, near-
// duplicate and search filters, and is the most ids it puts in a set.
const countCap = 200_000

// listPlan is how pick finds a listing's rows.
type listPlan struct {
	gather bool // find the matching rows first, then sort them; otherwise walk the sort order
	access      // how the query reaches the pages
	cost   float64
}

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

// forcePlan, when a test sets it, makes plans return only the candidate
// it picks.
var forcePlan func(candidates []listPlan) listPlan

// plans returns the ways to find the rows of q from offset on (see
// above), the cheapest estimate first; PostgreSQL's, and listings with an
// index of their own, have one. all reports that q's search matches every
// page of the crawl, so the plans list without it: found out only for a
// listing read deep (no plan pays a million checks then).
func (d *DB) plans(ctx context.Context, q *PageQuery, offset int) (plans []listPlan, all bool, err error) {
	sc := sortColumns[q.Sort]
	if d.pg {
		return []listPlan{{}}, false, nil
	}
	if q.Host != "" && q.Sort == SortURL && q.Search == "" && q.Verdict == "" && !q.NearDuplicates {
		return []listPlan{{access: access{index: "pages_host"}}}, false, nil
	}
	if q.Search == "" && !q.filtered() {
		return []listPlan{{access: access{index: sc.index}}}, false, nil
	}
	s, err := d.sizes(ctx, q)
	if err != nil {
		return nil, false, err
	}
	if q.Search != "" && offset >= deepOffset && s.search >= s.crawl {
		if all, err = d.searchKeepsAll(ctx, q.Crawl, s.match, s.crawl); err != nil || all {
			unsearched := *q
			unsearched.Search = ""
			plans, _, err := d.plans(ctx, &unsearched, offset)
			return plans, all, err
		}
	}
	c := d.candidates(q, s, offset)
	if forcePlan != nil {
		return []listPlan{forcePlan(c)}, false, nil
	}
	slices.SortStableFunc(c, func(a, b listPlan) int { return cmp.Compare(a.cost, b.cost) })
	return c, false, nil
}

// deepOffset is where a listing is deep enough that knowing whether its
// search matches every page pays.
var deepOffset = 10_000

// searchKeepsAll reports whether an FTS5 query matches every one of the
// crawl's pages (n of them): whether it matches n pages between the
// crawl's first id and its last, no other crawl having pages there.
func (d *DB) searchKeepsAll(ctx context.Context, crawlID int64, match string, n float64) (bool, error) {
	query, args, shared, err := d.searchCountQuery(ctx, crawlID, match)
	if err != nil || shared {
		return false, err
	}
	var m int
	err = d.r.QueryRowContext(ctx, query, args...).Scan(&m)
	return float64(m) == n, wrap(err, "count the matches of a search")
}

// budget is how long a plan may run before the next is tried: the next
// one's estimate, at least minBudget. Estimates assume matches spread
// evenly along the sort order; when they gather late in it, a walk runs
// out of its budget and the next plan, which depends less on where they
// are, takes over, so the listing costs at most about twice the better.
func budget(next listPlan) time.Duration {
	return max(minBudget, time.Duration(next.cost*budgetScale)*time.Microsecond)
}

// minBudget is the least time a plan is given; budgetScale turns an
// estimate in microseconds into the time a plan is given.
var (
	minBudget   = 30 * time.Millisecond
	budgetScale = 1.5
)

// candidates are the plans for q worth costing: walks checking the filters
// row by row, each in its cheaper form, or against sets wherever they
// can, and a gather driven by the most selective filter.
func (d *DB) candidates(q *PageQuery, s sizes, offset int) []listPlan {
	sc := sortColumns[q.Sort]
	index := sc.index
	if q.Host != "" && q.Sort == SortURL {
		index = "pages_host"
	}
	uncovered := q.uncovered(index)
	// Each filter's share of the crawl, taken as independent; the kept
	// counts give the status, type, host and depth filters' share together,
	// within the walk's bounds.
	share := map[filterSet]float64{byHost: s.host / s.crawl, byType: s.ctype / s.crawl, byVerdict: s.verdict / s.crawl,
		byNear: s.near / s.crawl, bySearch: s.search / s.crawl}
	covered := math.Min(1, s.kept/s.span) // the share an index entry is kept by
	for f, d := range share {
		if uncovered&f != 0 && (f == byHost || f == byType) {
			covered = math.Min(1, covered/math.Max(d, 1e-9))
		}
	}
	want := float64(offset + q.limit())
	walk := func(sets filterSet) listPlan {
		p := listPlan{access: access{index: index, sets: sets, probe: s.match, bounds: s.bounds, boundArgs: s.boundArgs}}
		// The filters are checked in stages: in the index entry, against
		// sets, row by row, the search last. Each stage must pass on as
		// many rows as the next needs: at its density, plus a run of rows
		// it refuses (matches come in clusters: a host's pages in URL
		// order, a status's in size order, …).
		passed := covered // share of the crawl's entries reaching a stage
		stage := func(need, density, cost float64) float64 {
			density = math.Max(density, 1/s.span)
			n := math.Min(s.span*passed, need/density+clusterShare*s.span*passed*(1-density))
			p.cost += n * cost
			passed *= density
			return n
		}
		setShare, rowShare, search := 1.0, 1.0, 1.0
		for f, d := range share {
			switch {
			case uncovered&f == 0:
			case sets&f != 0:
				n := d * s.crawl
				if n >= countCap {
					n = s.crawl // counted up to the cap only: the set may be as large as the crawl
				}
				p.cost += n * costSet
				if f == byNear {
					p.cost += n * (costRow/2 - costSet) // a seek in pages_near per group
				}
				setShare *= d
			case f == bySearch:
				search = d
			default:
				rowShare *= d
			}
		}
		// Work back from the rows wanted: how many the last stage must
		// see, then the one before it, down to the entries walked.
		passed = covered * setShare * rowShare
		need := want
		if uncovered&bySearch != 0 && sets&bySearch == 0 {
			need = stage(need, search, costProbe)
		}
		passed = covered * setShare
		if rowShare < 1 || uncovered&^sets&^bySearch != 0 {
			need = stage(need, rowShare, costRow)
		}
		passed = 1
		stage(need, covered*setShare, costEntry)
		return p
	}
	var mixed, every filterSet
	for f, d := range share {
		if uncovered&f != 0 {
			every |= f
			if d*s.crawl < countCap || (f == bySearch && !s.cheapProbe) {
				mixed |= f
			}
		}
	}
	var list []listPlan
	for _, sets := range []filterSet{0, mixed, every} {
		if q.Search != "" && !s.cheapProbe && sets&bySearch == 0 {
			continue // asking FTS5 about each row with a prefix is too dear
		}
		if len(list) == 0 || list[len(list)-1].sets != sets {
			list = append(list, walk(sets))
		}
	}
	return append(list, q.gather(s))
}

// gather is the plan finding q's rows through its most selective filter.
func (q *PageQuery) gather(s sizes) listPlan {
	g := listPlan{gather: true, access: access{probe: s.match}}
	drive := math.Inf(1)
	for _, f := range []struct {
		n     float64
		set   bool
		index string
		by    filterSet
	}{
		{s.status, q.StatusClass != 0, "pages_status", 0}, {s.depth, q.Depth != nil, "pages_depth", 0},
		{s.host, q.Host != "", "pages_host", 0}, {s.ctype, q.ContentType != "", "pages_type", 0},
		{s.verdict, q.Verdict != "", "", byVerdict}, {s.near, q.NearDuplicates, "", byNear},
		{s.search, q.Search != "", "", bySearch},
	} {
		if f.set && f.n < drive {
			drive, g.index, g.drive = f.n, f.index, f.by
		}
	}
	g.cost = drive * costRow
	if q.Search != "" && g.drive != bySearch {
		if s.search < countCap || !s.cheapProbe {
			g.sets, g.cost = bySearch, g.cost+math.Max(s.search, float64(countCap))*costSet
		} else {
			g.cost += drive * costProbe
		}
	}
	return g
}

// uncovered returns q's filters that an entry of index cannot check: the
// sort indexes carry status and depth, the stored order's also host and
// type, the host index the host.
func (q *PageQuery) uncovered(index string) filterSet {
	var f filterSet
	if q.Host != "" && index != "pages_stored" && index != "pages_host" {
		f |= byHost
	}
	if q.ContentType != "" && index != "pages_stored" {
		f |= byType
	}
	if q.Verdict != "" {
		f |= byVerdict
	}
	if q.NearDuplicates {
		f |= byNear
	}
	if q.Search != "" {
		f |= bySearch
	}
	return f
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
		// A group with a match holds the pages that matched and the first
		// page they matched, at least: about twice the pages that matched
		// (counting a group's pages costs a seek per group).
		if err := bounded(&s.near, `SELECT 1 FROM pages WHERE crawl_id = ? AND near_of <> 0`, q.Crawl); err != nil {
			return s, err
		}
		s.near = math.Min(s.crawl, 2*s.near)
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

// pages lists the rows of q from offset on.
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
	if _, ok := sortColumns[q.Sort]; !ok {
		return nil, fmt.Errorf("sort by %q: unknown column", q.Sort)
	}
	listed := q // what is listed: q, or q without a search every page matches
	plans, all, err := d.plans(ctx, &q, offset)
	if err != nil {
		return nil, err
	}
	if all {
		listed.Search = ""
	}
	var list []PageRow
	for i, p := range plans {
		run, cancel := ctx, context.CancelFunc(func() {})
		if i < len(plans)-1 {
			run, cancel = context.WithTimeout(ctx, budget(plans[i+1]))
		}
		list, err = d.list(run, &listed, p, offset)
		over := errors.Is(run.Err(), context.DeadlineExceeded) && ctx.Err() == nil
		cancel()
		if err == nil || !over {
			break
		}
	}
	if err != nil {
		return nil, err
	}
	if q.Search != "" && len(list) > 0 {
		if err := d.snippets(ctx, q.Search, list); err != nil {
			return nil, err
		}
	}
	return list, nil
}

// list reads the rows of q from offset on, found as p says.
func (d *DB) list(ctx context.Context, q *PageQuery, p listPlan, offset int) ([]PageRow, error) {
	pick, args, err := q.pick(p, offset)
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
	return list, nil
}

// pick returns a query for the ids of the rows to list, found as p says:
// at most Limit of them, a superset of the rows wanted when it is made of
// two parts.
//
// After a cursor (v, id) in column c, the rows wanted are those with c = v
// and a larger id, then those with a larger c. A row-value comparison
// (c, id) > (v, id) is the same set, but SQLite seeks only on c with it and
// would walk every earlier row sharing v (most of a million for status 200).
// Each half below is one exact index seek.
func (q *PageQuery) pick(p listPlan, offset int) (string, []any, error) {
	sc := sortColumns[q.Sort]
	from, where, args, err := q.filter(p.access)
	if err != nil {
		return "", nil, err
	}
	orderBy, _, _, err := q.order(p.gather)
	if err != nil {
		return "", nil, err
	}
	col, n := "p."+sc.col, q.limit()
	if p.gather && !q.pg {
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
