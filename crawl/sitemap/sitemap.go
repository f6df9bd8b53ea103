// Package sitemap reads the page URLs a site lists for crawlers in its
// sitemaps (sitemaps.org protocol 0.9): XML <urlset> files, <sitemapindex>
// files that point to more sitemaps, and plain-text files of one URL per
// line, each either plain or gzip-compressed. The crawler seeds its frontier
// from them, typically with the Sitemap lines of robots.txt.
//
// Collect guards the crawler against hostile or broken files: XML is read
// as a stream and stops at MaxSize decompressed bytes (so a gzip bomb costs
// at most that much reading), indexes are followed at most MaxDepth levels
// down, at most MaxSitemaps files are fetched, and one bad sitemap never
// spoils the others.
package sitemap

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Limits of one Collect.
const (
	// MaxSize is the most a sitemap may hold once decompressed, the limit
	// the protocol sets. Reading stops there with ErrTooLarge; the URLs
	// read before still count.
	MaxSize = 50 << 20
	// MaxDepth is how many sitemap indexes may stand above a sitemap: the
	// sitemaps given to Collect are at depth 0, those an index at depth d
	// lists at depth d+1, and an index at depth MaxDepth is not followed
	// (ErrTooDeep).
	MaxDepth = 3
	// MaxSitemaps is how many sitemap files one Collect fetches at most.
	MaxSitemaps = 1000
)

// Errors a sitemap can fail with, wrapped with its URL.
var (
	ErrTooLarge   = errors.New("sitemap larger than the limit")
	ErrTooDeep    = errors.New("sitemap index nested too deep")
	ErrNotSitemap = errors.New("not a sitemap")
	ErrTooMany    = errors.New("too many sitemaps")
)

// Fetcher fetches url with the engine's HTTP client, following redirects,
// and returns the status and the body as served (gzip or not; a body
// already decoded to UTF-8 is fine too). err is for failures with no HTTP
// answer.
type Fetcher func(ctx context.Context, url string) (status int, body []byte, err error)

// Entry is one page URL a sitemap lists.
type Entry struct {
	URL     string    // absolute http or https URL, from <loc> or a text line, as url.URL.String gives it
	LastMod time.Time // from <lastmod>; zero when absent or unreadable
}

// Collect fetches the sitemaps at urls, in order and depth first through
// indexes, and returns the page URLs they list in the order met, without
// duplicates, at most maxURLs of them (no limit when maxURLs <= 0). A
// sitemap that fails to fetch or parse does not stop the others: its
// error, naming its URL, joins the returned error, and the URLs it yielded
// before failing are kept. Reaching maxURLs is not an error.
func Collect(ctx context.Context, f Fetcher, urls []string, maxURLs int) ([]Entry, error) {
	return collect(ctx, f, urls, maxURLs, MaxSize)
}

// collect is Collect with the size limit as a parameter.
func collect(ctx context.Context, f Fetcher, urls []string, maxURLs int, maxSize int64) ([]Entry, error) {
	c := &collector{
		fetch:    f,
		maxURLs:  maxURLs,
		maxSize:  maxSize,
		sitemaps: make(map[string]bool),
		index:    make(map[string]int),
	}
	for _, u := range urls {
		if c.stop(ctx) {
			break
		}
		c.visit(ctx, u, 0)
	}
	if err := ctx.Err(); err != nil {
		c.errs = append(c.errs, fmt.Errorf("collect sitemaps: %w", err))
	}
	return c.entries, errors.Join(c.errs...)
}

// collector is the state of one Collect.
type collector struct {
	fetch   Fetcher
	maxURLs int
	maxSize int64

	sitemaps map[string]bool // sitemap URLs already visited
	fetched  int
	entries  []Entry
	index    map[string]int // entry position by URL
	errs     []error
}

// full reports whether maxURLs entries have been collected.
func (c *collector) full() bool { return c.maxURLs > 0 && len(c.entries) >= c.maxURLs }

// stop reports whether collecting must end.
func (c *collector) stop(ctx context.Context) bool { return c.full() || ctx.Err() != nil }

// add records a page URL unless it is already there.
func (c *collector) add(e Entry) {
	if i, ok := c.index[e.URL]; ok {
		if c.entries[i].LastMod.IsZero() {
			c.entries[i].LastMod = e.LastMod
		}
		return
	}
	c.index[e.URL] = len(c.entries)
	c.entries = append(c.entries, e)
}

// visit fetches the sitemap at raw, found at depth, and follows it if it
// is an index.
func (c *collector) visit(ctx context.Context, raw string, depth int) {
	if c.sitemaps[raw] {
		return
	}
	c.sitemaps[raw] = true
	if c.fetched == MaxSitemaps {
		c.errs = append(c.errs, fmt.Errorf("sitemap %s: %w: stopped after %d", raw, ErrTooMany, MaxSitemaps))
	}
	if c.fetched >= MaxSitemaps {
		c.fetched++
		return
	}
	c.fetched++
	children, err := c.read(ctx, raw)
	if err != nil {
		c.errs = append(c.errs, fmt.Errorf("sitemap %s: %w", raw, err))
	}
	if len(children) > 0 && depth >= MaxDepth {
		c.errs = append(c.errs, fmt.Errorf("sitemap %s: %w: at depth %d, its %d sitemaps are skipped", raw, ErrTooDeep, depth, len(children)))
		return
	}
	for _, child := range children {
		if c.stop(ctx) {
			return
		}
		c.visit(ctx, child, depth+1)
	}
}

// read fetches and parses one sitemap, adding its page URLs, and returns
// the sitemaps it lists if it is an index.
func (c *collector) read(ctx context.Context, raw string) ([]string, error) {
	status, body, err := c.fetch(ctx, raw)
	if err != nil {
		return nil, fmt.Errorf("fetch: %w", err)
	}
	if status < 200 || status > 299 {
		return nil, fmt.Errorf("fetch: status %d", status)
	}
	p := &parser{c: c}
	err = p.parse(body)
	if p.invalid > 0 {
		err = errors.Join(err, fmt.Errorf("%d entries skipped: not absolute http or https URLs", p.invalid))
	}
	return p.children, err
}
