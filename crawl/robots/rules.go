package robots

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/temoto/robotstxt"
)

// host is the cache slot of one origin.
type host struct {
	last     *rules  // the latest completed answer, nil before the first
	flight   *flight // the fetch in progress, nil when none
	failures int     // unavailable answers in a row
}

// flight is one fetch of a robots.txt that concurrent callers wait for.
type flight struct {
	done chan struct{}
	res  *rules // nil when the fetching caller gave up
}

// rules is one answer for an origin: parsed rules or unavailability.
type rules struct {
	origin      string
	status      int
	fetchedAt   time.Time
	until       time.Time // expiry, or the retry time when unavailable
	unavailable *UnavailableError
	data        *robotstxt.RobotsData
	delay       time.Duration // crawl delay for our agent, capped
	sitemaps    []string
	size        int // bytes parsed
	ruleLines   int
	ignored     int
}

// rules returns the current answer for origin, fetching robotsURL when there
// is none or it has expired. Only one caller per origin fetches at a time.
func (c *Cache) rules(ctx context.Context, origin, robotsURL string) (*rules, error) {
	for {
		c.mu.Lock()
		h := c.hosts[origin]
		if h == nil {
			h = &host{}
			c.hosts[origin] = h
		}
		if r := h.last; r != nil && c.cfg.Now().Before(r.until) {
			c.mu.Unlock()
			return r, nil
		}
		if f := h.flight; f != nil {
			c.mu.Unlock()
			select {
			case <-f.done:
				if f.res != nil {
					return f.res, nil
				}
				continue
			case <-ctx.Done():
				return nil, fmt.Errorf("wait for robots.txt of %s: %w", origin, ctx.Err())
			}
		}
		f := &flight{done: make(chan struct{})}
		h.flight = f
		failures := h.failures
		c.mu.Unlock()

		r := c.load(ctx, origin, robotsURL, failures)

		c.mu.Lock()
		h.flight = nil
		if r != nil {
			h.last = r
			h.failures = 0
			if r.unavailable != nil {
				h.failures = failures + 1
			}
		}
		f.res = r
		c.mu.Unlock()
		close(f.done)
		if r == nil {
			return nil, fmt.Errorf("fetch robots.txt of %s: %w", origin, ctx.Err())
		}
		return r, nil
	}
}

// load fetches and interprets one robots.txt. It returns nil when ctx ended,
// since then nothing was learned about the host.
func (c *Cache) load(ctx context.Context, origin, robotsURL string, failures int) *rules {
	status, body, err := c.fetch(ctx, robotsURL)
	if ctx.Err() != nil {
		return nil
	}
	now := c.cfg.Now()
	r := &rules{origin: origin, status: status, fetchedAt: now, until: now.Add(c.cfg.TTL)}
	switch {
	case err != nil || status == http.StatusTooManyRequests || status >= 500 || status < 200:
		r.until = now.Add(c.backoff(failures))
		r.unavailable = &UnavailableError{Host: origin, RetryAt: r.until, Status: status, Err: err}
	case status >= 300:
		r.data = allowAll()
	default:
		body = truncate(body)
		r.size = len(body)
		r.data, r.ignored = parse(escapeNonASCII(body))
		r.ruleLines = countRuleLines(body)
		r.delay = min(r.data.FindGroup(c.agent).CrawlDelay, c.cfg.MaxCrawlDelay)
		r.sitemaps = absolute(robotsURL, r.data.Sitemaps)
	}
	return r
}

// backoff is the wait after the (failures+1)-th unavailable answer in a row.
func (c *Cache) backoff(failures int) time.Duration {
	d := c.cfg.RetryAfter
	for range failures {
		if d >= c.cfg.MaxRetryAfter/2 {
			return c.cfg.MaxRetryAfter
		}
		d *= 2
	}
	return d
}

// decide applies the rules to u.
func (r *rules) decide(u *url.URL, agent string) Decision {
	p := u.EscapedPath()
	if p == "" {
		p = "/"
	}
	if u.RawQuery != "" {
		p += "?" + u.RawQuery
	}
	allowed := p == "/robots.txt" || r.data.TestAgent(p, agent)
	return Decision{Allowed: allowed, CrawlDelay: r.delay, Sitemaps: r.sitemaps}
}

// orphanGroup opens a group no crawler belongs to, so that rules written
// before the first User-agent line, which the parser would reject, bind
// nobody.
const orphanGroup = "User-agent: trawler-orphan-rules\n"

// parse reads a robots.txt leniently: when the parser rejects the file, the
// lines it rejects on their own are dropped and the rest parsed again.
func parse(body []byte) (*robotstxt.RobotsData, int) {
	if d, err := robotstxt.FromBytes(append([]byte(orphanGroup), body...)); err == nil {
		return d, 0
	}
	kept := []byte(orphanGroup)
	ignored := 0
	for line := range bytes.Lines(body) {
		if _, err := robotstxt.FromBytes(append([]byte("User-agent: x\n"), line...)); err != nil {
			ignored++
			continue
		}
		kept = append(kept, line...)
	}
	d, err := robotstxt.FromBytes(kept)
	if err != nil {
		return allowAll(), bytes.Count(body, []byte("\n")) + 1
	}
	return d, ignored
}

// escapeNonASCII percent-encodes the bytes outside US-ASCII, so that a rule
// written "/café" matches the URL path "/caf%C3%A9", as RFC 9309 §2.2.2 asks.
func escapeNonASCII(body []byte) []byte {
	n := 0
	for _, b := range body {
		if b >= 0x80 {
			n++
		}
	}
	if n == 0 {
		return body
	}
	const hex = "0123456789ABCDEF"
	out := make([]byte, 0, len(body)+2*n)
	for _, b := range body {
		if b < 0x80 {
			out = append(out, b)
			continue
		}
		out = append(out, '%', hex[b>>4], hex[b&15])
	}
	return out
}

// allowAll is the rule set of a host without a usable robots.txt.
func allowAll() *robotstxt.RobotsData {
	d, _ := robotstxt.FromStatusAndBytes(http.StatusNotFound, nil)
	return d
}

// truncate cuts body to MaxSize at a line break. A body of exactly MaxSize
// is cut too, since a Fetcher that stops there may have split a line.
func truncate(body []byte) []byte {
	if len(body) < MaxSize {
		return body
	}
	body = body[:MaxSize]
	if i := bytes.LastIndexByte(body, '\n'); i >= 0 {
		body = body[:i+1]
	}
	return body
}

// countRuleLines counts Allow and Disallow lines in all groups, a size
// measure for the per-host view.
func countRuleLines(body []byte) int {
	n := 0
	for line := range bytes.Lines(body) {
		line = bytes.ToLower(bytes.TrimSpace(line))
		for _, k := range [][]byte{[]byte("allow"), []byte("disallow")} {
			if rest, ok := bytes.CutPrefix(line, k); ok && bytes.HasPrefix(bytes.TrimLeft(rest, " \t"), []byte(":")) {
				n++
			}
		}
	}
	return n
}

// absolute resolves the sitemap references against the robots.txt URL and
// drops those that are not http or https.
func absolute(base string, refs []string) []string {
	b, err := url.Parse(base)
	if err != nil {
		return nil
	}
	var out []string
	for _, ref := range refs {
		u, err := b.Parse(ref)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
			continue
		}
		out = append(out, u.String())
	}
	return out
}
