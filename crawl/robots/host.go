package robots

import (
	"net/url"
	"slices"
	"strings"
	"time"
)

// HostInfo describes what the Cache knows of one origin, for a per-host view.
type HostInfo struct {
	Origin     string        // scheme://host:port
	Fetching   bool          // a fetch is in progress
	Checked    bool          // an answer has arrived; the fields below describe the latest
	Available  bool          // the rules are known; false while the host must wait
	Status     int           // HTTP status, 0 after a network error
	Err        error         // why the host must wait, nil when Available
	FetchedAt  time.Time     // when the answer arrived
	Expires    time.Time     // when robots.txt is fetched again: expiry, or the retry time
	Failures   int           // unavailable answers in a row
	Size       int           // bytes of robots.txt read, at most MaxSize
	RuleLines  int           // Allow and Disallow lines in all groups
	Ignored    int           // lines the parser rejected and that were skipped
	CrawlDelay time.Duration // for our agent, capped
	Sitemaps   []string      // shared, do not modify
}

// Host returns what is known of the origin of rawURL, which may be any URL
// on the host or just "scheme://host[:port]". The bool is false for an
// origin never checked.
func (c *Cache) Host(rawURL string) (HostInfo, bool) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		return HostInfo{}, false
	}
	o := origin(u)
	c.mu.Lock()
	defer c.mu.Unlock()
	h := c.hosts[o]
	if h == nil {
		return HostInfo{}, false
	}
	return h.info(o), true
}

// Hosts lists every origin the Cache knows, sorted by origin.
func (c *Cache) Hosts() []HostInfo {
	c.mu.Lock()
	out := make([]HostInfo, 0, len(c.hosts))
	for o, h := range c.hosts {
		out = append(out, h.info(o))
	}
	c.mu.Unlock()
	slices.SortFunc(out, func(a, b HostInfo) int { return strings.Compare(a.Origin, b.Origin) })
	return out
}

// info summarises h; the caller holds the Cache's lock.
func (h *host) info(origin string) HostInfo {
	hi := HostInfo{Origin: origin, Fetching: h.flight != nil, Failures: h.failures}
	r := h.last
	if r == nil {
		return hi
	}
	hi.Checked = true
	hi.Available = r.unavailable == nil
	hi.Status = r.status
	if r.unavailable != nil {
		hi.Err = r.unavailable
	}
	hi.FetchedAt, hi.Expires = r.fetchedAt, r.until
	hi.Size, hi.RuleLines, hi.Ignored = r.size, r.ruleLines, r.ignored
	hi.CrawlDelay, hi.Sitemaps = r.delay, r.sitemaps
	return hi
}
