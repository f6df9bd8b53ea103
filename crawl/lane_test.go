package crawl_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/trawler/trawler/crawl"
)

// requestLog serves docs and remembers the order of the paths asked for.
type requestLog struct {
	mu    sync.Mutex
	paths []string
	inner http.Handler
}

func (l *requestLog) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	l.mu.Lock()
	l.paths = append(l.paths, r.URL.Path)
	l.mu.Unlock()
	l.inner.ServeHTTP(w, r)
}

func (l *requestLog) seen() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.paths)
}

// fanOut is a root page linking to /p1 … /pN.
func fanOut(n int) map[string]string {
	docs := map[string]string{}
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, `<a href="/p%d">p%d</a> `, i, i)
		docs[fmt.Sprintf("/p%d", i)] = "<title>leaf</title>leaf"
	}
	docs["/"] = "<title>root</title>" + b.String()
	return docs
}

// TestPriorityLaneServedFirst pushes URLs to a running crawl: one on a
// host the crawl never links to, fetched although the crawl's own host is
// stalled, and one already waiting deep in the queue of the crawl's host,
// fetched before the URLs queued ahead of it.
func TestPriorityLaneServedFirst(t *testing.T) {
	a := &requestLog{inner: pages(fanOut(30))}
	g := newGate(a)
	srvA := httptest.NewServer(g)
	defer srvA.Close()
	b := &requestLog{inner: pages(map[string]string{"/judge-me": `<title>lane</title><a href="/next">next</a>`})}
	srvB := httptest.NewServer(b)
	defer srvB.Close()
	otherHost := strings.Replace(srvB.URL, "127.0.0.1", "localhost", 1) // out of the crawl's host scope

	c := config(srvA.URL + "/")
	c.Threads, c.PerHost = 2, 1
	h := newHarness(t, c)
	e, err := crawl.New(c, h.db.Crawl(h.id))
	if err != nil {
		t.Fatal(err)
	}
	ran := make(chan error, 1)
	go func() { ran <- e.Run(context.Background()) }()
	g.allow(2) // the root and /p1; /p2 is held, with /p3 and /p4 in the same worker's batch
	waitFor(t, "the third request", func() bool { return g.arrived.Load() == 3 })

	ctx := context.Background()
	if _, err := h.db.Prioritize(ctx, h.id, otherHost+"/judge-me"); err != nil {
		t.Fatal(err)
	}
	if _, err := h.db.Prioritize(ctx, h.id, srvA.URL+"/p20"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the lane URL of the other host", func() bool { return slices.Contains(b.seen(), "/judge-me") })
	waitFor(t, "both lane URLs claimed", func() bool { return e.Progress().Urgent == 2 })
	g.allow(1 << 40)
	if err := <-ran; err != nil {
		t.Fatal(err)
	}
	got := a.seen()
	at := slices.Index(got, "/p20")
	if at < 0 || at > 5 {
		t.Errorf("host A's requests %v: /p20 should follow the batch in flight (/p2 … /p4)", got)
	}
	if n := len(got); n != 31 {
		t.Errorf("host A saw %d requests, want 31 (each page once)", n)
	}
	if p := h.page(otherHost + "/judge-me"); p == nil || p.Title != "lane" || p.Depth != 0 {
		t.Errorf("lane page stored as %+v", p)
	}
	if slices.Contains(b.seen(), "/next") {
		t.Error("a link of the lane page on another host was followed out of scope")
	}
}

// TestPriorityOnly runs the gateway's own crawler: it fetches what is
// pushed to the lane and nothing else of the crawl, and waits for more
// until it is stopped.
func TestPriorityOnly(t *testing.T) {
	a := &requestLog{inner: pages(fanOut(3))}
	srv := httptest.NewServer(a)
	defer srv.Close()
	c := config(srv.URL + "/")
	h := newHarness(t, c)
	lane := c
	lane.Depth = 0
	e, err := crawl.New(lane, h.db.Crawl(h.id), crawl.PriorityOnly())
	if err != nil {
		t.Fatal(err)
	}
	ran := make(chan error, 1)
	go func() { ran <- e.Run(context.Background()) }()
	for i, path := range []string{"/p2", "/p3"} {
		if _, err := h.db.Prioritize(context.Background(), h.id, srv.URL+path); err != nil {
			t.Fatal(err)
		}
		waitFor(t, path+" stored", func() bool { return e.Progress().Done == int64(i+1) })
	}
	if st := e.Progress().State; st != crawl.StateRunning {
		t.Errorf("state %s with an empty lane, want running", st)
	}
	e.Stop()
	if err := <-ran; err != nil {
		t.Fatal(err)
	}
	if got := a.seen(); !slices.Equal(got, []string{"/p2", "/p3"}) {
		t.Errorf("requests %v, want only the lane's", got)
	}
	// The crawl's own run then does the rest, the lane's pages included
	// once: they are done.
	h.cfg = c
	if p := h.run(); p.Done != 4 {
		t.Errorf("the crawl's run ended with %d pages, want 4", p.Done)
	}
	if got := a.seen(); len(got) != 4 {
		t.Errorf("requests %v: /p2 and /p3 fetched again", got)
	}
}
