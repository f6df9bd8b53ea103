package db

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/neardup"
)

// Sketches calls fn with the stored near-duplicate sketch of every page
// whose URL is done or error (the current cycle will not visit it again),
// in the order of their latest visits. It reads in one pass, so fn should
// not call back into the database.
func (s *CrawlStore) Sketches(ctx context.Context, fn func(fp uint64, sk neardup.Sketch)) error {
	rows, err := s.d.r.QueryContext(ctx, `
SELECT p.fp, p.sketch FROM pages p JOIN urls u ON u.crawl_id = p.crawl_id AND u.fp = p.fp
WHERE p.crawl_id = ? AND p.sketch IS NOT NULL AND u.state IN (?, ?)
ORDER BY p.fetched_at, p.id`, s.id, int(crawl.Done), int(crawl.Error))
	if err != nil {
		return wrap(err, "read sketches")
	}
	defer rows.Close()
	for rows.Next() {
		var fp int64
		var b []byte
		if err := rows.Scan(&fp, &b); err != nil {
			return wrap(err, "read sketches")
		}
		var sk neardup.Sketch
		if err := sk.UnmarshalBinary(b); err != nil {
			return wrap(err, "read sketch of url %016x", uint64(fp))
		}
		fn(uint64(fp), sk)
	}
	return wrap(rows.Err(), "read sketches")
}

// Sketch returns the stored sketch of the page of URL fingerprint fp, or
// nil when there is none.
func (s *CrawlStore) Sketch(ctx context.Context, fp uint64) (neardup.Sketch, error) {
	st, err := s.d.readStmt(ctx, `SELECT sketch FROM pages WHERE crawl_id = ? AND fp = ?`)
	if err != nil {
		return nil, wrap(err, "read sketch of url %016x", fp)
	}
	var b []byte
	err = st.QueryRowContext(ctx, s.id, int64(fp)).Scan(&b)
	if err == sql.ErrNoRows {
		return nil, nil
	}
	if err != nil {
		return nil, wrap(err, "read sketch of url %016x", fp)
	}
	var sk neardup.Sketch
	if err := sk.UnmarshalBinary(b); err != nil {
		return nil, wrap(err, "read sketch of url %016x", fp)
	}
	return sk, nil
}

// NearRow is one page of a near-duplicate group, as the detail pane lists
// it: its best earlier match and their estimated similarity.
type NearRow struct {
	ID         int64
	URL        string
	Title      string
	Match      string  // URL of the most similar page stored before it; empty for the group's first page
	Similarity float64 // estimated share of text shared with Match
}

// nearDuplicates lists the near-duplicate group of a page (see
// NearDuplicates). p.near_group <> 0 lets SQLite read the group from the
// partial index pages_near; without it, it read every page of the crawl
// (18 s on a million pages, cold).
const nearDuplicates = `
SELECT p.id, p.url, p.title, coalesce(m.url, ''), p.near_similarity
FROM pages g JOIN pages p ON p.crawl_id = g.crawl_id AND p.near_group = g.near_group AND p.near_group <> 0
LEFT JOIN pages m ON m.crawl_id = p.crawl_id AND m.fp = p.near_of AND p.near_of <> 0
WHERE g.crawl_id = ? AND g.id = ? AND g.near_group <> 0
ORDER BY p.near_of <> 0, p.fetched_at, p.id LIMIT ?`

// NearDuplicates returns up to limit pages in the near-duplicate group of
// page id, the page itself included, the group's first page first; none
// when the page is in no group with others.
func (d *DB) NearDuplicates(ctx context.Context, crawlID, id int64, limit int) ([]NearRow, error) {
	rows, err := d.r.QueryContext(ctx, nearDuplicates, crawlID, id, limitOr(limit))
	if err != nil {
		return nil, wrap(err, "find near-duplicates of page %d", id)
	}
	defer rows.Close()
	var list []NearRow
	for rows.Next() {
		var r NearRow
		if err := rows.Scan(&r.ID, &r.URL, &r.Title, &r.Match, &r.Similarity); err != nil {
			return nil, wrap(err, "find near-duplicates of page %d", id)
		}
		list = append(list, r)
	}
	if err := rows.Err(); err != nil {
		return nil, wrap(err, "find near-duplicates of page %d", id)
	}
	if len(list) == 1 {
		return nil, nil
	}
	return list, nil
}

// nearGroupText writes a group as 16 hex digits, like a fingerprint.
func nearGroupText(g int64) string {
	if g == 0 {
		return ""
	}
	return fmt.Sprintf("%016x", uint64(g))
}
