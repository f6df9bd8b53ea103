package crawl_test

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/testsite"
)

// TestResumedRunCarriesTotals stops a crawl part-way and resumes it: the
// resumed run's Elapsed, Bytes and per-depth counts go on from the first
// run's, and each run's average rate stays at or below its peak.
func TestResumedRunCarriesTotals(t *testing.T) {
	srv := httptest.NewServer(&testsite.Site{Pages: 300, OutDegree: 4, Latency: 10 * time.Millisecond})
	defer srv.Close()
	cfg := config(srv.URL + "/")
	cfg.Depth = 30
	cfg.Threads = 2
	h := newHarness(t, cfg)
	e, err := crawl.New(h.cfg, h.db.Crawl(h.id))
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for e.Progress().Done < 60 {
			time.Sleep(5 * time.Millisecond)
		}
		e.Stop()
	}()
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	first := e.Progress()
	if first.State != crawl.StateStopped || first.Done >= 300 {
		t.Fatalf("first run: %s with %d done; want stopped part-way", first.State, first.Done)
	}
	second := h.run()
	sum := func(p crawl.Progress) (n int64) {
		for _, c := range p.ByDepth {
			n += c
		}
		return n
	}
	if second.Done != 300 || sum(second) != 300 {
		t.Errorf("after the resume: %d done, %d by depth; want 300 both", second.Done, sum(second))
	}
	if second.Elapsed <= first.Elapsed || second.Bytes <= first.Bytes {
		t.Errorf("resumed elapsed %v bytes %d; want more than the first run's %v and %d",
			second.Elapsed, second.Bytes, first.Elapsed, first.Bytes)
	}
	for i, p := range []crawl.Progress{first, second} {
		if p.Average <= 0 || p.Average > p.Peak {
			t.Errorf("run %d: average %.1f, peak %.1f; want 0 < average <= peak", i+1, p.Average, p.Peak)
		}
	}
}
