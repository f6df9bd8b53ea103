package db

import (
	"context"
	"database/sql"
	"time"

	"github.com/trawler/trawler/crawl"
)

// Totals sums what the pages of the crawl's current cycle hold, and reads
// how long the cycle's runs crawled. The engine asks at the start of every
// run, so the usual cases are answered without reading the pages: in the
// first cycle every page is the cycle's, and page_counts holds their sums
// (see db/counts.go); a re-crawl's cycle that no run has visited a page of
// yet holds nothing. A re-crawl resumed half-way reads its pages.
func (s *CrawlStore) Totals(ctx context.Context) (crawl.Totals, error) {
	var t crawl.Totals
	var elapsed, cycle int64
	var visited bool
	err := s.d.r.QueryRowContext(ctx, `SELECT coalesce(y.elapsed, 0), c.cycle,
    EXISTS (SELECT 1 FROM page_visits v WHERE v.crawl_id = c.id AND v.cycle = c.cycle)
FROM crawls c LEFT JOIN cycles y ON y.crawl_id = c.id AND y.cycle = c.cycle WHERE c.id = ?`, s.id).Scan(&elapsed, &cycle, &visited)
	if err == sql.ErrNoRows {
		return t, nil
	}
	if err != nil {
		return t, wrap(err, "read the run time of crawl %d", s.id)
	}
	t.Elapsed = time.Duration(elapsed)
	query := totalsOfCycle
	switch {
	case cycle == 0:
		query = totalsOfCounts
	case !visited:
		return t, nil
	}
	err = sumTotals(ctx, s.d.r, query, s.id, &t)
	return t, err
}

// sumTotals adds the rows of query (totalsOfCycle or totalsOfCounts) for
// crawl id to t.
func sumTotals(ctx context.Context, q querier, query string, id int64, t *crawl.Totals) error {
	rows, err := q.QueryContext(ctx, query, id)
	if err != nil {
		return wrap(err, "sum the pages of crawl %d", id)
	}
	defer rows.Close()
	for rows.Next() {
		var depth, class int
		var n, bytes int64
		if err := rows.Scan(&depth, &class, &n, &bytes); err != nil {
			return wrap(err, "sum the pages of crawl %d", id)
		}
		for len(t.ByDepth) <= depth {
			t.ByDepth = append(t.ByDepth, 0)
		}
		t.ByDepth[depth] += n
		t.ByStatus[class] += n
		t.Bytes += bytes
	}
	return wrap(rows.Err(), "sum the pages of crawl %d", id)
}

// The pages of the current cycle by depth and status class: counted from
// the pages, or summed from page_counts when every page is the cycle's.
const (
	totalsOfCycle = `
SELECT p.depth, CASE WHEN p.status BETWEEN 100 AND 599 THEN p.status / 100 ELSE 0 END,
    count(*), coalesce(sum(p.length), 0)
FROM pages p JOIN crawls c ON c.id = p.crawl_id AND c.cycle = p.cycle
WHERE p.crawl_id = ? GROUP BY 1, 2`
	totalsOfCounts = `
SELECT depth, CASE WHEN status BETWEEN 100 AND 599 THEN status / 100 ELSE 0 END,
    CAST(sum(pages) AS BIGINT), CAST(sum(bytes) AS BIGINT)
FROM page_counts WHERE crawl_id = ? GROUP BY 1, 2 HAVING sum(pages) <> 0`
)
