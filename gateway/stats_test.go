package gateway

import (
	"log/slog"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/trawler/trawler/urlfilter"
)

// TestStatsAndRecent: a scripted run of requests shows up exactly in the
// counters, in Recent (newest first) and in the log.
func TestStatsAndRecent(t *testing.T) {
	white := newOrigin(t, "127.0.0.2", text("w"))
	unknown := newOrigin(t, "127.0.0.3", text("u"))
	logs := &logRec{}
	g, addr := startGateway(t, Config{Logger: slog.New(logs)},
		newFilter(t, "white 127.0.0.2", "black bad.example gambling"), &recBackend{})
	c := proxyClient(t, addr, "")
	get(t, c, white.URL+"/1")
	get(t, c, "http://bad.example/2")
	get(t, c, unknown.URL+"/3")
	raw(t, addr, "CONNECT bad.example:443 HTTP/1.1\r\nHost: x\r\n\r\n")
	raw(t, addr, "CONNECT foo HTTP/1.1\r\nHost: x\r\n\r\n")

	s := g.Stats()
	want := Stats{Since: s.Since, Allowed: 2, Blocked: 2, Unknown: 1, Errors: 1, LookupsPerSec: s.LookupsPerSec}
	s.Enqueued, s.EnqueueDropped = 0, 0 // asynchronous
	if s != want {
		t.Errorf("Stats = %+v\nwant    %+v", s, want)
	}
	rec := g.Recent(10)
	if len(rec) != 5 {
		t.Fatalf("Recent(10) has %d decisions, want 5", len(rec))
	}
	for i, w := range []struct {
		method, target string
		action         Action
		list           urlfilter.List
		status         int
	}{
		{"CONNECT", "CONNECT foo", Block, urlfilter.None, 400},
		{"CONNECT", "bad.example:443", Block, urlfilter.Black, 403},
		{"GET", unknown.URL + "/3", Allow, urlfilter.None, 200},
		{"GET", "http://bad.example/2", Block, urlfilter.Black, 403},
		{"GET", white.URL + "/1", Allow, urlfilter.White, 200},
	} {
		d := rec[i]
		if d.Method != w.method || !strings.Contains(d.Target, strings.TrimPrefix(w.target, "CONNECT ")) ||
			d.Action != w.action || d.Entry.List != w.list || d.Status != w.status ||
			d.Client != netip.MustParseAddr("127.0.0.1") || d.At.IsZero() || d.Duration <= 0 {
			t.Errorf("Recent[%d] = %+v, want %+v", i, d, w)
		}
	}
	if rec[1].Entry.Category != "gambling" || rec[1].Entry.Value != "bad.example" {
		t.Errorf("CONNECT decision entry = %+v", rec[1].Entry)
	}
	if got := g.Recent(2); len(got) != 2 || got[0] != rec[0] || got[1] != rec[1] {
		t.Errorf("Recent(2) = %+v", got)
	}
	lines := logs.find("gateway decision")
	if len(lines) != 5 {
		t.Fatalf("%d decisions logged, want 5: %q", len(lines), lines)
	}
	for _, want := range []string{"client=127.0.0.1", "method=GET", "url=http://bad.example/2", "decision=block",
		"entry=host bad.example", "category=gambling", "status=403", "duration="} {
		if !strings.Contains(lines[1], want) && !strings.Contains(lines[3], want) {
			t.Errorf("log lacks %q: %q", want, lines)
		}
	}
}

// TestLookupRate: LookupsPerSec averages the last complete seconds.
func TestLookupRate(t *testing.T) {
	start := time.Date(2025, 3, 3, 9, 0, 0, 0, time.UTC)
	clk := newClock(start)
	g := newTestGateway(t, Config{Now: clk.now, Unknown: Block}, newFilter(t), &recBackend{})
	decide := func(n int) {
		for range n {
			g.lookup(netip.MustParseAddr("127.0.0.1"), "example.com", true)
		}
	}
	decide(10) // second 0
	clk.set(start.Add(time.Second))
	decide(30) // second 1
	clk.set(start.Add(2 * time.Second))
	if r := g.Stats().LookupsPerSec; r != 20 {
		t.Errorf("after 2s: %v lookups/s, want 20", r)
	}
	clk.set(start.Add(6 * time.Second))
	if r := g.Stats().LookupsPerSec; r != 30.0/5 {
		t.Errorf("after 6s: %v lookups/s, want 6 (30 in the last 5 s)", r)
	}
	clk.set(start.Add(time.Minute))
	if r := g.Stats().LookupsPerSec; r != 0 {
		t.Errorf("a minute on: %v lookups/s, want 0", r)
	}
}

func TestRing(t *testing.T) {
	r := newRing(3)
	if got := r.latest(5); len(got) != 0 {
		t.Errorf("empty ring: %v", got)
	}
	for i := range 5 {
		r.add(Decision{Status: i})
	}
	got := r.latest(10)
	if len(got) != 3 || got[0].Status != 4 || got[1].Status != 3 || got[2].Status != 2 {
		t.Errorf("latest = %+v", got)
	}
	if got := r.latest(-1); len(got) != 0 {
		t.Errorf("latest(-1) = %v", got)
	}
}

// TestQueueDrops: a backend that does not keep up costs dropped URLs,
// counted, never a waiting request; a URL already waiting is not queued
// twice.
func TestQueueDrops(t *testing.T) {
	b := &recBackend{block: make(chan struct{})}
	g, addr := startGateway(t, Config{QueueSize: 2}, newFilter(t), b)
	o := newOrigin(t, "127.0.0.1", text("ok"))
	c := proxyClient(t, addr, "")
	// The worker takes /0 and waits in Enqueue; /1 and /2 fill the queue;
	// /1 again is already waiting; /3 and /4 are dropped.
	get(t, c, o.URL+"/0")
	waitFor(t, "the worker to take the first URL", func() bool { return len(g.queue.ch) == 0 })
	for _, p := range []string{"/1", "/2", "/1", "/3", "/4"} {
		start := time.Now()
		if status, _ := get(t, c, o.URL+p); status != 200 {
			t.Fatalf("GET %s: %d", p, status)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("GET %s waited %v on the queue", p, d)
		}
	}
	if s := g.Stats(); s.EnqueueDropped != 2 {
		t.Errorf("EnqueueDropped = %d, want 2", s.EnqueueDropped)
	}
	close(b.block)
	b.waitEnqueued(t, o.URL+"/2")
	if got := b.enqueuedURLs(); len(got) != 3 {
		t.Errorf("enqueued %q, want /0 /1 /2", got)
	}
}
