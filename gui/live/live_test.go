package live

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/trawler/trawler/crawl"
)

// clock is a fake time source moved by hand.
type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }

func newClock() *clock { return &clock{t: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)} }

func TestThrottle(t *testing.T) {
	c := newClock()
	th := NewThrottle(100*time.Millisecond, c.now)
	steps := []struct {
		advance time.Duration
		want    bool
	}{
		{0, true}, {0, false}, {50 * time.Millisecond, false}, {49 * time.Millisecond, false},
		{time.Millisecond, true}, {99 * time.Millisecond, false}, {time.Second, true}, {100 * time.Millisecond, true},
	}
	for i, s := range steps {
		c.advance(s.advance)
		if got := th.Allow(); got != s.want {
			t.Errorf("step %d (+%v): Allow = %v, want %v", i, s.advance, got, s.want)
		}
	}
}

// fakeSource counts up by one page and one event per Progress call.
type fakeSource struct {
	mu     sync.Mutex
	n      int64
	events []crawl.Event
}

func (f *fakeSource) Progress() crawl.Progress {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n++
	f.events = append(f.events, crawl.Event{Seq: uint64(f.n), URL: "http://a.test/" + string(rune('a'+f.n%26))})
	return crawl.Progress{State: crawl.StateRunning, Done: f.n, Waiting: 1000 - f.n, PagesPerSec: float64(f.n)}
}

func (f *fakeSource) Events(after uint64) []crawl.Event {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []crawl.Event
	for _, ev := range f.events {
		if ev.Seq > after {
			out = append(out, ev)
		}
	}
	return out
}

// TestMonitorThrottlesToTenPerSecond polls every 10 ms of fake time for
// ten seconds: 1,000 polls must give 100 updates, and every event must
// reach the window once, in order.
func TestMonitorThrottlesToTenPerSecond(t *testing.T) {
	c := newClock()
	src := &fakeSource{}
	var applied []Update
	m := NewMonitor(src, Options{Do: func(f func()) { f() }, Apply: func(u Update) { applied = append(applied, u) }, Now: c.now})
	for range 1000 {
		m.Poll()
		c.advance(10 * time.Millisecond)
	}
	m.Finish()
	if got := len(applied); got != 101 {
		t.Fatalf("%d updates in 10 s of polling every 10 ms, want 100 and the final one", got)
	}
	var seqs []uint64
	for _, u := range applied {
		for _, ev := range u.Events {
			seqs = append(seqs, ev.Seq)
		}
	}
	if len(seqs) != 1001 {
		t.Fatalf("%d events reached the window, want 1001", len(seqs))
	}
	for i, s := range seqs {
		if s != uint64(i+1) {
			t.Fatalf("event %d has seq %d: lost or repeated", i, s)
		}
	}
	last := applied[len(applied)-1]
	if !last.Final || last.Progress.Done != 1001 {
		t.Errorf("final update %+v", last.Progress)
	}
	if n := len(last.Rates); n != 11 {
		t.Errorf("%d rate samples over 10 s, want one per second (11)", n)
	}
}

// TestMonitorWaitsForTheUI holds updates in a queue, as a busy UI
// goroutine would: no second update is handed over before the first ran.
func TestMonitorWaitsForTheUI(t *testing.T) {
	c := newClock()
	var queue []func()
	applied := 0
	m := NewMonitor(&fakeSource{}, Options{Do: func(f func()) { queue = append(queue, f) }, Apply: func(Update) { applied++ }, Now: c.now})
	for range 50 {
		m.Poll()
		c.advance(time.Second)
	}
	if len(queue) != 1 || m.Handed() != 1 {
		t.Fatalf("%d updates queued while the UI was busy, want 1", len(queue))
	}
	queue[0]()
	queue = queue[1:]
	c.advance(time.Second)
	if !m.Poll() || len(queue) != 1 {
		t.Fatal("no update after the UI caught up")
	}
	queue[0]()
	if applied != 2 {
		t.Errorf("applied %d", applied)
	}
}

func TestMonitorRunEndsWithFinal(t *testing.T) {
	tick := make(chan time.Time)
	done := make(chan struct{})
	var mu sync.Mutex
	var got []Update
	m := NewMonitor(&fakeSource{}, Options{Do: func(f func()) { f() }, Apply: func(u Update) {
		mu.Lock()
		got = append(got, u)
		mu.Unlock()
	}})
	finished := make(chan struct{})
	go func() { m.Run(context.Background(), tick, done); close(finished) }()
	tick <- time.Now()
	close(done)
	<-finished
	if len(got) != 2 || !got[1].Final || got[0].Final {
		t.Fatalf("updates %+v", got)
	}
}

func TestHistory(t *testing.T) {
	c := newClock()
	h := NewHistory(3, time.Second)
	for i := range 10 {
		h.Add(c.now(), float64(i))
		c.advance(400 * time.Millisecond)
	}
	// samples at 0, 1.2, 2.4, 3.6 s: values 0, 3, 6, 9; the last three kept
	if got := h.Values(); len(got) != 3 || got[0] != 3 || got[2] != 9 {
		t.Errorf("values %v", got)
	}
}

func TestPresentAndETA(t *testing.T) {
	tests := []struct {
		name string
		p    crawl.Progress
		want Stats
	}{
		{"running", crawl.Progress{State: crawl.StateRunning, Done: 1200, Errors: 30, Waiting: 3600, Processing: 10,
			Skipped: 1234, PagesPerSec: 41, Peak: 50, Bytes: 3 << 20, Elapsed: 95 * time.Second},
			Stats{State: "Running", Done: "1,200", Errors: "30", Waiting: "3,600", Processing: "10", Skipped: "1,234", Rate: "41.0 pages/s, peak 50.0",
				Bytes: "3.0 MiB", Elapsed: "1:35", Left: "about 1:28", Progress: "1,230 of 4,840 URLs (25%)"}},
		{"capped", crawl.Progress{State: crawl.StateRunning, Done: 50, Waiting: 900, MaxPages: 100, PagesPerSec: 10, Peak: 10},
			Stats{Skipped: "0", State: "Running", Done: "50", Errors: "0", Waiting: "900", Processing: "0", Rate: "10.0 pages/s, peak 10.0",
				Bytes: "0 B", Elapsed: "0:00", Left: "about 0:05", Progress: "50 of 100 URLs (50%)"}},
		{"no rate yet", crawl.Progress{State: crawl.StateRunning, Waiting: 1},
			Stats{Skipped: "0", State: "Running", Done: "0", Errors: "0", Waiting: "1", Processing: "0", Rate: "0.0 pages/s, peak 0.0",
				Bytes: "0 B", Elapsed: "0:00", Left: "estimating…", Progress: "0 of 1 URLs (0%)"}},
		{"stopped", crawl.Progress{State: crawl.StateStopped, Done: 90, Errors: 10, Waiting: 5, Elapsed: 20 * time.Second,
			Average: 5, Peak: 7.5},
			Stats{Skipped: "0", State: "Stopped", Done: "90", Errors: "10", Waiting: "5", Processing: "0", Rate: "5.0 pages/s average, peak 7.5",
				Bytes: "0 B", Elapsed: "0:20", Left: "—", Progress: "100 of 105 URLs (95%)"}},
		{"done", crawl.Progress{State: crawl.StateDone, Done: 7, Elapsed: 2 * time.Hour},
			Stats{Skipped: "0", State: "Finished", Done: "7", Errors: "0", Waiting: "0", Processing: "0", Rate: "0.0 pages/s average, peak 0.0",
				Bytes: "0 B", Elapsed: "2:00:00", Left: "—", Progress: "7 of 7 URLs (100%)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Present(tt.p)
			got.Fraction = 0
			if got != tt.want {
				t.Errorf("Present =\n %+v\nwant\n %+v", got, tt.want)
			}
		})
	}
}

func TestLogFilter(t *testing.T) {
	var l Log
	var evs []crawl.Event
	for i := range LogLen + 10 {
		evs = append(evs, crawl.Event{Seq: uint64(i + 1), Level: crawl.Level(i % 3)})
	}
	l.Add(evs)
	if n := len(l.Lines()); n != LogLen {
		t.Fatalf("kept %d, want %d", n, LogLen)
	}
	if first := l.Lines()[0].Seq; first != 11 {
		t.Errorf("oldest kept seq %d, want 11", first)
	}
	l.SetLevel(LevelOf("Errors only"))
	for _, ev := range l.Lines() {
		if ev.Level != crawl.LevelError {
			t.Fatalf("error filter let through %v", ev.Level)
		}
	}
	if n := len(l.Lines()); n < LogLen/3-1 || n > LogLen/3+1 {
		t.Errorf("%d errors shown", n)
	}
	l.SetLevel(LevelOf("Warnings and errors"))
	if strings.Join(LevelNames, ",") == "" || len(l.Lines()) < 2*LogLen/3-1 {
		t.Errorf("%d warnings and errors shown", len(l.Lines()))
	}
	l.Clear()
	if len(l.Lines()) != 0 {
		t.Error("Clear left lines")
	}
}

// hostSource is a fakeSource that also reports hosts.
type hostSource struct {
	fakeSource
	hosts []crawl.HostStatus
}

func (h *hostSource) Hosts() []crawl.HostStatus { return append([]crawl.HostStatus(nil), h.hosts...) }

func TestMonitorAddsHostsBusiestFirst(t *testing.T) {
	src := &hostSource{hosts: []crawl.HostStatus{
		{Host: "b.test", Waiting: 1}, {Host: "c.test", Waiting: 2, InFlight: 1}, {Host: "a.test", Waiting: 1},
	}}
	var got []Update
	m := NewMonitor(src, Options{Do: func(f func()) { f() }, Apply: func(u Update) { got = append(got, u) }})
	m.Poll()
	m.Finish()
	if len(got) != 2 {
		t.Fatalf("%d updates", len(got))
	}
	for _, u := range got {
		var names []string
		for _, h := range u.Hosts {
			names = append(names, h.Host)
		}
		if strings.Join(names, " ") != "c.test a.test b.test" {
			t.Errorf("hosts in order %q", names)
		}
	}
	m = NewMonitor(&fakeSource{}, Options{Do: func(f func()) { f() }, Apply: func(u Update) {
		if u.Hosts != nil {
			t.Errorf("hosts %v from a source without them", u.Hosts)
		}
	}})
	m.Finish()
}
