package crawl

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/trawler/trawler/crawl/fetch"
	"github.com/trawler/trawler/crawl/robots"
	"github.com/trawler/trawler/crawl/sitemap"
)

// Back-off when a server answers 429 or 503: wait what Retry-After asks (at
// most maxBackoff), or firstBackoff doubled per attempt; give the URL up
// after maxRetries attempts.
const (
	firstBackoff = 10 * time.Second
	maxBackoff   = 10 * time.Minute
	maxRetries   = 3
	sitemapURLs  = 100_000 // most URLs taken from one host's sitemaps
)

// polite holds what makes the crawl considerate of servers beyond the
// frontier's per-host queues: robots.txt, back-off, the global request
// rate and per-host caps.
type polite struct {
	robots  *robots.Cache  // nil when robots.txt is ignored
	limiter *rate.Limiter  // nil without a requests/s cap
	aux     *fetch.Fetcher // fetches robots.txt and sitemaps

	mu       sync.Mutex
	base     time.Duration            // the crawl's delay (Config.Delay, or SetDelay's)
	crawl    map[string]time.Duration // robots.txt Crawl-delay per host
	delays   map[string]time.Duration // delay set per host, to change it once
	last     map[string]time.Time     // last request let through per host with a delay
	sitemaps map[string]bool          // hosts whose sitemaps were read
	retries  map[uint64]int           // back-off attempts per URL
	admitted map[string]int           // URLs admitted per host, for MaxPerHost
	errs     map[string]int           // failures per host
}

func newPolite(c *Config) (*polite, error) {
	auxCfg := fetchConfig(c)
	auxCfg.ContentTypes = []string{fetch.AnyType}
	auxCfg.MaxSize = sitemap.MaxSize
	aux, err := fetch.New(auxCfg)
	if err != nil {
		return nil, err
	}
	p := &polite{
		aux:      aux,
		base:     c.Delay,
		crawl:    map[string]time.Duration{},
		delays:   map[string]time.Duration{},
		last:     map[string]time.Time{},
		sitemaps: map[string]bool{},
		retries:  map[uint64]int{},
		admitted: map[string]int{},
		errs:     map[string]int{},
	}
	if c.Robots {
		p.robots = robots.New(robots.Config{UserAgent: c.UserAgent, MaxCrawlDelay: c.MaxCrawlDelay, RetryAfter: c.RobotsRetry}, p.get)
	}
	if c.RPS > 0 {
		p.limiter = rate.NewLimiter(rate.Limit(c.RPS), 1)
	}
	return p, nil
}

// get fetches a robots.txt or sitemap for the robots and sitemap packages.
func (p *polite) get(ctx context.Context, url string) (int, []byte, error) {
	r, err := p.aux.Fetch(ctx, url, false)
	if err != nil {
		return 0, nil, err
	}
	return r.Status, r.Body, nil
}

// verdict is what the gate decides about a URL before it is fetched.
type verdict int

const (
	pass    verdict = iota
	blocked         // robots.txt disallows it
	later           // its host must wait; the URL goes back to the frontier
)

// gate applies robots.txt and the host's delay to a URL about to be
// fetched: it sets the host's crawl delay, and defers the host when its
// robots.txt cannot be read yet or its delay has not passed.
func (e *Engine) gate(ctx context.Context, it Item, host string) verdict {
	var crawlDelay time.Duration
	if e.polite.robots != nil {
		dec, err := e.polite.robots.Check(ctx, it.URL)
		var un *robots.UnavailableError
		switch {
		case errors.As(err, &un):
			e.front.Defer(host, un.RetryAt)
			e.logger.Warn("robots.txt unavailable, host deferred", "host", host, "status", un.Status, "until", un.RetryAt)
			return later
		case err != nil:
			return later // cancelled: the crawl is ending
		}
		if e.cfg.Sitemaps && len(dec.Sitemaps) > 0 {
			e.readSitemaps(host, dec.Sitemaps)
		}
		if !dec.Allowed {
			e.logger.Log(ctx, LevelFetch, "blocked by robots.txt", "url", it.URL)
			return blocked
		}
		crawlDelay = dec.CrawlDelay
	}
	if !e.applyCrawlDelay(host, crawlDelay) {
		return later
	}
	return pass
}

// applyCrawlDelay gives a host the larger of the server delay and its
// robots.txt Crawl-delay, and reports whether a request may go out now. The
// frontier's timers keep workers away from a waiting host; this check
// catches the requests already taken when the delay became known.
func (e *Engine) applyCrawlDelay(host string, crawlDelay time.Duration) bool {
	now := time.Now()
	e.polite.mu.Lock()
	base := e.polite.base
	d := max(base, crawlDelay)
	e.polite.crawl[host] = crawlDelay
	changed := e.polite.delays[host] != d
	e.polite.delays[host] = d
	last := e.polite.last[host]
	ok := d == 0 || last.IsZero() || now.Sub(last) >= d
	if ok && d > 0 {
		e.polite.last[host] = now
	}
	e.polite.mu.Unlock()
	if changed && d != base {
		e.front.SetDelay(host, d)
		e.logger.Info("crawl delay from robots.txt", "host", host, "delay", d)
	}
	if !ok {
		e.front.Defer(host, last.Add(d))
	} else if d > 0 {
		// The delay runs from this request, which may leave well after
		// its worker took the queue: no queue of the host goes out, and no
		// robot is handed the host, before it has passed.
		e.front.Defer(host, now.Add(d))
	}
	return ok
}

// readSitemaps collects a host's sitemap URLs once, in the background, and
// admits them as extra seeds.
func (e *Engine) readSitemaps(host string, urls []string) {
	e.polite.mu.Lock()
	done := e.polite.sitemaps[host]
	e.polite.sitemaps[host] = true
	e.polite.mu.Unlock()
	if done {
		return
	}
	e.background.Add(1)
	e.bgDone.Add(1)
	go func() {
		defer e.bgDone.Done()
		defer e.background.Add(-1)
		entries, err := sitemap.Collect(e.bgCtx, e.polite.get, urls, sitemapURLs)
		if err != nil {
			e.logger.Warn("sitemap problems", "host", host, "err", err)
		}
		var items []Item
		for _, en := range entries {
			u, err := e.norm.Normalize(en.URL)
			if err != nil || e.admissible(u) != "" {
				continue
			}
			if fp := fingerprint(u); e.seen.Add(fp) {
				items = append(items, Item{URL: u, FP: fp})
			}
		}
		e.logger.Info("sitemaps read", "host", host, "urls", len(entries), "new", len(items))
		if len(items) > 0 {
			e.results <- result{items: items, held: e.admit(items)}
		}
	}()
}

// backoff handles a 429 or 503 answer: the host waits and the URL goes
// back to the frontier, until it has been tried maxRetries times.
func (e *Engine) backoff(it Item, host string, r *fetch.Response) bool {
	if r == nil || (r.Status != http.StatusTooManyRequests && r.Status != http.StatusServiceUnavailable) {
		return false
	}
	e.polite.mu.Lock()
	n := e.polite.retries[it.FP]
	if n < maxRetries {
		e.polite.retries[it.FP] = n + 1
	} else {
		delete(e.polite.retries, it.FP)
	}
	e.polite.mu.Unlock()
	if n >= maxRetries {
		return false
	}
	wait := retryAfter(r.Header.Get("Retry-After"), time.Now())
	if wait <= 0 {
		wait = firstBackoff << n
	}
	wait = min(wait, maxBackoff)
	e.front.Defer(host, time.Now().Add(wait))
	e.logger.Warn("server asked to slow down", "host", host, "status", r.Status, "wait", wait, "url", it.URL)
	e.log.add(Event{At: time.Now(), Level: LevelWarn, URL: it.URL, Status: r.Status,
		Message: fmt.Sprintf("host waits %s before retrying", wait.Round(time.Second))})
	return true
}

// retryAfter reads a Retry-After header: seconds or an HTTP date.
func retryAfter(v string, now time.Time) time.Duration {
	if v == "" {
		return 0
	}
	if s, err := strconv.Atoi(v); err == nil {
		return time.Duration(max(s, 0)) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		return t.Sub(now)
	}
	return 0
}

// admissible applies the scope, the trap guard and the per-host cap to a
// normalized URL about to join the crawl; it returns why not, or "" when
// the URL may join.
func (e *Engine) admissible(u string) SkipReason {
	if why := e.scope.allows(u); why != "" {
		return why
	}
	if ok, why := e.traps.allow(u); !ok {
		if e.logger.Enabled(context.Background(), LevelLinks) {
			e.logger.Log(context.Background(), LevelLinks, "trap guard", "url", u, "reason", why)
		}
		return SkipTrap
	}
	if e.cfg.MaxPerHost == 0 {
		return ""
	}
	_, host := splitHost(u)
	e.polite.mu.Lock()
	defer e.polite.mu.Unlock()
	if e.polite.admitted[host] >= e.cfg.MaxPerHost {
		return SkipHostCap
	}
	e.polite.admitted[host]++
	return ""
}

func (e *Engine) countHostError(host string) {
	e.polite.mu.Lock()
	e.polite.errs[host]++
	e.polite.mu.Unlock()
}

// HostStatus is one host's line in the per-host view of the queues.
type HostStatus struct {
	Host        string
	Waiting     int           // URLs waiting in its queues in memory
	InFlight    int           // its queues in workers' hands
	NextAllowed time.Time     // no request before this time
	Delay       time.Duration // minimum gap between requests
	Errors      int           // fetches that failed
}

// Hosts returns the per-host view of the crawl's queues.
func (e *Engine) Hosts() []HostStatus {
	stats := e.front.Hosts()
	e.polite.mu.Lock()
	defer e.polite.mu.Unlock()
	out := make([]HostStatus, len(stats))
	for i, s := range stats {
		d, ok := e.polite.delays[s.Host]
		if !ok {
			d = e.polite.base
		}
		out[i] = HostStatus{Host: s.Host, Waiting: s.Waiting, InFlight: s.Busy, NextAllowed: s.NotBefore,
			Delay: d, Errors: e.polite.errs[s.Host]}
	}
	return out
}
