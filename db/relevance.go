package db

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"slices"
	"sort"
)

// Relevance on SQLite: bm25 over a bounded window of a search's matches.
//
// FTS5's bm25 costs a few microseconds a match (it reads the match's
// instances, and its column sizes through a statement of its own), and
// before its first score it counts the pages each phrase of the search
// matches in the whole index (the phrase's IDF). Ranking every match of a
// search that matches a million pages takes seconds. An exact top k
// cannot stop early: bm25 grows with how often a page holds a word, and
// nothing short of a page's instances bounds that (its length does not: a
// page of a thousand "crawler"s could outrank every other), so every match
// would have to be scored. Nor can FTS5 score a scattered set of pages
// cheaply: each question about a single page counts the IDF again. And
// bm25 cannot be computed here instead: a page's instances reach only
// FTS5's auxiliary functions (the driver registers none written in Go),
// and asking FTS5 which pages of a range hold a word in a column ({title}:
// word) reads on past the range to the next such page, maybe the last.
//
// So relevance ranks a window: the search's first rankWindow matches
// among the crawl's ids, in the order the pages were stored (those nearest
// the seeds, in a breadth-first crawl), scored in one pass over that range
// of the index by FTS5's own bm25 with the index's own statistics. The
// window's pages come first, best first, each with the rank bm25 gives it
// over the whole crawl, so their order is exactly bm25's; the matches
// after the window follow in stored order, with rank 0 (bm25 ranks are
// below 0). A search with no more matches than the window is ranked whole,
// exactly as bm25 ranks it. Whatever the search matches, a ranking costs
// the IDF count and rankWindow scores at most.
//
// A ranking is kept while the full-text index is unchanged (see
// rankings): the screens after a listing's first, and the same search
// with other filters, page through it. The filters are checked on the
// pages listed, never kept in a ranking.

// rankWindow is how many matches a ranking scores (see above): ten
// thousand cost a few tens of milliseconds beside the IDF count.
var rankWindow = 10_000

// ranking is a search's window ranked: its matches from the crawl's first
// id to hi, best first (by rank, ties by id).
type ranking struct {
	key     rankingKey
	version []byte // the full-text index's structure record when ranked
	hi      int64  // the last id of the window
	all     bool   // the window holds every match of the crawl's range of ids
	ids     []int64
	ranks   []float64
}

// rankingKey names a ranking: the crawl, the FTS5 query ranked and the
// window's size.
type rankingKey struct {
	crawl  int64
	match  string
	window int
}

// rank returns the ranking of what the user typed over the crawl: the
// kept one while the full-text index is unchanged, else a new one. Its
// statements read one snapshot of the database.
func (d *DB) rank(ctx context.Context, crawlID int64, typed string) (*ranking, error) {
	match, err := d.rankQuery(ctx, typed)
	if err != nil {
		return nil, err
	}
	tx, err := d.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, wrap(err, "rank the matches")
	}
	defer tx.Rollback()
	// FTS5 rewrites its structure record (id 10 of the _data table) with
	// every change to the index: the record stands for the index's state.
	var lo, last sql.NullInt64
	r := &ranking{key: rankingKey{crawl: crawlID, match: match, window: rankWindow}, all: true}
	err = tx.QueryRowContext(ctx, `SELECT (SELECT min(id) FROM pages WHERE crawl_id = ?1),
    (SELECT max(id) FROM pages WHERE crawl_id = ?1), (SELECT block FROM pages_fts_data WHERE id = 10)`,
		crawlID).Scan(&lo, &last, &r.version)
	if err != nil {
		return nil, wrap(err, "rank the matches")
	}
	if kept := d.rankings.get(r.key, r.version); kept != nil {
		return kept, nil
	}
	// A crawl with no pages has an empty range, where FTS5 still reads the query.
	if err := r.score(ctx, tx, lo.Int64, last.Int64); err != nil {
		return nil, wrap(badQuery(err, typed), "rank the matches")
	}
	d.rankings.put(r)
	return r, nil
}

// score finds the window among the ids from lo to last and ranks it: the
// first matches in id order, one more read to learn whether others
// follow. No ORDER BY rank: FTS5 would rank every match of the index to
// sort them.
func (r *ranking) score(ctx context.Context, tx *sql.Tx, lo, last int64) error {
	rows, err := tx.QueryContext(ctx, `SELECT rowid, rank FROM pages_fts WHERE pages_fts MATCH ? AND rowid >= ? AND rowid <= ?
    ORDER BY rowid LIMIT ?`, r.key.match, lo, last, r.key.window+1)
	if err != nil {
		return err
	}
	defer rows.Close()
	var all []scored
	for rows.Next() {
		var s scored
		if err := rows.Scan(&s.id, &s.rank); err != nil {
			return err
		}
		all = append(all, s)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	r.hi = last
	if len(all) > r.key.window {
		all, r.all = all[:r.key.window], false
		r.hi = all[len(all)-1].id
	}
	slices.SortFunc(all, func(a, b scored) int { return cmp.Or(cmp.Compare(a.rank, b.rank), cmp.Compare(a.id, b.id)) })
	r.ids, r.ranks = make([]int64, len(all)), make([]float64, len(all))
	for i, s := range all {
		r.ids[i], r.ranks[i] = s.id, s.rank
	}
	return nil
}

// scored is a match and its rank.
type scored struct {
	id   int64
	rank float64
}

// inWindow reports whether a cursor marks a row of a window: ranked, so
// below 0. A row after the window has rank 0.
func inWindow(c *Cursor) bool {
	rank, ok := c.Key.(float64)
	return ok && rank < 0
}

// before returns how many of the ranking's pages come before the row a
// window's cursor marks, best first: strictly, or through the row itself.
func (r *ranking) before(c *Cursor, through bool) int {
	rank := c.Key.(float64)
	return sort.Search(len(r.ids), func(i int) bool {
		k := cmp.Or(cmp.Compare(r.ranks[i], rank), cmp.Compare(r.ids[i], c.ID))
		return k > 0 || (k == 0 && !through)
	})
}

// ranked lists the matches of a search best first on SQLite (see above).
func (d *DB) ranked(ctx context.Context, q PageQuery, offset int) ([]PageRow, error) {
	r, err := d.rank(ctx, q.Crawl, q.Search)
	if err != nil {
		return nil, err
	}
	if q.Desc {
		return d.rankedDesc(ctx, &q, r, offset)
	}
	start := 0
	switch {
	case q.After == nil:
	case inWindow(q.After):
		start = r.before(q.After, true)
	default:
		start = len(r.ids)
	}
	ids, skipped, err := d.keepRanked(ctx, &q, r.ids[start:], offset, q.limit())
	if err != nil {
		return nil, err
	}
	list, err := d.rankedRows(ctx, q.Search, r, ids)
	if err != nil || len(list) == q.limit() || r.all {
		return list, err
	}
	from := r.hi
	if q.After != nil && !inWindow(q.After) {
		from = max(from, q.After.ID)
	}
	rest, err := d.afterWindow(ctx, q, &Cursor{ID: from}, offset-skipped, q.limit()-len(list))
	return append(list, rest...), err
}

// rankedDesc lists the matches of a search worst first: those after the
// window, newest first, then the window's from its worst.
func (d *DB) rankedDesc(ctx context.Context, q *PageQuery, r *ranking, offset int) ([]PageRow, error) {
	end, skip := len(r.ids), offset
	var list []PageRow
	if q.After != nil && inWindow(q.After) {
		end = r.before(q.After, false)
	} else if !r.all {
		rest, err := d.afterWindow(ctx, *q, q.After, offset, q.limit())
		if err != nil {
			return nil, err
		}
		n := 0
		for n < len(rest) && rest[n].ID > r.hi {
			n++
		}
		list, skip = rest[:n], 0
		if len(list) == q.limit() {
			return list, nil
		}
		if offset > 0 && len(list) == 0 {
			// The offset may lie past the matches after the window.
			if skip, err = d.pastWindow(ctx, q, r, offset); err != nil {
				return nil, err
			}
		}
	}
	worst := slices.Clone(r.ids[:end])
	slices.Reverse(worst)
	ids, _, err := d.keepRanked(ctx, q, worst, skip, q.limit()-len(list))
	if err != nil {
		return nil, err
	}
	rows, err := d.rankedRows(ctx, q.Search, r, ids)
	return append(list, rows...), err
}

// pastWindow returns how many of the window's pages an offset in a
// listing worst first skips, the offset being past the matches after the
// window: those are all the matches less the window's.
func (d *DB) pastWindow(ctx context.Context, q *PageQuery, r *ranking, offset int) (int, error) {
	n, err := d.CountPages(ctx, *q)
	if err != nil {
		return 0, err
	}
	_, ranked, err := d.keepRanked(ctx, q, r.ids, len(r.ids), 0)
	return max(0, offset-(n-ranked)), err
}

// afterWindow lists the matches after a window in stored order, after
// the cursor (ascending, or descending for q.Desc), from offset on.
func (d *DB) afterWindow(ctx context.Context, q PageQuery, after *Cursor, offset, limit int) ([]PageRow, error) {
	q.Sort, q.After, q.Limit = SortStored, nil, limit
	if after != nil {
		q.After = &Cursor{ID: after.ID}
	}
	return d.pages(ctx, q, offset)
}

// keepRanked returns those of ids (a ranking's, in the order listed)
// whose pages are the crawl's and pass q's filters other than the search:
// past the first skip of them, at most limit. skipped is how many it
// skipped, fewer than skip when ids ran out. It checks the ids in
// batches, each larger than the last, the rows read by id.
func (d *DB) keepRanked(ctx context.Context, q *PageQuery, ids []int64, skip, limit int) (kept []int64, skipped int, err error) {
	f := *q
	f.Search, f.After = "", nil
	from, where, args, err := f.filter(access{drive: byIDs})
	if err != nil {
		return nil, 0, err
	}
	query := `SELECT p.id FROM ` + from + ` WHERE p.id IN ` + d.idsIn() + ` AND ` + where
	batch := max(64, 2*min(skip, len(ids))+2*min(limit, len(ids)))
	for len(ids) > 0 && (skipped < skip || len(kept) < limit) {
		part := ids[:min(batch, len(ids))]
		ids, batch = ids[len(part):], 4*batch
		ok, err := d.idSet(ctx, query, append([]any{jsonIDs(part)}, args...))
		if err != nil {
			return nil, 0, wrap(err, "filter the ranked matches")
		}
		for _, id := range part {
			switch {
			case !ok[id]:
			case skipped < skip:
				skipped++
			case len(kept) < limit:
				kept = append(kept, id)
			}
		}
	}
	return kept, skipped, nil
}

// idSet runs a query for ids and returns them as a set.
func (d *DB) idSet(ctx context.Context, query string, args []any) (map[int64]bool, error) {
	rows, err := d.r.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	set := map[int64]bool{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		set[id] = true
	}
	return set, rows.Err()
}

// rankedRows reads the rows of the ranked pages ids, in that order, with
// their ranks and snippets.
func (d *DB) rankedRows(ctx context.Context, search string, r *ranking, ids []int64) ([]PageRow, error) {
	list, err := d.rowsByID(ctx, ids)
	if err != nil || len(list) == 0 {
		return list, err
	}
	at := make(map[int64]int, len(list))
	for i, row := range list {
		at[row.ID] = i
	}
	for i, id := range r.ids {
		if j, ok := at[id]; ok {
			list[j].Rank = r.ranks[i]
		}
	}
	return list, d.snippets(ctx, search, list, true)
}

// jsonIDs is a list of ids as JSON, for idsIn.
func jsonIDs(ids []int64) string {
	b, _ := json.Marshal(ids)
	return string(b)
}
