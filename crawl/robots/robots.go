// Package robots decides whether the crawler may fetch a URL under the
// robots exclusion protocol (RFC 9309), and how long it should wait between
// requests to a host (Crawl-delay). It is the part of the politeness the
// site's administrator controls, beside the limits Trawler's own user sets
// (paper 003 lets the administrator switch robots.txt checking on and off).
//
// A Cache fetches each origin's robots.txt (scheme://host:port) once,
// through a Fetcher the engine supplies, and keeps the rules for Config.TTL.
// What an answer means:
//   - 2xx: the file is parsed with github.com/temoto/robotstxt; the group for
//     our product token applies, else the "*" group, else nothing is
//     forbidden. Lines the parser rejects (a bad Crawl-delay value, a rule
//     before any User-agent line) are ignored, the rest still count. Only the
//     first MaxSize bytes are read. Non-ASCII paths in rules are
//     percent-encoded (RFC 9309 §2.2.2) to match escaped URL paths.
//   - 3xx that the Fetcher could not follow, and 4xx except 429: there is no
//     usable robots.txt, so everything is allowed.
//   - 5xx, 429 (too many requests), a status below 200, or a network error
//     or timeout: the host cannot be judged yet. Check returns an
//     *UnavailableError (errors.Is ErrUnavailable) with the time to try
//     again; the wait doubles while the host keeps failing, and the next
//     Check after that time fetches again.
//
// Concurrent Checks for one origin share a single fetch. A caller whose
// context ends while fetching learns nothing and caches nothing.
package robots

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"
)

// MaxSize is how much of a robots.txt is read; the rest is ignored, as
// RFC 9309 allows. A Fetcher may stop reading there; a longer body is cut at
// its last line break before MaxSize.
const MaxSize = 500 << 10

// Defaults for the zero values of Config.
const (
	DefaultTTL           = 24 * time.Hour
	DefaultMaxCrawlDelay = 30 * time.Second
	DefaultRetryAfter    = time.Minute
	DefaultMaxRetryAfter = 30 * time.Minute
)

// Fetcher fetches url with the engine's own HTTP client, proxy and user
// agent, following redirects. It returns the final status and body; err is
// for failures with no HTTP answer (network error, timeout).
type Fetcher func(ctx context.Context, url string) (status int, body []byte, err error)

// Config tunes a Cache. Zero values take the defaults named on each field.
type Config struct {
	// UserAgent is the product token matched, case-insensitively, against
	// User-agent lines, such as "Trawler". A full user agent such as
	// "Trawler/0.1.0" is cut at the first '/' or space.
	UserAgent string
	// TTL is how long fetched rules are kept before robots.txt is fetched
	// again. Default DefaultTTL.
	TTL time.Duration
	// MaxCrawlDelay caps the Crawl-delay honoured, so a site cannot stall a
	// crawl. Default DefaultMaxCrawlDelay.
	MaxCrawlDelay time.Duration
	// RetryAfter is how long a host waits after its robots.txt was
	// unavailable; it doubles with each further failure in a row, up to
	// MaxRetryAfter. Defaults DefaultRetryAfter and DefaultMaxRetryAfter.
	RetryAfter    time.Duration
	MaxRetryAfter time.Duration
	// Now is the clock; tests inject their own. Default time.Now.
	Now func() time.Time
}

// Decision is what robots.txt says about one URL.
type Decision struct {
	Allowed    bool
	CrawlDelay time.Duration // for our group, capped at Config.MaxCrawlDelay; 0 when none
	Sitemaps   []string      // absolute sitemap URLs the host lists; shared, do not modify
}

// Cache holds robots.txt rules per origin. It is safe for concurrent use.
type Cache struct {
	cfg   Config
	agent string
	fetch Fetcher

	mu    sync.Mutex
	hosts map[string]*host // by origin
}

// New returns an empty Cache that fetches robots.txt files through f.
func New(c Config, f Fetcher) *Cache {
	if c.TTL <= 0 {
		c.TTL = DefaultTTL
	}
	if c.MaxCrawlDelay <= 0 {
		c.MaxCrawlDelay = DefaultMaxCrawlDelay
	}
	if c.RetryAfter <= 0 {
		c.RetryAfter = DefaultRetryAfter
	}
	if c.MaxRetryAfter <= 0 {
		c.MaxRetryAfter = DefaultMaxRetryAfter
	}
	if c.MaxRetryAfter < c.RetryAfter {
		c.MaxRetryAfter = c.RetryAfter
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return &Cache{cfg: c, agent: productToken(c.UserAgent), fetch: f, hosts: make(map[string]*host)}
}

// Check reports whether rawURL may be fetched. It fetches the robots.txt of
// the URL's origin the first time and after the rules expire. When the host
// cannot be judged yet, it returns an *UnavailableError saying when to try
// again, and the engine should defer the host until then. URLs that are not
// http or https are always allowed.
func (c *Cache) Check(ctx context.Context, rawURL string) (Decision, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return Decision{}, fmt.Errorf("check robots.txt for %q: %w", rawURL, err)
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		return Decision{Allowed: true}, nil
	}
	if u.Host == "" {
		return Decision{}, fmt.Errorf("check robots.txt for %q: no host", rawURL)
	}
	r, err := c.rules(ctx, origin(u), scheme+"://"+strings.ToLower(u.Host)+"/robots.txt")
	if err != nil {
		return Decision{}, err
	}
	if r.unavailable != nil {
		return Decision{}, r.unavailable
	}
	return r.decide(u, c.agent), nil
}

// productToken extracts the name robots.txt groups are matched against.
func productToken(ua string) string {
	ua = strings.TrimSpace(ua)
	if i := strings.IndexAny(ua, "/ \t"); i >= 0 {
		ua = ua[:i]
	}
	return ua
}

// origin is the cache key of u: lower-case scheme and host, explicit port.
func origin(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		port = "80"
		if scheme == "https" {
			port = "443"
		}
	}
	h := strings.ToLower(u.Hostname())
	if strings.Contains(h, ":") {
		h = "[" + h + "]"
	}
	return scheme + "://" + h + ":" + port
}
