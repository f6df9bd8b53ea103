package db

import (
	"context"
	"database/sql"

	"github.com/trawler/trawler/crawl"
)

// maxChain bounds how far RedirectChain walks either way, so a stored loop
// cannot keep it going.
const maxChain = 50

// redirectsTo finds the first page redirecting to a URL. The URL is never
// empty; saying so lets SQLite use the partial index pages_redirect_to,
// which a bound parameter alone does not: it read every page of the crawl
// (400 ms on a million pages, the slowest read of the detail pane).
const redirectsTo = `SELECT url, status FROM pages
WHERE crawl_id = ? AND redirect_to = ? AND redirect_to <> '' ORDER BY id LIMIT 1`

// RedirectChain returns the redirect chain url belongs to, first URL to
// last: the URLs that redirected to it, url itself, and the targets it
// led to, each with its stored status (0 when the URL was not fetched:
// skipped, or still waiting). A URL outside any chain gives one hop.
func (d *DB) RedirectChain(ctx context.Context, crawlID int64, url string) ([]crawl.Hop, error) {
	hop, next, err := d.chainHop(ctx, crawlID, url)
	if err != nil {
		return nil, err
	}
	chain := []crawl.Hop{hop}
	seen := map[string]bool{url: true}
	for first := url; len(chain) < maxChain; {
		var from string
		var status int
		err := d.r.QueryRowContext(ctx, redirectsTo, crawlID, first).Scan(&from, &status)
		if err == sql.ErrNoRows || seen[from] {
			break
		}
		if err != nil {
			return nil, wrap(err, "read the redirects to %s", first)
		}
		seen[from] = true
		chain = append([]crawl.Hop{{URL: from, Status: status}}, chain...)
		first = from
	}
	for next != "" && !seen[next] && len(chain) < maxChain {
		seen[next] = true
		hop, next, err = d.chainHop(ctx, crawlID, next)
		if err != nil {
			return nil, err
		}
		chain = append(chain, hop)
	}
	return chain, nil
}

// chainHop reads the stored status of url and where it redirects.
func (d *DB) chainHop(ctx context.Context, crawlID int64, url string) (crawl.Hop, string, error) {
	h := crawl.Hop{URL: url}
	var next string
	err := d.r.QueryRowContext(ctx, `SELECT status, redirect_to FROM pages WHERE crawl_id = ? AND url = ?`,
		crawlID, url).Scan(&h.Status, &next)
	if err == sql.ErrNoRows {
		return h, "", nil
	}
	return h, next, wrap(err, "read the redirect of %s", url)
}
