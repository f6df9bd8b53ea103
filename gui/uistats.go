package gui

import (
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
)

// uiStats measures how long functions handed to the UI goroutine wait
// before they run, and how long they run: the window's responsiveness.
// Run turns it on with TRAWLER_UI_STATS=1 and writes a summary to stderr
// when the window closes. A heartbeat also hands an empty function over
// every 50 ms, so the wait is sampled whether or not the window has news.
// Samples taken while a crawl runs are kept apart from the others (start-up
// included).
type uiStats struct {
	next func(func())

	mu       sync.Mutex
	crawling bool
	buckets  [2]waits // [0] no crawl running, [1] a crawl running
}

type waits struct {
	calls, beats    int
	maxWait, maxRun time.Duration
	slowest         string // who handed over the longest-running function
	sumWait         time.Duration
	beatWaits       []time.Duration
}

func newUIStats(next func(func())) *uiStats { return &uiStats{next: next} }

func (s *uiStats) bucket() *waits {
	if s.crawling {
		return &s.buckets[1]
	}
	return &s.buckets[0]
}

// setCrawling says whether a crawl runs from now on.
func (s *uiStats) setCrawling(on bool) {
	s.mu.Lock()
	s.crawling = on
	s.mu.Unlock()
}

// do hands f to the UI goroutine, timing it.
func (s *uiStats) do(f func()) {
	queued := time.Now()
	from := caller()
	s.next(func() {
		start := time.Now()
		f()
		ran := time.Since(start)
		wait := start.Sub(queued)
		s.mu.Lock()
		b := s.bucket()
		b.calls++
		b.sumWait += wait
		b.maxWait = max(b.maxWait, wait)
		if ran > b.maxRun {
			b.maxRun, b.slowest = ran, from
		}
		s.mu.Unlock()
	})
}

// heartbeat hands an empty function to the UI goroutine every 50 ms until
// the returned function is called.
func (s *uiStats) heartbeat() (stop func()) {
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				sent := time.Now()
				s.next(func() {
					wait := time.Since(sent)
					s.mu.Lock()
					b := s.bucket()
					b.beats++
					b.beatWaits = append(b.beatWaits, wait)
					s.mu.Unlock()
				})
			}
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { close(done) }) }
}

// report writes the summary, one line per bucket.
func (s *uiStats) report(w io.Writer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, name := range []string{"no crawl running (start-up included)", "during crawls"} {
		b := s.buckets[i]
		mean := time.Duration(0)
		if b.calls > 0 {
			mean = b.sumWait / time.Duration(b.calls)
		}
		r := func(d time.Duration) time.Duration { return d.Round(time.Microsecond) }
		fmt.Fprintf(w, "trawler ui-stats, %s: %d UI callbacks, longest wait %v, mean wait %v, longest run %v (from %s); "+
			"%d heartbeats, wait median %v, 99th percentile %v, longest %v\n",
			name, b.calls, r(b.maxWait), r(mean), r(b.maxRun), b.slowest, b.beats,
			r(percentile(b.beatWaits, 50)), r(percentile(b.beatWaits, 99)), r(percentile(b.beatWaits, 100)))
	}
}

// percentile returns the p-th percentile of ds (0 for none).
func percentile(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := (len(s)*p + 99) / 100
	return s[min(len(s)-1, max(0, i-1))]
}

// caller names the function that handed work to the UI goroutine, past
// the helpers that pass it on.
func caller() string {
	pcs := make([]uintptr, 8)
	n := runtime.Callers(3, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	for {
		f, more := frames.Next()
		name := f.Function[strings.LastIndexByte(f.Function, '/')+1:]
		if !strings.Contains(name, "background") && !strings.Contains(name, ".(*UI).do") && !strings.Contains(name, "Monitor).hand") {
			return name
		}
		if !more {
			return name
		}
	}
}
