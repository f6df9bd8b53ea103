package crawl

import (
	"sync"
	"time"
)

// RunState is where an engine stands in its lifecycle.
type RunState string

// Engine lifecycle states. Done means the crawl ran out of URLs or reached
// its page cap; Stopped means Stop or a cancelled context ended it early
// (it can be resumed); Failed means the store could not be written.
const (
	StateIdle     RunState = "idle"
	StateRunning  RunState = "running"
	StatePaused   RunState = "paused"
	StateStopping RunState = "stopping"
	StateDone     RunState = "done"
	StateStopped  RunState = "stopped"
	StateFailed   RunState = "failed"
)

// Progress is a snapshot of a running crawl, cheap enough to take ten
// times a second from the window.
type Progress struct {
	State RunState

	// The four queues of paper 004. Processing counts URLs being fetched
	// and those fetched whose batch is not committed yet, so it can exceed
	// the number of workers: a URL is done only once it is stored.
	Waiting, Processing, Done, Errors int64

	// Skipped counts URLs found and deliberately not fetched, each once,
	// with their reasons in the store (robots.txt, scope, depth, …).
	Skipped int64

	// Urgent counts the URLs this run took from the priority lane (see
	// Store.ClaimUrgent): those the URL filter's gateway asked to judge.
	Urgent int64

	// RunFetched counts the URLs this run fetched, successfully or not:
	// Fetched less what earlier runs (or, for a robot, the others before
	// it joined) had fetched.
	RunFetched int64

	// Workers is how many workers run now (Config.Threads, or SetThreads;
	// a retired one counts until its fetches in flight end).
	Workers int

	// Scored counts the pages this run judged by the crawl's word lists
	// (Config.WordLists), and Black those judged black.
	Scored, Black int64

	// The figures below cover the crawl's current cycle, earlier runs
	// (before a stop and a resume) included.
	ByDepth  []int64       // fetched URLs per depth, done and error together
	ByStatus [6]int64      // fetched URLs per status class: [0] no response, [1..5] 1xx..5xx
	Bytes    int64         // body bytes read
	Elapsed  time.Duration // time spent crawling

	// Rates are this run's: fetched URLs per second over the last
	// RateWindow, the highest such rate so far, and the average since the
	// run began. Average never exceeds Peak.
	PagesPerSec, Peak, Average float64
	ActiveHosts                int // hosts a worker is serving now
	MaxPages                   int // the page cap, 0 for none
}

// RateWindow is the span over which Progress.PagesPerSec is measured.
const RateWindow = 5 * time.Second

// Fetched returns how many URLs have been fetched, successfully or not.
func (p Progress) Fetched() int64 { return p.Done + p.Errors }

// Fraction returns how far the crawl has come, in [0,1]: fetched URLs
// against all known ones, or against the page cap when that is nearer.
func (p Progress) Fraction() float64 {
	total := p.Done + p.Errors + p.Waiting + p.Processing
	if p.MaxPages > 0 && int64(p.MaxPages) < total {
		total = int64(p.MaxPages)
	}
	if total <= 0 {
		return 0
	}
	return min(1, float64(p.Fetched())/float64(total))
}

// meter keeps the fetched count over time for the pages/s figure.
type meter struct {
	mu      sync.Mutex
	samples []sample // oldest first, at most one per 100 ms
}

type sample struct {
	at    time.Time
	total int64
}

func (m *meter) add(at time.Time, total int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if n := len(m.samples); n > 0 && at.Sub(m.samples[n-1].at) < 100*time.Millisecond {
		m.samples[n-1].total = total
		return
	}
	m.samples = append(m.samples, sample{at, total})
	cut := 0
	for cut < len(m.samples)-1 && at.Sub(m.samples[cut+1].at) >= RateWindow {
		cut++
	}
	m.samples = append(m.samples[:0], m.samples[cut:]...)
}

// rate returns fetched URLs per second between the oldest sample in the
// window and now.
func (m *meter) rate(now time.Time, total int64) float64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.samples) == 0 {
		return 0
	}
	first := m.samples[0]
	span := now.Sub(first.at).Seconds()
	if span < 0.2 {
		return 0
	}
	return float64(total-first.total) / span
}

// Progress returns a snapshot of the crawl.
func (e *Engine) Progress() Progress {
	now := time.Now()
	e.mu.Lock()
	p := Progress{
		State:    e.state,
		ByDepth:  append([]int64(nil), e.byDepth...),
		ByStatus: e.byStatus,
		MaxPages: e.cfg.MaxPages,
	}
	ended := e.ended
	var run time.Duration
	switch {
	case e.started.IsZero():
	case ended.IsZero():
		run = now.Sub(e.started)
	default:
		run = ended.Sub(e.started)
	}
	p.Elapsed = e.before + run
	e.mu.Unlock()
	p.Done = e.done.Load()
	p.Errors = e.errs.Load()
	p.Skipped = e.skipped.Load()
	p.Processing = e.processing.Load()
	p.Urgent = e.urgent.Load()
	p.Workers = int(e.pool.alive.Load())
	p.Scored, p.Black = e.scored.Load(), e.black.Load()
	p.Waiting = int64(e.front.Len()) + e.spilled.Load() + e.parked.Load() + e.inHand.Load()
	p.Bytes = e.bytes.Load()
	p.ActiveHosts = e.front.ActiveHosts()
	fetched := p.Done + p.Errors - e.fetchedBefore
	p.RunFetched = max(fetched, 0)
	if run > 0 {
		p.Average = float64(max(fetched, 0)) / run.Seconds()
	}
	e.mu.Lock()
	if ended.IsZero() {
		p.PagesPerSec = e.meter.rate(now, p.Done+p.Errors)
		e.peak = max(e.peak, p.PagesPerSec)
	}
	// A run shorter than the rate window, or one that ends on a burst,
	// has an average no window saw: it is a rate the run reached too.
	e.peak = max(e.peak, p.Average)
	p.Peak = e.peak
	e.mu.Unlock()
	return p
}
