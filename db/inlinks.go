package db

import (
	"context"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/rabin"
)

// InlinkCount is how many links of a crawl point at a URL, and from how
// many pages: "1,455 links from 21 pages".
type InlinkCount struct {
	Links, Pages int64
}

// CountInlinks counts the links to url stored in the crawl.
func (d *DB) CountInlinks(ctx context.Context, crawlID int64, url string) (InlinkCount, error) {
	var c InlinkCount
	err := d.r.QueryRowContext(ctx, `SELECT count(*), count(DISTINCT page_id) FROM links
WHERE crawl_id = ? AND to_fp = ? AND to_url = ?`, crawlID, int64(rabin.FingerprintString(url)), url).Scan(&c.Links, &c.Pages)
	return c, wrap(err, "count the links to %s", url)
}

// Anchor is one link from a page: its text, kind and rel=nofollow.
type Anchor struct {
	Text     string
	Kind     crawl.LinkKind
	NoFollow bool
}

// InlinkSource is a page that links to a URL, with each of its links there.
type InlinkSource struct {
	PageID  int64 // pass the last one as after to read on
	URL     string
	Anchors []Anchor
}

// InlinkSources returns up to limit pages linking to url, in the order
// they were stored, starting after page id after (0 from the start), each
// with all its links to url, so a page that links five times is one row.
func (d *DB) InlinkSources(ctx context.Context, crawlID int64, url string, after int64, limit int) ([]InlinkSource, error) {
	fp := int64(rabin.FingerprintString(url))
	rows, err := d.r.QueryContext(ctx, `
SELECT l.page_id, p.url, l.text, l.kind, l.nofollow FROM links l JOIN pages p ON p.id = l.page_id
WHERE l.page_id IN (SELECT DISTINCT page_id FROM links
                    WHERE crawl_id = ?1 AND to_fp = ?2 AND to_url = ?3 AND page_id > ?4
                    ORDER BY page_id LIMIT ?5)
  AND l.crawl_id = ?1 AND l.to_fp = ?2 AND l.to_url = ?3
ORDER BY l.page_id, l.seq`, crawlID, fp, url, after, limitOr(limit))
	if err != nil {
		return nil, wrap(err, "read the links to %s", url)
	}
	defer rows.Close()
	var out []InlinkSource
	for rows.Next() {
		var id int64
		var from string
		var a Anchor
		if err := rows.Scan(&id, &from, &a.Text, &a.Kind, &a.NoFollow); err != nil {
			return nil, wrap(err, "read the links to %s", url)
		}
		if n := len(out); n == 0 || out[n-1].PageID != id {
			out = append(out, InlinkSource{PageID: id, URL: from})
		}
		last := &out[len(out)-1]
		last.Anchors = append(last.Anchors, a)
	}
	return out, wrap(rows.Err(), "read the links to %s", url)
}
