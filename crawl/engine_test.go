package crawl_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/testsite"
	"github.com/trawler/trawler/db"
)

// harness is one crawl against a real SQLite file.
type harness struct {
	t   *testing.T
	db  *db.DB
	id  int64
	cfg crawl.Config
}

func newHarness(t *testing.T, cfg crawl.Config) *harness {
	t.Helper()
	d, err := db.Open(filepath.Join(t.TempDir(), "crawl.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	id, err := d.CreateCrawl(context.Background(), "test", cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &harness{t: t, db: d, id: id, cfg: cfg}
}

// run crawls to the end and returns the engine's final progress.
func (h *harness) run() crawl.Progress {
	h.t.Helper()
	e, err := crawl.New(h.cfg, h.db.Crawl(h.id))
	if err != nil {
		h.t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := e.Run(ctx); err != nil {
		h.t.Fatal(err)
	}
	return e.Progress()
}

// urls returns the stored page URLs with the given server prefix cut off.
func (h *harness) paths(prefix string) []string {
	h.t.Helper()
	rows, err := h.db.Pages(context.Background(), db.PageQuery{Crawl: h.id, Limit: 100000})
	if err != nil {
		h.t.Fatal(err)
	}
	var out []string
	for _, r := range rows {
		out = append(out, strings.TrimPrefix(r.URL, prefix))
	}
	slices.Sort(out)
	return out
}

func config(seeds ...string) crawl.Config {
	c := crawl.DefaultConfig()
	c.Seeds = seeds
	c.Threads = 1
	c.Robots = false // robots.txt has its own tests; here it would add requests to the logs
	return c
}

func TestDepthLimit(t *testing.T) {
	site := &testsite.Site{Pages: 100, OutDegree: 2}
	srv := httptest.NewServer(site)
	defer srv.Close()
	for _, tt := range []struct {
		depth int
		want  int // the site is a binary tree: 1, 3, 7, 15 pages
	}{{0, 1}, {1, 3}, {2, 7}, {3, 15}} {
		t.Run(fmt.Sprint(tt.depth), func(t *testing.T) {
			c := config(srv.URL + "/")
			c.Depth = tt.depth
			h := newHarness(t, c)
			p := h.run()
			if got := len(h.paths(srv.URL)); got != tt.want || p.Done != int64(tt.want) {
				t.Errorf("depth %d: stored %d pages, done %d; want %d", tt.depth, got, p.Done, tt.want)
			}
			if p.State != crawl.StateDone || p.Waiting != 0 || p.Processing != 0 {
				t.Errorf("final progress %+v", p)
			}
		})
	}
}

func TestOrder(t *testing.T) {
	tests := []struct {
		strategy crawl.Strategy
		mix      float64
		want     []string
	}{
		{crawl.BFS, 0, []string{"/", "/p/1", "/p/2", "/p/3", "/p/4", "/p/5", "/p/6", "/p/7", "/p/8", "/p/9", "/p/10", "/p/11", "/p/12", "/p/13", "/p/14"}},
		{crawl.DFS, 0, []string{"/", "/p/1", "/p/3", "/p/7", "/p/8", "/p/4", "/p/9", "/p/10", "/p/2", "/p/5", "/p/11", "/p/12", "/p/6", "/p/13", "/p/14"}},
		{crawl.Mixed, 1, []string{"/", "/p/1", "/p/3", "/p/7", "/p/8", "/p/4", "/p/9", "/p/10", "/p/2", "/p/5", "/p/11", "/p/12", "/p/6", "/p/13", "/p/14"}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.strategy, tt.mix), func(t *testing.T) {
			site := &testsite.Site{Pages: 15, OutDegree: 2}
			site.Record()
			srv := httptest.NewServer(site)
			defer srv.Close()
			c := config(srv.URL + "/")
			c.Depth = 3
			c.Strategy, c.Mix = tt.strategy, tt.mix
			newHarness(t, c).run()
			if got := site.Requests(); !slices.Equal(got, tt.want) {
				t.Errorf("order\n got %v\nwant %v", got, tt.want)
			}
		})
	}
	t.Run("mixed is reproducible", func(t *testing.T) {
		var orders [][]string
		for range 2 {
			site := &testsite.Site{Pages: 60, OutDegree: 3}
			site.Record()
			srv := httptest.NewServer(site)
			c := config(srv.URL + "/")
			c.Strategy, c.Mix, c.RandSeed = crawl.Mixed, 0.5, 42
			newHarness(t, c).run()
			orders = append(orders, site.Requests())
			srv.Close()
		}
		if !slices.Equal(orders[0], orders[1]) {
			t.Errorf("two runs with seed 42 differ:\n%v\n%v", orders[0], orders[1])
		}
	})
}

// barrier is a handler that holds requests until n are in flight at once,
// and records the most it ever saw.
type barrier struct {
	mu       sync.Mutex
	inFlight int
	peak     int
	need     int
	release  chan struct{}
	inner    http.Handler
}

func (b *barrier) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b.mu.Lock()
	b.inFlight++
	b.peak = max(b.peak, b.inFlight)
	if b.inFlight >= b.need && b.release != nil {
		close(b.release)
		b.release = nil
	}
	rel := b.release
	b.mu.Unlock()
	if rel != nil {
		select {
		case <-rel:
		case <-time.After(2 * time.Second): // never reached n: let the crawl finish, the peak tells
		}
	}
	b.inner.ServeHTTP(w, r)
	b.mu.Lock()
	b.inFlight--
	b.mu.Unlock()
}

func slowly(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(2 * time.Millisecond)
		h.ServeHTTP(w, r)
	})
}

func TestPerHostLimit(t *testing.T) {
	for _, tt := range []struct{ threads, perHost, want int }{{10, 1, 1}, {10, 10, 10}} {
		t.Run(fmt.Sprintf("per-host %d", tt.perHost), func(t *testing.T) {
			b := &barrier{need: tt.want, inner: &testsite.Site{Pages: 200, OutDegree: 12}}
			if tt.want > 1 {
				b.release = make(chan struct{})
			} else {
				b.inner = slowly(b.inner) // gives overlapping requests every chance to show
			}
			srv := httptest.NewServer(b)
			defer srv.Close()
			c := config(srv.URL + "/")
			c.Threads, c.PerHost, c.Depth = tt.threads, tt.perHost, 2
			newHarness(t, c).run()
			if b.peak != tt.want {
				t.Errorf("peak concurrent requests = %d, want %d", b.peak, tt.want)
			}
		})
	}
}
