package crawl_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/testsite"
)

// concurrency counts the requests in flight at a server and the most seen.
type concurrency struct {
	now, most atomic.Int64
	inner     http.Handler
	hold      time.Duration
}

func (c *concurrency) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := c.now.Add(1)
	for {
		m := c.most.Load()
		if n <= m || c.most.CompareAndSwap(m, n) {
			break
		}
	}
	time.Sleep(c.hold)
	c.inner.ServeHTTP(w, r)
	c.now.Add(-1)
}

// TestTuneWhileRunning changes threads, the per-host limit and the delay
// of a running crawl: each takes effect without a restart.
func TestTuneWhileRunning(t *testing.T) {
	c := &concurrency{inner: &testsite.Site{Pages: 400, OutDegree: 5}, hold: 20 * time.Millisecond}
	srv := httptest.NewServer(c)
	defer srv.Close()
	cfg := config(srv.URL + "/")
	cfg.Depth = 30
	h := newHarness(t, cfg)
	e, err := crawl.New(cfg, h.db.Crawl(h.id))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		if err := e.Run(context.Background()); err != nil {
			t.Error(err)
		}
	})
	waitFor(t, "some pages", func() bool { return e.Progress().Done > 5 })
	if m := c.most.Load(); m != 1 {
		t.Fatalf("%d requests at once with one thread", m)
	}
	if err := e.SetThreads(4); err != nil {
		t.Fatal(err)
	}
	if err := e.SetPerHost(4); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "four requests at once", func() bool { return c.most.Load() == 4 })
	e.SetThreads(1)
	e.SetPerHost(1)
	waitFor(t, "one worker", func() bool { return e.Progress().Workers == 1 && c.now.Load() <= 1 })
	c.most.Store(0)
	start := e.Progress().Done
	waitFor(t, "more pages", func() bool { return e.Progress().Done > start+5 })
	if m := c.most.Load(); m != 1 {
		t.Errorf("%d requests at once after going back to one thread", m)
	}
	if err := e.SetDelay(-time.Second); err == nil {
		t.Error("a negative delay was taken")
	}
	e.Stop()
	wg.Wait()
	if th, ph, d := e.Settings(); th != 1 || ph != 1 || d != 0 {
		t.Errorf("settings %d %d %v", th, ph, d)
	}
}
