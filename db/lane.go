package db

import (
	"context"
	"fmt"
	"time"

	"github.com/trawler/trawler/crawl/rabin"
	"github.com/trawler/trawler/crawl/urlnorm"
)

// prioritizeURL puts a URL in a crawl's priority lane. A URL the crawl
// does not know joins it at depth 0; a known one keeps its row and depth
// but waits again (a visited page is visited again, as a re-crawl would,
// with its validators), and a lease on it is dropped so the lane's claim
// takes it at once.
const prioritizeURL = `
INSERT INTO urls (crawl_id, fp, url, depth, parent, priority, discovered_at)
VALUES (?1, ?2, ?3, 0, '', 1, ?4)
ON CONFLICT (crawl_id, fp) DO UPDATE SET
    priority    = 1,
    revisit     = CASE WHEN urls.state = 2 THEN 1 ELSE urls.revisit END,
    state       = CASE WHEN urls.state = 1 THEN 1 ELSE 0 END,
    skip_reason = '',
    owner       = CASE WHEN urls.state = 1 THEN urls.owner ELSE '' END,
    leased_at   = CASE WHEN urls.state = 1 THEN urls.leased_at ELSE NULL END`

// Prioritize pushes rawURL to the front of crawl id's frontier, the
// priority lane that Claim serves before any other waiting URL: paper
// 002's gateway does it for a URL on neither list, so that the running
// crawl (or the gateway's own crawler) fetches and judges it within
// seconds. It returns the URL as normalized.
func (d *DB) Prioritize(ctx context.Context, id int64, rawURL string) (string, error) {
	u, err := urlnorm.Normalize(rawURL)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrInput, err)
	}
	var known bool
	if err := d.r.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM crawls WHERE id = ?)`, id).Scan(&known); err != nil {
		return "", wrap(err, "read crawl %d", id)
	}
	if !known {
		return "", noCrawl(id)
	}
	_, err = d.w.ExecContext(ctx, prioritizeURL, id, int64(rabin.FingerprintString(u)), u, time.Now().UnixNano())
	return u, wrap(err, "push %s to the priority lane of crawl %d", u, id)
}
