package db

import (
	"context"
	"fmt"
)

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
	list, err := d.planned(ctx, q, offset)
	if err != nil {
		return nil, err
	}
	if q.Search != "" && len(list) > 0 {
		if err := d.snippets(ctx, q.Search, list, false); err != nil {
			return nil, err
		}
	}
	return list, nil
}

// planned lists the rows of q from offset on, trying its plans cheapest
// first (see bounds). A bounded walk that found too few rows stopped short;
// the next plan lists them. When the first does, and q's search may match
// every page while counting its matches (0.1–0.2 s on a million) and
// listing without it costs less than checking it (see plans: worth), the
// matches are counted first. A lazy gather that sorted too few rows (see
// gather) sorts them all.
func (d *DB) planned(ctx context.Context, q PageQuery, offset int) ([]PageRow, error) {
	plans, all, worth, err := d.plans(ctx, &q, offset, false)
	if err != nil {
		return nil, err
	}
	settled := all || !worth || offset >= deepOffset
	if all {
		q.Search = ""
	}
	var list []PageRow
	short := map[string]int{} // the entries of an index a walk found too few rows in
	for i := 0; i < len(plans); i++ {
		p := plans[i]
		if !p.gather && p.bound > 0 && p.bound <= short[p.index] {
			continue // the same entries hold the same rows, however the filters are checked
		}
		list, err = d.list(ctx, &q, p, offset)
		if err == nil && p.lazy && p.bound > 0 && len(list) < q.limit() {
			// The search's matches lie further down the sorted rows than
			// their share says: sort every row.
			p.bound = 0
			list, err = d.list(ctx, &q, p, offset)
		}
		if err != nil || p.bound == 0 || len(list) == q.limit() {
			return list, err
		}
		short[p.index] = max(short[p.index], p.bound)
		if !settled {
			settled = true
			unsearched, all, _, err := d.plans(ctx, &q, offset, true)
			if err != nil {
				return nil, err
			}
			if all {
				// The same rows, so the same entries hold too few of them.
				q.Search, plans, i = "", unsearched, -1
			}
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
	query := fmt.Sprintf(`WITH %s
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

// pick returns the common table expressions of a query for the ids of
// the rows to list, found as p says: at most Limit of them, in a table
// named pick.
//
// After a cursor (v, id) in column c, the rows wanted are those with c = v
// and a larger id, then those with a larger c. A row-value comparison
// (c, id) > (v, id) is the same set, but SQLite seeks only on c with it and
// would walk every earlier row sharing v (most of a million for status 200).
// A walk reads them as two exact index seeks, the second only for the rows
// the first did not find: it may walk to the end of the index, when few
// rows after v match. A gather reads no index in order and takes the
// comparison as it is.
func (q *PageQuery) pick(p listPlan, offset int) (string, []any, error) {
	sc := sortColumns[q.Sort]
	from, fromArgs, cs, err := q.conds(p.access)
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
	part := func(first, last condList, orderBy string) walkPart {
		w := walkPart{from: from, fromArgs: fromArgs, conds: append(append(append(condList{}, first...), cs...), last...),
			orderBy: orderBy, bound: p.bound}
		if p.lazy && !q.pg {
			w.probe = p.probe
		}
		return w
	}
	switch {
	case q.After == nil:
		sel, args := part(nil, nil, orderBy).sql("?", n, offset)
		return "pick AS MATERIALIZED (" + sel + ")", args, nil
	case q.Sort == SortStored:
		// An offset after a cursor: relevance's matches after its window.
		sel, args := part(nil, condList{{col + " " + cmp + " ?", []any{q.After.ID}, true}}, orderBy).sql("?", n, offset)
		return "pick AS MATERIALIZED (" + sel + ")", args, nil
	case p.gather && !q.pg:
		after := cond{fmt.Sprintf("(%s, p.id) %s (?, ?)", col, cmp), []any{q.After.Key, q.After.ID}, false}
		sel, args := part(nil, condList{after}, orderBy).sql("?", n, 0)
		return "pick AS MATERIALIZED (" + sel + ")", args, nil
	}
	same, sameArgs := part(nil, condList{{col + " = ?", []any{q.After.Key}, true},
		{"p.id " + cmp + " ?", []any{q.After.ID}, true}}, "p.id "+dir).sql("?", n, 0)
	// SQLite bounds an index range by the first bound it meets, so the
	// second half puts the keyset bound first; PostgreSQL's planner does
	// not care, and a search's FROM clause holds its own argument there.
	bound := cond{col + " " + cmp + " ?", []any{q.After.Key}, true}
	if q.pg {
		next, nextArgs := part(nil, condList{bound}, orderBy).sql("?", n, 0)
		return fmt.Sprintf(`pick AS MATERIALIZED (SELECT id FROM (%s) AS same UNION ALL SELECT id FROM (%s) AS next)`, same,
			next), append(sameArgs, nextArgs...), nil
	}
	next, nextArgs := part(condList{bound}, nil, orderBy).sql("(SELECT ? - count(*) FROM same)", n, 0)
	return fmt.Sprintf(`same AS MATERIALIZED (%s),
pick AS MATERIALIZED (SELECT id FROM same UNION ALL SELECT id FROM (%s) AS next)`, same, next),
		append(sameArgs, nextArgs...), nil
}

// walkPart is one SELECT of the ids of a listing.
type walkPart struct {
	from     string
	fromArgs []any
	conds    condList
	orderBy  string
	bound    int // the most index entries a walk may read; 0 for any number
	// probe, when set, is a search's full-text query that a lazy gather
	// asks about its rows once they are sorted (see access).
	probe string
}

// sql returns the SELECT of w's ids, limit (an expression taking the
// argument n) of them from offset on, and its arguments. A bounded walk
// reads the first bound entries of its index that the conditions the index
// answers keep, and checks the others on those alone: fewer than n rows
// then mean the walk stopped short, not that no more rows match.
func (w walkPart) sql(limit string, n, offset int) (string, []any) {
	all := func(cond) bool { return true }
	inIndex := func(c cond) bool { return c.inIndex }
	rest := func(c cond) bool { return !c.inIndex }
	if w.probe != "" {
		// The subquery's LIMIT keeps SQLite from flattening it or pushing
		// the search down into it: the rows are sorted (the first bound of
		// them, when bound is set), then the full-text index is asked
		// about them in order, until limit match.
		where, args := w.conds.where(all)
		sorted := -1 // SQLite's no limit
		if w.bound > 0 {
			sorted = w.bound
		}
		return fmt.Sprintf(`SELECT id FROM (SELECT p.id AS id FROM %s WHERE %s ORDER BY %s LIMIT %d) AS sorted
    WHERE EXISTS (SELECT 1 FROM pages_fts WHERE pages_fts MATCH ? AND pages_fts.rowid = sorted.id) LIMIT %s OFFSET ?`,
				w.from, where, w.orderBy, sorted, limit),
			append(append(append([]any{}, w.fromArgs...), args...), w.probe, n, offset)
	}
	if restWhere, _ := w.conds.where(rest); w.bound <= 0 || restWhere == "true" {
		where, args := w.conds.where(all)
		return fmt.Sprintf(`SELECT p.id AS id FROM %s WHERE %s ORDER BY %s LIMIT %s OFFSET ?`, w.from, where, w.orderBy, limit),
			append(append(append([]any{}, w.fromArgs...), args...), n, offset)
	}
	// CASE WHEN stops at the first condition that fails, as WHERE does.
	restWhere, restArgs := w.conds.where(rest)
	where, args := w.conds.where(inIndex)
	return fmt.Sprintf(`SELECT id FROM (SELECT p.id AS id, CASE WHEN %s THEN 1 ELSE 0 END AS ok FROM %s WHERE %s ORDER BY %s
    LIMIT %d) AS walked WHERE ok = 1 LIMIT %s OFFSET ?`, restWhere, w.from, where, w.orderBy, w.bound, limit),
		append(append(append(append([]any{}, restArgs...), w.fromArgs...), args...), n, offset)
}
