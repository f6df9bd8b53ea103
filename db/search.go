package db

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// snippetTokens is how many tokens a snippet shows around its matches.
const snippetTokens = 20

// snippetSQL is the snippet() call for the best fragment of any column.
var snippetSQL = fmt.Sprintf("snippet(pages_fts, -1, '%c', '%c', '…', %d)", MatchStart, MatchEnd, snippetTokens)

// Search returns up to limit pages of the crawl matching what the user
// typed (see PageQuery.Search), best match first, each with a snippet. A
// query that cannot be searched gives ErrBadQuery.
func (d *DB) Search(ctx context.Context, crawlID int64, typed string, limit int) ([]PageRow, error) {
	return d.Pages(ctx, PageQuery{Crawl: crawlID, Search: typed, Sort: SortRelevance, Limit: limitOr(limit)})
}

// relevanceOrder is the ORDER BY and keyset condition of PostgreSQL's
// listing sorted by relevance (SQLite ranks apart: see ranked).
func (q *PageQuery) relevanceOrder() (orderBy, after string, args []any, err error) {
	if q.Search == "" {
		return "", "", nil, errors.New("sort by relevance: no search")
	}
	dir, cmp := "ASC", ">"
	if q.Desc {
		dir, cmp = "DESC", "<"
	}
	rank := pgRank
	orderBy = fmt.Sprintf("%s %s, p.id %s", rank, dir, dir)
	if q.After != nil {
		after = fmt.Sprintf("(%[2]s %[1]s ? OR (%[2]s = ? AND p.id %[1]s ?))", cmp, rank)
		args = []any{q.After.Key, q.After.Key, q.After.ID}
	}
	return orderBy, after, args, nil
}

// relevant lists the matches of a search best first: on SQLite by bm25
// over a bounded window of them (see ranked); on PostgreSQL every match
// the filters keep is ranked, the best offset+Limit kept by the sorter,
// and only their rows and snippets read. It pages by offset or by (rank,
// id).
func (d *DB) relevant(ctx context.Context, q PageQuery, offset int) ([]PageRow, error) {
	if !d.pg {
		return d.ranked(ctx, q, offset)
	}
	orderBy, after, afterArgs, err := q.order(false)
	if err != nil {
		return nil, err
	}
	from, where, args, err := q.filter(access{})
	if err != nil {
		return nil, err
	}
	if after != "" {
		where += " AND " + after
		args = append(args, afterArgs...)
	}
	query := fmt.Sprintf("SELECT p.id, %s FROM %s WHERE %s ORDER BY %s LIMIT ? OFFSET ?", pgRank, from, where, orderBy)
	rows, err := d.r.QueryContext(ctx, query, append(args, q.limit(), offset)...)
	if err != nil {
		return nil, wrap(badQuery(err, q.Search), "search")
	}
	var ids []int64
	rank := map[int64]float64{}
	for rows.Next() {
		var id int64
		var r float64
		if err := rows.Scan(&id, &r); err != nil {
			rows.Close()
			return nil, wrap(err, "search")
		}
		ids = append(ids, id)
		rank[id] = r
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, wrap(badQuery(err, q.Search), "search")
	}
	list, err := d.rowsByID(ctx, ids)
	if err != nil || len(list) == 0 {
		return list, err
	}
	for i := range list {
		list[i].Rank = rank[list[i].ID]
	}
	return list, d.snippets(ctx, q.Search, list, false)
}

// rowsByID reads the rows of the pages with the given ids, in that order.
func (d *DB) rowsByID(ctx context.Context, ids []int64) ([]PageRow, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	idJSON, _ := json.Marshal(ids)
	rows, err := d.r.QueryContext(ctx, `SELECT `+rowColumns+` FROM pages p WHERE p.id IN `+d.idsIn(), string(idJSON))
	if err != nil {
		return nil, wrap(err, "read pages")
	}
	byID, err := collectRows(rows, "read pages")
	if err != nil {
		return nil, err
	}
	at := make(map[int64]int, len(ids))
	for i, id := range ids {
		at[id] = i
	}
	slices.SortFunc(byID, func(a, b PageRow) int { return at[a.ID] - at[b.ID] })
	return byID, nil
}

// snippets fills in the Snippet of each row of a listing in another
// order: the best fragment of its title, text or URL for the search. On
// SQLite each row is one question to FTS5 when the search can be asked
// about single pages cheaply (see probeQuery) and few lie between the
// rows, else one pass over the matches between the rows' ids: few says
// there are few (the rows are of a ranking's window, see ranked).
func (d *DB) snippets(ctx context.Context, search string, list []PageRow, few bool) error {
	q := PageQuery{Search: search, pg: d.pg}
	from, match, err := q.searchFrom()
	if err != nil {
		return err
	}
	ids := make([]int64, len(list))
	at := make(map[int64]int, len(list))
	lo, hi := list[0].ID, list[0].ID
	for i, r := range list {
		ids[i] = r.ID
		at[r.ID] = i
		lo, hi = min(lo, r.ID), max(hi, r.ID)
	}
	idJSON, _ := json.Marshal(ids)
	query := `SELECT rowid, ` + snippetSQL + ` FROM pages_fts WHERE pages_fts MATCH ? AND rowid IN ` + d.idsIn()
	args := []any{match, string(idJSON)}
	if d.pg {
		query = `SELECT p.id, ` + pgSnippet + ` FROM ` + from + ` WHERE p.fts @@ tsq AND p.id IN ` + d.idsIn()
	} else {
		probe, cheap, err := d.probeQuery(ctx, search)
		if err != nil {
			return err
		}
		args[0] = probe
		if !cheap || few {
			query = `SELECT rowid, ` + snippetSQL + ` FROM pages_fts WHERE pages_fts MATCH ? AND rowid >= ? AND rowid <= ?
    AND +rowid IN ` + d.idsIn()
			args = []any{probe, lo, hi, string(idJSON)}
		}
	}
	rows, err := d.r.QueryContext(ctx, query, args...)
	if err != nil {
		return wrap(badQuery(err, search), "search snippets")
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var snip sql.NullString
		if err := rows.Scan(&id, &snip); err != nil {
			return wrap(err, "search snippets")
		}
		if i, ok := at[id]; ok {
			list[i].Snippet = cleanSnippet(snip.String)
		}
	}
	return wrap(badQuery(rows.Err(), search), "search snippets")
}
