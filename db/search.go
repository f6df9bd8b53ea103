package db

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
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

// relevanceOrder is the ORDER BY and keyset condition of a listing sorted
// by relevance; the full-text table is in its FROM clause.
func (q *PageQuery) relevanceOrder() (orderBy, after string, args []any, err error) {
	if q.Search == "" {
		return "", "", nil, errors.New("sort by relevance: no search")
	}
	dir, cmp := "ASC", ">"
	if q.Desc {
		dir, cmp = "DESC", "<"
	}
	rank := q.rankColumn()
	orderBy = fmt.Sprintf("%s %s, p.id %s", rank, dir, dir)
	if q.After != nil {
		after = fmt.Sprintf("(%[2]s %[1]s ? OR (%[2]s = ? AND p.id %[1]s ?))", cmp, rank)
		args = []any{q.After.Key, q.After.Key, q.After.ID}
	}
	return orderBy, after, args, nil
}

// relevant lists the matches of a search best first. A search's matches
// are read from the full-text index and sorted by SQLite, so this pages by
// offset or by (rank, id), both cheap for the result sets people page
// through.
func (d *DB) relevant(ctx context.Context, q PageQuery, offset int) ([]PageRow, error) {
	from, where, args, err := q.filter(access{})
	if err != nil {
		return nil, err
	}
	orderBy, after, afterArgs, err := q.order(false)
	if err != nil {
		return nil, err
	}
	if after != "" {
		where += " AND " + after
		args = append(args, afterArgs...)
	}
	query := fmt.Sprintf("SELECT %s, %s, %s FROM %s WHERE %s ORDER BY %s LIMIT ? OFFSET ?",
		rowColumns, q.rankColumn(), q.snippetColumn(), from, where, orderBy)
	rows, err := d.r.QueryContext(ctx, query, append(args, q.limit(), offset)...)
	if err != nil {
		return nil, wrap(badQuery(err, q.Search), "search")
	}
	defer rows.Close()
	var list []PageRow
	for rows.Next() {
		var snip sql.NullString
		var rank float64
		r, err := scanRow(rows, &rank, &snip)
		if err != nil {
			return nil, wrap(err, "search")
		}
		r.Rank, r.Snippet = rank, cleanSnippet(snip.String)
		list = append(list, r)
	}
	return list, wrap(badQuery(rows.Err(), q.Search), "search")
}

// snippets fills in the Snippet of each row of a listing in another
// order: the best fragment of its title, text or URL for the search. On
// SQLite each row is one question to FTS5 when the search can be asked
// about single pages cheaply (see probeQuery), else one pass over the
// matches between the rows' ids.
func (d *DB) snippets(ctx context.Context, search string, list []PageRow) error {
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
		if !cheap {
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
