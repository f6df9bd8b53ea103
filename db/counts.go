package db

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/trawler/trawler/crawl"
)

// Counts kept instead of recounted: page_counts (schema version 7) holds
// how many pages, and body bytes, each crawl has for each combination of
// host, media type, status and depth. Counting a million pages reads a
// million index entries; summing page_counts reads a row per combination.
//
// A batch of pages brings it up to date in the batch's transaction, so a
// page is counted exactly when it is stored: the page writer notes what
// each row it replaces, rewrites or keeps counted before and counts after
// (it reads those rows anyway), and the differences go into page_counts in
// one statement, a row per combination. Rows are written in key order at
// the end of the transaction, so robots sharing a PostgreSQL crawl hold
// them briefly and never in a cycle.

// countKey is one combination of the columns page_counts counts by.
type countKey struct {
	host, ctype   string
	status, depth int64
}

// countSum is what the pages of one combination add up to.
type countSum struct{ pages, bytes int64 }

// countDeltas are what one batch changes in page_counts.
type countDeltas map[countKey]countSum

// add counts a stored row (n = 1) or stops counting it (n = -1).
func (c countDeltas) add(k countKey, length int64, n int64) {
	s := c[k]
	c[k] = countSum{s.pages + n, s.bytes + n*length}
}

// pageKey is the combination a page written from p counts in.
func pageKey(p *crawl.Page) countKey {
	return countKey{host: p.Host, ctype: p.ContentType, status: int64(p.Status), depth: int64(p.Depth)}
}

// updateCounts adds the batch's differences to page_counts.
func (d *DB) updateCounts(ctx context.Context, tx *sql.Tx, crawlID int64, c countDeltas) error {
	keys := make([]countKey, 0, len(c))
	for k, s := range c {
		if s != (countSum{}) {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return nil
	}
	slices.SortFunc(keys, func(a, b countKey) int {
		return cmp.Or(strings.Compare(a.host, b.host), strings.Compare(a.ctype, b.ctype),
			cmp.Compare(a.status, b.status), cmp.Compare(a.depth, b.depth))
	})
	deltas := make([][]any, len(keys))
	for i, k := range keys {
		s := c[k]
		deltas[i] = []any{k.host, k.ctype, k.status, k.depth, s.pages, s.bytes}
	}
	b, err := json.Marshal(deltas)
	if err != nil {
		return fmt.Errorf("count pages: %w", err)
	}
	_, err = tx.ExecContext(ctx, d.addCounts(), crawlID, string(b))
	return wrap(err, "count the batch's pages")
}

// addCounts is the statement adding a JSON array of [host, type, status,
// depth, pages, bytes] to a crawl's counts.
func (d *DB) addCounts() string {
	const upsert = `
ON CONFLICT (crawl_id, host, content_type, status, depth)
DO UPDATE SET pages = page_counts.pages + excluded.pages, bytes = page_counts.bytes + excluded.bytes`
	if d.pg {
		return `INSERT INTO page_counts (crawl_id, host, content_type, status, depth, pages, bytes)
SELECT CAST(? AS BIGINT), e ->> 0, e ->> 1, CAST(e ->> 2 AS BIGINT), CAST(e ->> 3 AS BIGINT), CAST(e ->> 4 AS BIGINT),
    CAST(e ->> 5 AS BIGINT)
FROM jsonb_array_elements(CAST(? AS JSONB)) WITH ORDINALITY AS t (e, n) ORDER BY n` + upsert
	}
	return `INSERT INTO page_counts (crawl_id, host, content_type, status, depth, pages, bytes)
SELECT ?, value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5 FROM json_each(?) WHERE true` + upsert
}

// countFilters reports whether page_counts can count q's listing: its
// filters are only status class, media type, host and depth.
func (q *PageQuery) countFilters() bool {
	return q.Search == "" && !q.NearDuplicates && q.Verdict == "" && !q.Skipped
}

// countWhere is the WHERE clause selecting q's rows of page_counts (see
// countFilters), and its arguments.
func (q *PageQuery) countWhere() (string, []any, error) {
	conds := []string{"crawl_id = ?"}
	args := []any{q.Crawl}
	cond, cargs, err := statusClassCond(q.StatusClass, "status")
	if err != nil {
		return "", nil, err
	}
	if cond != "" {
		conds, args = append(conds, cond), append(args, cargs...)
	}
	if q.ContentType != "" {
		conds = append(conds, "content_type = ?")
		args = append(args, q.ContentType)
	}
	if q.Host != "" {
		conds = append(conds, "host = ?")
		args = append(args, q.Host)
	}
	if q.Depth != nil {
		conds = append(conds, "depth = ?")
		args = append(args, *q.Depth)
	}
	return strings.Join(conds, " AND "), args, nil
}

// keptCount returns how many pages match q's filters, which countFilters
// must allow, from page_counts.
func (d *DB) keptCount(ctx context.Context, q *PageQuery) (int, error) {
	where, args, err := q.countWhere()
	if err != nil {
		return 0, err
	}
	var n int64
	err = d.r.QueryRowContext(ctx, `SELECT coalesce(sum(pages), 0) FROM page_counts WHERE `+where, args...).Scan(&n)
	return int(n), wrap(err, "count pages")
}
