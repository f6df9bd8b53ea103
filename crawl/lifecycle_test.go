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

// gate answers only as many requests as the test allows; the others wait
// until it allows more.
type gate struct {
	mu      sync.Mutex
	cond    *sync.Cond
	allowed int64
	arrived atomic.Int64
	inner   http.Handler
}

func newGate(inner http.Handler) *gate {
	g := &gate{inner: inner}
	g.cond = sync.NewCond(&g.mu)
	return g
}

func (g *gate) allow(n int64) {
	g.mu.Lock()
	g.allowed = n
	g.cond.Broadcast()
	g.mu.Unlock()
}

func (g *gate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := g.arrived.Add(1)
	g.mu.Lock()
	for n > g.allowed {
		g.cond.Wait()
	}
	g.mu.Unlock()
	g.inner.ServeHTTP(w, r)
}

// waitFor polls cond until it holds; the deadline only guards against a hang.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestPauseResumeStopAndResumeLater(t *testing.T) {
	site := &testsite.Site{Pages: 300, OutDegree: 4}
	g := newGate(site)
	srv := httptest.NewServer(g)
	defer srv.Close()
	c := config(srv.URL + "/")
	c.Threads, c.Depth = 4, 20
	h := newHarness(t, c)
	e, err := crawl.New(c, h.db.Crawl(h.id))
	if err != nil {
		t.Fatal(err)
	}
	ran := make(chan error, 1)
	go func() { ran <- e.Run(context.Background()) }()

	// The first request is held; pausing now lets it finish but starts no other.
	waitFor(t, "the first request", func() bool { return g.arrived.Load() == 1 })
	e.Pause()
	g.allow(1)
	waitFor(t, "the first page to be stored", func() bool { return e.Progress().Done == 1 })
	time.Sleep(50 * time.Millisecond) // a worker that ignored Pause would fetch now
	if n := g.arrived.Load(); n != 1 {
		t.Fatalf("%d requests while paused, want 1", n)
	}
	if p := e.Progress(); p.State != crawl.StatePaused || p.Waiting == 0 {
		t.Fatalf("paused progress %+v", p)
	}
	g.allow(40)
	e.Resume()
	waitFor(t, "40 requests after resume", func() bool { return g.arrived.Load() > 40 })
	go e.Stop()
	waitFor(t, "stopping", func() bool { return e.Progress().State == crawl.StateStopping })
	g.allow(1 << 40) // let the fetches in flight finish
	if err := <-ran; err != nil {
		t.Fatal(err)
	}
	stopped := e.Progress()
	if stopped.State != crawl.StateStopped || stopped.Processing != 0 {
		t.Fatalf("stopped progress %+v", stopped)
	}
	if stopped.Done > 40+int64(c.Threads) {
		t.Fatalf("Stop did not stop: %d pages", stopped.Done)
	}
	before := g.arrived.Load()
	if int64(len(h.paths(""))) != stopped.Done {
		t.Fatalf("stored %d pages, progress says %d", len(h.paths("")), stopped.Done)
	}

	// A new engine on the same crawl fetches only what is left.
	final := h.run()
	if final.Done != 300 || final.State != crawl.StateDone {
		t.Fatalf("after resuming: %+v", final)
	}
	if got := g.arrived.Load() - before; got != 300-stopped.Done {
		t.Errorf("resume fetched %d URLs, want %d (no page fetched twice)", got, 300-stopped.Done)
	}
}

func TestMaxPages(t *testing.T) {
	site := &testsite.Site{Pages: 200, OutDegree: 4}
	srv := httptest.NewServer(site)
	defer srv.Close()
	c := config(srv.URL + "/")
	c.Threads, c.MaxPages, c.Depth = 8, 25, 10
	h := newHarness(t, c)
	p := h.run()
	if p.Fetched() != 25 || len(h.paths("")) != 25 {
		t.Errorf("fetched %d, stored %d; want 25", p.Fetched(), len(h.paths("")))
	}
	if p.State != crawl.StateDone {
		t.Errorf("state %s, want done", p.State)
	}
}

func TestBadConfig(t *testing.T) {
	for _, c := range []crawl.Config{
		{},
		{Seeds: []string{"mailto:x@y.z"}},
		{Seeds: []string{"http://a/"}, Depth: -1},
		{Seeds: []string{"http://a/"}, Threads: 1001},
		{Seeds: []string{"http://a/"}, Include: []string{"("}},
		{Seeds: []string{"http://a/"}, Strategy: "random"},
		{Seeds: []string{"http://a/"}, Mix: 2, Strategy: crawl.Mixed},
	} {
		if _, err := crawl.New(c, nil); err == nil {
			t.Errorf("config %+v accepted", c)
		}
	}
}
