package db

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/trawler/trawler/crawl"
)

// skippedFilter is the WHERE clause of a listing of skipped URLs.
func (q *PageQuery) skippedFilter() (string, []any) {
	conds := []string{"crawl_id = ?", "state = 4"}
	args := []any{q.Crawl}
	if q.SkipReason != "" {
		conds = append(conds, "skip_reason = ?")
		args = append(args, string(q.SkipReason))
	}
	if q.Depth != nil {
		conds = append(conds, "depth = ?")
		args = append(args, *q.Depth)
	}
	if s := strings.TrimSpace(q.Search); s != "" {
		contains := "instr(url, ?) > 0"
		if q.pg {
			contains = "strpos(url, ?) > 0"
		}
		conds = append(conds, contains)
		args = append(args, s)
	}
	return strings.Join(conds, " AND "), args
}

// skippedSort maps a sort key to a column of urls; keys for fetched
// pages only (status, title, type, size) fall back to the order found.
func skippedSort(k SortKey) string {
	switch k {
	case SortURL:
		return "url"
	case SortDepth:
		return "depth"
	}
	return "id"
}

// skipped lists skipped URLs as rows of the results table: status 0, the
// reason, the linking page, and when they were found as FetchedAt.
func (d *DB) skipped(ctx context.Context, q PageQuery, offset int) ([]PageRow, error) {
	where, args := q.skippedFilter()
	col, dir, cmp := skippedSort(q.Sort), "ASC", ">"
	if q.Desc {
		dir, cmp = "DESC", "<"
	}
	if q.After != nil {
		if col == "id" {
			where += fmt.Sprintf(" AND id %s ?", cmp)
			args = append(args, q.After.ID)
		} else {
			where += fmt.Sprintf(" AND (%s, id) %s (?, ?)", col, cmp)
			args = append(args, q.After.Key, q.After.ID)
		}
	}
	order := "id " + dir
	if col != "id" {
		order = fmt.Sprintf("%s %s, id %s", col, dir, dir)
	}
	rows, err := d.r.QueryContext(ctx, fmt.Sprintf(`SELECT id, url, depth, parent, skip_reason, discovered_at, resource
FROM urls WHERE %s ORDER BY %s LIMIT ? OFFSET ?`, where, order), append(args, q.limit(), offset)...)
	if err != nil {
		return nil, wrap(err, "list skipped urls")
	}
	defer rows.Close()
	var list []PageRow
	for rows.Next() {
		var r PageRow
		var found int64
		var resource bool
		if err := rows.Scan(&r.ID, &r.URL, &r.Depth, &r.Parent, &r.SkipReason, &found, &resource); err != nil {
			return nil, wrap(err, "list skipped urls")
		}
		r.FetchedAt = time.Unix(0, found).UTC()
		r.Host = hostOf(r.URL)
		list = append(list, r)
	}
	return list, wrap(rows.Err(), "list skipped urls")
}

func (d *DB) countSkipped(ctx context.Context, q PageQuery) (int, error) {
	where, args := q.skippedFilter()
	var n int
	err := d.r.QueryRowContext(ctx, "SELECT count(*) FROM urls WHERE "+where, args...).Scan(&n)
	return n, wrap(err, "count skipped urls")
}

// SkipCounts returns how many URLs of a crawl were skipped for each reason.
func (d *DB) SkipCounts(ctx context.Context, crawlID int64) (map[crawl.SkipReason]int64, error) {
	rows, err := d.r.QueryContext(ctx, `SELECT skip_reason, count(*) FROM urls
WHERE crawl_id = ? AND state = 4 GROUP BY skip_reason`, crawlID)
	if err != nil {
		return nil, wrap(err, "count skipped urls")
	}
	defer rows.Close()
	out := map[crawl.SkipReason]int64{}
	for rows.Next() {
		var r string
		var n int64
		if err := rows.Scan(&r, &n); err != nil {
			return nil, wrap(err, "count skipped urls")
		}
		out[crawl.SkipReason(r)] = n
	}
	return out, wrap(rows.Err(), "count skipped urls")
}

// hostOf is the host:port part of an absolute URL, "" when it has none.
func hostOf(u string) string {
	_, rest, ok := strings.Cut(u, "://")
	if !ok {
		return ""
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	return rest
}

// SkippedCSVHeader is the header row of an export of skipped URLs.
var SkippedCSVHeader = []string{"url", "reason", "reason_text", "depth", "found_on", "found_at"}

// exportSkipped writes the skipped URLs q selects as CSV, streaming.
func (d *DB) exportSkipped(ctx context.Context, w io.Writer, q PageQuery, progress func(done int)) (int, error) {
	where, args := q.skippedFilter()
	rows, err := d.r.QueryContext(ctx, `SELECT url, skip_reason, depth, parent, discovered_at FROM urls WHERE `+
		where+` ORDER BY id LIMIT ?`, append(args, limitOr(q.Limit))...)
	if err != nil {
		return 0, wrap(err, "export skipped urls")
	}
	defer rows.Close()
	cw := csv.NewWriter(w)
	if err := cw.Write(SkippedCSVHeader); err != nil {
		return 0, fmt.Errorf("export skipped urls: %w", err)
	}
	n := 0
	for rows.Next() {
		var url, reason, parent string
		var depth int
		var found int64
		if err := rows.Scan(&url, &reason, &depth, &parent, &found); err != nil {
			return n, wrap(err, "export skipped urls")
		}
		rec := []string{url, reason, crawl.SkipReason(reason).Label(), strconv.Itoa(depth), parent,
			time.Unix(0, found).UTC().Format(time.RFC3339)}
		for i, c := range rec {
			rec[i] = SafeCell(c)
		}
		if err := cw.Write(rec); err != nil {
			return n, fmt.Errorf("export skipped urls: %w", err)
		}
		if n++; n%progressEvery == 0 && progress != nil {
			cw.Flush()
			progress(n)
		}
	}
	if err := rows.Err(); err != nil {
		return n, wrap(err, "export skipped urls")
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return n, fmt.Errorf("export skipped urls: %w", err)
	}
	if progress != nil {
		progress(n)
	}
	return n, nil
}
