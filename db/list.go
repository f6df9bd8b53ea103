package db

import (
	"context"
	"errors"
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
		if err := d.snippets(ctx, q.Search, list, false); err != nil {
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
		// An offset after a cursor: relevance's matches after its window.
		return fmt.Sprintf(`SELECT p.id AS id FROM %s WHERE %s AND %s %s ? ORDER BY %s LIMIT ? OFFSET ?`, from, where, col, cmp,
			orderBy), append(args, q.After.ID, n, offset), nil
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
