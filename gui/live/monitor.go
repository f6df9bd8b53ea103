// Package live turns a running engine into updates for the window's Live
// crawl screen: a Monitor polls the engine's Progress and Events and hands
// over one batched Update at most ten times a second (a Throttle with an
// injected clock decides), and Stats, History and Log say what to show.
// It knows no widgets: the window passes fyne.Do as the Monitor's Do.
package live

import (
	"context"
	"sort"
	"sync/atomic"
	"time"

	"github.com/trawler/trawler/crawl"
)

// Interval is the shortest time between two updates handed to the window.
const Interval = 100 * time.Millisecond

// Throttle lets an action through at most once per interval, timed by the
// clock it is given, so tests drive it without waiting.
type Throttle struct {
	now   func() time.Time
	every time.Duration
	last  time.Time
	used  bool
}

// NewThrottle returns a Throttle letting one action through per every,
// reading the time from now (time.Now when nil).
func NewThrottle(every time.Duration, now func() time.Time) *Throttle {
	if now == nil {
		now = time.Now
	}
	return &Throttle{now: now, every: every}
}

// Allow reports whether the action may happen now and, if so, counts it.
func (t *Throttle) Allow() bool {
	now := t.now()
	if t.used && now.Sub(t.last) < t.every {
		return false
	}
	t.last, t.used = now, true
	return true
}

// Source is what the Monitor reads: *crawl.Engine satisfies it.
type Source interface {
	Progress() crawl.Progress
	Events(after uint64) []crawl.Event
}

// HostSource is what a Source also satisfies when it can say how each
// host's queue stands (*crawl.Engine does); the Monitor then adds the
// hosts to every update.
type HostSource interface {
	Hosts() []crawl.HostStatus
}

// Update is one batch of news for the window.
type Update struct {
	Progress crawl.Progress
	Events   []crawl.Event      // new since the previous update, oldest first
	Rates    []float64          // pages/s, one sample per second, oldest first
	Hosts    []crawl.HostStatus // busiest first; nil when the Source is no HostSource
	Final    bool               // the crawl has ended; no update follows
}

// Options configure a Monitor. Do runs a function on the UI goroutine
// (fyne.Do in the window); Apply receives each update there.
type Options struct {
	Do    func(func())
	Apply func(Update)
	Now   func() time.Time // time.Now when nil
	Every time.Duration    // Interval when 0
}

// maxPending bounds the events kept between two updates; the log shows
// the most recent ones anyway.
const maxPending = 1000

// Monitor gathers news from a Source and hands it to the window in
// batches. Poll and Run are for one goroutine; Apply runs on the UI one.
type Monitor struct {
	src      Source
	opts     Options
	throttle *Throttle
	history  *History
	lastSeq  uint64
	pending  []crawl.Event
	queued   atomic.Bool // an update is with Do and has not been applied yet
	handed   atomic.Int64
}

// NewMonitor returns a Monitor of src.
func NewMonitor(src Source, opts Options) *Monitor {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Every == 0 {
		opts.Every = Interval
	}
	return &Monitor{
		src:      src,
		opts:     opts,
		throttle: NewThrottle(opts.Every, opts.Now),
		history:  NewHistory(HistoryLen, time.Second),
	}
}

// Poll reads the source and, when the throttle allows and the previous
// update has been applied, hands one update over; it reports whether it
// did. Events read while an update is held back wait for the next one.
func (m *Monitor) Poll() bool {
	p := m.gather()
	if m.queued.Load() || !m.throttle.Allow() {
		return false
	}
	m.hand(Update{Progress: p, Events: m.takeEvents(), Rates: m.history.Values(), Hosts: m.hosts()})
	return true
}

// Finish hands over the last update, whatever the throttle says.
func (m *Monitor) Finish() {
	p := m.gather()
	m.hand(Update{Progress: p, Events: m.takeEvents(), Rates: m.history.Values(), Hosts: m.hosts(), Final: true})
}

// hosts reads the per-host view, busiest first (waiting and in flight),
// then by name, so the window need not sort on its goroutine.
func (m *Monitor) hosts() []crawl.HostStatus {
	hs, ok := m.src.(HostSource)
	if !ok {
		return nil
	}
	list := hs.Hosts()
	sort.Slice(list, func(i, j int) bool {
		a, b := list[i], list[j]
		if wa, wb := a.Waiting+a.InFlight, b.Waiting+b.InFlight; wa != wb {
			return wa > wb
		}
		return a.Host < b.Host
	})
	return list
}

// Handed returns how many updates have been handed to Do.
func (m *Monitor) Handed() int64 { return m.handed.Load() }

func (m *Monitor) gather() crawl.Progress {
	p := m.src.Progress()
	m.history.Add(m.opts.Now(), p.PagesPerSec)
	evs := m.src.Events(m.lastSeq)
	if len(evs) > 0 {
		m.lastSeq = evs[len(evs)-1].Seq
		m.pending = append(m.pending, evs...)
		if over := len(m.pending) - maxPending; over > 0 {
			m.pending = append(m.pending[:0], m.pending[over:]...)
		}
	}
	return p
}

func (m *Monitor) takeEvents() []crawl.Event {
	evs := m.pending
	m.pending = nil
	return evs
}

func (m *Monitor) hand(u Update) {
	m.queued.Store(true)
	m.handed.Add(1)
	m.opts.Do(func() {
		m.queued.Store(false)
		m.opts.Apply(u)
	})
}

// Run polls on every tick until done is closed (the crawl ended) or ctx
// ends, then hands over the final update (only when done closed).
func (m *Monitor) Run(ctx context.Context, tick <-chan time.Time, done <-chan struct{}) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-done:
			m.Finish()
			return
		case <-tick:
			m.Poll()
		}
	}
}
