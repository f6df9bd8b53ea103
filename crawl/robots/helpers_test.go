package robots_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/trawler/trawler/crawl/robots"
)

// site is a test server whose /robots.txt answers with a status and body
// the test can change, counting the requests for it.
type site struct {
	*httptest.Server
	hits atomic.Int32

	mu     sync.Mutex
	status int
	body   string
	gate   chan struct{} // when set, robots.txt answers only once it is closed
}

func newSite(t *testing.T, status int, body string) *site {
	t.Helper()
	s := &site{status: status, body: body}
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", s.robots)
	s.Server = httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s
}

func (s *site) robots(w http.ResponseWriter, r *http.Request) {
	s.hits.Add(1)
	s.mu.Lock()
	status, body, gate := s.status, s.body, s.gate
	s.mu.Unlock()
	if gate != nil {
		select {
		case <-gate:
		case <-r.Context().Done():
			return
		}
	}
	w.Header().Set("Content-Type", "text/plain")
	w.WriteHeader(status)
	io.WriteString(w, body)
}

func (s *site) set(status int, body string) {
	s.mu.Lock()
	s.status, s.body = status, body
	s.mu.Unlock()
}

// hold makes robots.txt wait until the returned function is called.
func (s *site) hold() (release func()) {
	gate := make(chan struct{})
	s.mu.Lock()
	s.gate = gate
	s.mu.Unlock()
	return sync.OnceFunc(func() {
		s.mu.Lock()
		s.gate = nil
		s.mu.Unlock()
		close(gate)
	})
}

// waitHits waits until the site has seen n robots.txt requests.
func (s *site) waitHits(t *testing.T, n int32) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for s.hits.Load() < n {
		if time.Now().After(deadline) {
			t.Fatalf("robots.txt requests = %d, waited for %d", s.hits.Load(), n)
		}
		time.Sleep(time.Millisecond)
	}
}

// httpFetcher is a Fetcher over net/http, like the engine's: it follows
// redirects and reads at most limit bytes of the body.
func httpFetcher(limit int64) robots.Fetcher {
	client := &http.Client{Timeout: 10 * time.Second}
	return func(ctx context.Context, url string) (int, []byte, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return 0, nil, err
		}
		req.Header.Set("User-Agent", "Trawler/0.1.0")
		resp, err := client.Do(req)
		if err != nil {
			return 0, nil, err
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(io.LimitReader(resp.Body, limit))
		if err != nil {
			return 0, nil, err
		}
		return resp.StatusCode, body, nil
	}
}

// clock is an injectable clock that moves only when told.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// newCache returns a Cache with agent "Trawler/0.1.0", the clock and the
// test Fetcher reading up to MaxSize bytes.
func newCache(clk *clock, cfg robots.Config) *robots.Cache {
	if cfg.UserAgent == "" {
		cfg.UserAgent = "Trawler/0.1.0"
	}
	if clk != nil {
		cfg.Now = clk.Now
	}
	return robots.New(cfg, httpFetcher(robots.MaxSize))
}

// mustCheck calls Check and fails the test on error.
func mustCheck(t *testing.T, c *robots.Cache, url string) robots.Decision {
	t.Helper()
	d, err := c.Check(context.Background(), url)
	if err != nil {
		t.Fatalf("Check(%s): %v", url, err)
	}
	return d
}
