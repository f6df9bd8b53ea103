package db

import (
	"context"
	"math"
)

// How a listing finds its rows on SQLite (PostgreSQL's planner chooses for
// itself). There are two ways:
//
// Walk: read the sort column's index in order, from the cursor or the
// offset, skip the rows the filters refuse and stop at Limit. Every sort
// index carries each page's status and depth (schema 7), so those filters
// cost nothing more than the entry. The other filters are checked either
// against a set of ids found once through their own index (a few hundred
// nanoseconds an id), which keeps the walk in the index, or row by row:
// the row read by id, or the full-text index asked about it. A walk reads about
// (offset+Limit)·N/m index entries for m matching rows of N: cheap when
// many rows match, and bounded by N when they gather late in the order.
//
// Gather: find the matching rows of the most selective filter first,
// through its index, the full-text index or a set of ids; read each row,
// check the other filters and keep the best offset+Limit by the sort key
// (SQLite's sorter keeps no more): cheap when few rows match. A search
// that most pages match is checked last, lazily: the full-text index is
// asked about the sorted rows in order, until offset+Limit match.
//
// The plans estimate both from the kept counts (db/counts.go) and a few
// bounded counts (db/sizes.go); the listing (db/list.go) tries them
// cheapest first, each within a time budget (see budget). One host's pages
// in URL order are a walk of the host index, whatever their number.

// Estimated costs, in microseconds, of the steps of a listing on a million
// pages whose file is in the operating system's cache but not SQLite's.
const (
	costEntry   = 0.3   // the next entry of an index walked in order
	costSet     = 0.4   // an id added to a set of ids
	costRow     = 4.0   // a page read by id: a random read
	costVerdict = 1.2   // a page's verdict read by id
	costProbe   = 100.0 // asking the full-text index whether one page matches
)

// clusterShare is the run of refused rows, as a share of the rows a walk
// may read, that a plan allows for before a walk's first matches.
const clusterShare = 0.1

// listPlan is how pick finds a listing's rows.
type listPlan struct {
	gather bool // find the matching rows first, then sort them; otherwise walk the sort order
	access      // how the query reaches the pages
	cost   float64
	// A walk's estimate as parts: what it pays whatever it walks (its
	// sets, the full-text checks of the rows it lists), what each entry
	// walked costs, how many it walks when the matches are spread evenly
	// (no clusters).
	fixed, perEntry, entries float64
	// bound is the most index entries the walk may read, 0 for any (see
	// bounds); in a lazy gather, the most rows it sorts and asks about.
	bound int
}

// forcePlan, when a test sets it, makes plans return only the candidate
// it picks.
var forcePlan func(candidates []listPlan) listPlan

// plans returns the ways to find the rows of q from offset on (see
// above), the cheapest estimate first; PostgreSQL's, and listings with an
// index of their own, have one. all reports that q's search matches every
// page of the crawl, so the plans list without it: found out, by counting
// the search's matches, only for a listing read deep (no plan pays a
// million checks then) or when settle asks (see planned).
//
// worth reports that settle may pay: the search may match every page, and
// counting its matches, then gathering the other filters' rows alone,
// costs less than gathering them with the search.
func (d *DB) plans(ctx context.Context, q *PageQuery, offset int, settle bool) (plans []listPlan, all, worth bool, err error) {
	sc := sortColumns[q.Sort]
	if d.pg {
		return []listPlan{{}}, false, false, nil
	}
	if q.Host != "" && q.Sort == SortURL && q.Search == "" && q.Verdict == "" && !q.NearDuplicates {
		return []listPlan{{access: access{index: "pages_host"}}}, false, false, nil
	}
	if q.Search == "" && !q.filtered() {
		return []listPlan{{access: access{index: sc.index}}}, false, false, nil
	}
	s, err := d.sizes(ctx, q)
	if err != nil {
		return nil, false, false, err
	}
	unsearched := *q
	unsearched.Search = ""
	// Counting the matches pays when a listing is read deep, or when the
	// count and gathering the other filters' rows alone cost less than
	// gathering them with the search: a verdict's 10,000 pages cost 40 ms
	// and the 0.1–0.2 s a million matches take to count, or 50 ms and the
	// full-text index asked about the first hundred in sort order.
	want := float64(offset + q.limit())
	worth = s.mayKeepAll() && unsearched.gather(s, want).cost+s.crawl*costMatch < q.gather(s, want).cost
	if s.mayKeepAll() && ((settle && worth) || offset >= deepOffset) {
		if all, err = d.searchKeepsAll(ctx, q.Crawl, s.match, s.crawl); err != nil || all {
			plans, _, _, err := d.plans(ctx, &unsearched, offset, false)
			return plans, all, false, err
		}
	}
	c, span := d.candidates(q, s, offset)
	if forcePlan != nil {
		return []listPlan{forcePlan(c)}, false, worth, nil
	}
	return order(c, span), false, worth, nil
}

// costMatch is the estimated cost, in microseconds, of counting one match
// of a search in the full-text index (a variable so that tests can make
// every listing count: with 0, see plans).
var costMatch = 0.1

// candidates are the plans for q worth costing: walks checking the filters
// row by row, each in its cheaper form, or against sets wherever they
// can, and a gather driven by the most selective filter; span is the
// index entries the walks may read.
func (d *DB) candidates(q *PageQuery, s sizes, offset int) (c []listPlan, span float64) {
	sc := sortColumns[q.Sort]
	index := sc.index
	switch {
	case q.Host != "" && q.Sort == SortURL:
		index = "pages_host"
	case q.NearDuplicates && q.Sort == SortURL:
		// The near-duplicates' own index: its entries are theirs alone.
		index = "pages_near_url"
		scale := s.near / s.crawl
		s.span, s.kept = math.Max(1, s.span*scale), s.kept*scale
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
		setShare, rowShare, search := 1.0, 1.0, 1.0
		rowCost, readRow := 0.0, 0.0 // the cost of checking a row: its verdict, the page read by id
		for f, d := range share {
			switch {
			case uncovered&f == 0:
			case sets&f != 0:
				n := d * s.crawl
				if n >= countCap {
					n = s.crawl // counted up to the cap only: the set may be as large as the crawl
				}
				p.fixed += n * costSet
				setShare *= d
			case f == bySearch:
				search = d
			default:
				rowShare *= d
				if f == byVerdict {
					rowCost += costVerdict // the verdict is read by id, the page is not
				} else {
					readRow = costRow
				}
			}
		}
		rowCost += readRow
		// The filters are checked in stages: in the index entry, against
		// sets, row by row, the search last. Each stage must pass on as
		// many rows as the next needs: at its density, plus a run of rows
		// it refuses (matches come in clusters: a host's pages in URL
		// order, a status's in size order, …). Work back from the rows
		// wanted: how many the last stage must see, then the one before
		// it, down to the entries walked.
		cost := func(cluster float64) (cost, entries, asked float64) {
			passed := 1.0 // share of the crawl's entries reaching a stage
			stage := func(need, density, each float64) float64 {
				density = math.Max(density, 1/s.span)
				n := math.Min(s.span*passed, need/density+cluster*s.span*passed*(1-density))
				cost += n * each
				return n
			}
			passed = covered * setShare * rowShare
			need := want
			if uncovered&bySearch != 0 && sets&bySearch == 0 {
				need = stage(need, search, costProbe)
				asked = cost
			}
			passed = covered * setShare
			if rowShare < 1 || uncovered&^sets&^bySearch != 0 {
				need = stage(need, rowShare, rowCost)
			}
			passed = 1
			entries = stage(need, covered*setShare, costEntry)
			return cost, entries, asked
		}
		walked, _, _ := cost(clusterShare)
		even, entries, asked := cost(0)
		p.cost = p.fixed + walked
		// The full-text index is asked about the rows the other filters
		// keep, which are about the rows listed wherever they lie: the
		// entries refused on the way cost no more than their stages.
		p.fixed += asked
		p.entries, p.perEntry = entries, (even-asked)/math.Max(entries, 1)
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
	return append(list, q.gather(s, want)), s.span
}

// gather is the plan finding q's rows through its most selective filter,
// want of them (the offset and a screen).
func (q *PageQuery) gather(s sizes, want float64) listPlan {
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
		// The search's matches as a set, or the full-text index asked
		// about the rows in sort order until enough match: about
		// want/share of them when the matches are a share of the crawl
		// spread evenly, at most every row.
		set := math.Max(s.search, float64(countCap)) * costSet
		asked := math.Min(drive, want*s.crawl/math.Max(s.search, 1))
		switch {
		case !s.cheapProbe || set < asked*costProbe:
			g.sets, g.cost = bySearch, g.cost+set
		default:
			g.lazy, g.cost = true, g.cost+asked*costProbe
			// Sorting every row costs about as much as reading it;
			// keeping the first few, probeEntries times those it
			// expects to ask about, costs little (see planned).
			if k := probeEntries*asked + probeSlack; k < drive {
				g.bound = int(k)
			}
		}
	}
	return g
}

// uncovered returns q's filters that an entry of index cannot check: the
// sort indexes carry status and depth, the host index the host, the type
// index the type.
func (q *PageQuery) uncovered(index string) filterSet {
	var f filterSet
	if q.Host != "" && index != "pages_host" {
		f |= byHost
	}
	if q.ContentType != "" && index != "pages_type" {
		f |= byType
	}
	if q.Verdict != "" {
		f |= byVerdict
	}
	if q.NearDuplicates && index != "pages_near_url" {
		f |= byNear
	}
	if q.Search != "" {
		f |= bySearch
	}
	return f
}
