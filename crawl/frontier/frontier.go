// Package frontier is the crawler's pool of URL queues (paper 000 §1.1) and
// its pick order (paper 004): every host owns up to PerHost queues, URLs are
// dealt to a host's queues in turn, and a queue is worked by one
// worker at a time. Queues that have URLs and no worker wait in a FIFO pool;
// a worker takes one with Next, works a small batch of its URLs and hands it
// back with Return, so no worker sits idle behind a host that must wait.
//
// Within a queue, URLs are kept in groups, one group per page that found
// them, in document order. Breadth-first picks from the oldest group,
// depth-first from the newest; mixed order takes each pick depth-first with
// probability Mix, from a random source seeded by Seed, so a run with one
// worker is reproducible.
package frontier

import (
	"container/heap"
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"time"
)

// Order names the pick order; the values match the engine's strategies.
type Order string

// Pick orders.
const (
	BFS   Order = "bfs"
	DFS   Order = "dfs"
	Mixed Order = "mixed"
)

// ErrClosed is returned by Next once the frontier is closed.
var ErrClosed = errors.New("frontier closed")

// Config sets the frontier's shape. Zero values mean: PerHost 1, Batch 4,
// order BFS.
type Config struct {
	Order   Order
	Mix     float64       // share of depth-first picks in Mixed order, in [0,1]
	Seed    uint64        // seeds the Mixed order's random source
	PerHost int           // queues (and so concurrent workers) per host
	Batch   int           // most URLs a worker takes from a queue at once
	Delay   time.Duration // minimum time between two takes from one host, unless SetDelay says otherwise
	// Now returns the current time; nil means time.Now. Tests inject a clock.
	Now func() time.Time
}

// Entry is one waiting URL: the engine's value plus what the frontier needs.
type Entry[T any] struct {
	Value T
	FP    uint64
	Depth int
}

// Lease is a queue in a worker's hands with the batch taken from it. The
// worker must hand it back with Return when the batch is worked.
type Lease[T any] struct {
	Host    string
	Entries []Entry[T]
	q       *queue[T]
}

// Frontier is safe for concurrent use.
type Frontier[T any] struct {
	cfg Config
	rnd *rand.Rand

	mu      sync.Mutex
	cond    *sync.Cond
	hosts   map[string]*host[T]
	index   map[uint64]*entry[T] // waiting entries by fingerprint
	pool    fifo[T]              // ready queues: URLs, no worker, host allowed now
	timed   timedHeap[T]         // queues whose host must wait until a time
	timer   *time.Timer
	pushes  uint64 // Push calls so far, to open one group per queue per Push
	waiting int    // entries in all queues
	leased  int    // queues in workers' hands
	active  int    // hosts with at least one queue in workers' hands
	closed  bool
	changed chan struct{} // signalled (non-blocking) when waiting or leased drop
}

type host[T any] struct {
	name      string
	queues    []*queue[T]
	notBefore time.Time     // no request to this host before this time
	delay     time.Duration // minimum gap between requests
	busy      int           // its queues in workers' hands
	limit     int           // most queues in workers' hands at once (SetPerHost)
	parked    []*queue[T]   // queues with URLs kept back while the host is full
	turn      int           // the queue the next URL goes to, mod len(queues)
}

type entry[T any] struct {
	Entry[T]
	taken bool
	dead  bool // moved to the priority lane: its place in a group is skipped
}

// New returns an empty frontier.
func New[T any](cfg Config) *Frontier[T] {
	if cfg.PerHost < 1 {
		cfg.PerHost = 1
	}
	if cfg.Batch < 1 {
		cfg.Batch = 4
	}
	if cfg.Order == "" {
		cfg.Order = BFS
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	f := &Frontier[T]{
		cfg:     cfg,
		rnd:     rand.New(rand.NewPCG(cfg.Seed, 0x7261776c6572)),
		hosts:   make(map[string]*host[T]),
		index:   make(map[uint64]*entry[T]),
		changed: make(chan struct{}, 1),
	}
	f.cond = sync.NewCond(&f.mu)
	return f
}

// Push adds the URLs one page found (or a set of seeds), in document order,
// to the queues of their host. hostOf names each entry's host.
func (f *Frontier[T]) Push(entries []Entry[T], hostOf func(T) string) {
	if len(entries) == 0 {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return
	}
	var touched []*queue[T] // in first-touch order, so the pool order is reproducible
	for _, e := range entries {
		q := f.queueOf(e, hostOf)
		if q.pushes != f.pushes+1 {
			q.newGroup()
			q.pushes = f.pushes + 1
			touched = append(touched, q)
		}
		ent := &entry[T]{Entry: e}
		q.push(ent)
		f.index[e.FP] = ent
		f.waiting++
	}
	f.pushes++
	for _, q := range touched {
		f.offer(q)
	}
	f.cond.Broadcast()
}

// Lower gives a waiting URL a smaller depth when it is met again closer to
// a seed. It reports whether the URL is waiting in the frontier.
func (f *Frontier[T]) Lower(fp uint64, depth int) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	e, ok := f.index[fp]
	if !ok {
		return false
	}
	if depth < e.Depth {
		e.Depth = depth
	}
	return true
}

// SetDelay sets the minimum time between two requests to a host, counted
// from the next time a worker takes one of its queues.
func (f *Frontier[T]) SetDelay(hostName string, d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.host(hostName).delay = d
}

// Defer keeps a host's queues out of workers' hands until t (a server asked
// to wait, or its robots.txt could not be read yet).
func (f *Frontier[T]) Defer(hostName string, t time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.deferHost(f.host(hostName), t)
}

func (f *Frontier[T]) deferHost(h *host[T], t time.Time) {
	if t.After(h.notBefore) {
		h.notBefore = t
	}
	for _, q := range h.queues {
		if q.state == inPool {
			f.pool.remove(q)
			q.state = idle
			f.offer(q)
		}
	}
}

// full reports whether a host may take no more requests now: as many of
// its queues as its limit allows are in workers' hands, or it has a delay
// and one request under way. A delay (the user's, or robots.txt's
// Crawl-delay) means one request at a time whatever the per-host limit:
// the next begins the delay after the last one ended, not after it began,
// so a slow answer never brings two requests closer than the delay.
func (h *host[T]) full() bool {
	return h.busy >= h.limit || h.delay > 0 && h.busy > 0
}

func (f *Frontier[T]) host(name string) *host[T] {
	h, ok := f.hosts[name]
	if !ok {
		h = &host[T]{name: name, queues: make([]*queue[T], f.cfg.PerHost), delay: f.cfg.Delay, limit: f.cfg.PerHost}
		for i := range h.queues {
			h.queues[i] = &queue[T]{host: h}
		}
		f.hosts[name] = h
	}
	return h
}

// Next blocks until a queue is ready and no other worker holds it, then
// takes a batch from it. It returns ErrClosed after Close and ctx's error
// when ctx ends.
func (f *Frontier[T]) Next(ctx context.Context) (*Lease[T], error) {
	stop := context.AfterFunc(ctx, func() {
		f.mu.Lock()
		f.cond.Broadcast()
		f.mu.Unlock()
	})
	defer stop()
	f.mu.Lock()
	defer f.mu.Unlock()
	for {
		if f.closed {
			return nil, ErrClosed
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if q := f.pool.pop(); q != nil {
			if q.host.full() { // the limit was lowered, or a request began, while it waited
				q.state = idle
				f.park(q)
				continue
			}
			return f.take(q), nil
		}
		f.cond.Wait()
	}
}

func (f *Frontier[T]) take(q *queue[T]) *Lease[T] {
	q.state = leased
	f.leased++
	h := q.host
	h.busy++
	if h.busy == 1 {
		f.active++
	}
	n := f.cfg.Batch
	if h.delay > 0 {
		n = 1
		h.notBefore = f.cfg.Now().Add(h.delay)
	}
	l := &Lease[T]{Host: h.name, q: q}
	for len(l.Entries) < n {
		e := q.pick(f.cfg.Order, f.cfg.Mix, f.rnd)
		if e == nil {
			break
		}
		if e.dead {
			continue
		}
		delete(f.index, e.FP)
		f.waiting--
		l.Entries = append(l.Entries, e.Entry)
	}
	if h.delay > 0 {
		f.deferHost(h, h.notBefore)
	}
	f.signal()
	return l
}

// Return hands a leased queue back; it joins the pool again if it still
// has URLs. A host with a delay waits it from now too: the gap between
// two requests is counted from the end of the first, so the server sees
// them at least the delay apart however long the first took to send
// (see host.full).
func (f *Frontier[T]) Return(l *Lease[T]) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if l.q.state != leased {
		return
	}
	l.q.state = idle
	f.leased--
	h := l.q.host
	if h.busy == 1 {
		f.active--
		h.busy = 0
	} else {
		h.busy--
	}
	if h.delay > 0 && !f.closed {
		f.deferHost(h, f.cfg.Now().Add(h.delay))
	}
	if !f.closed {
		f.offer(l.q)
		f.unpark(h)
	}
	f.signal()
}

// offer puts an idle queue with URLs into the pool, or on the timer heap
// when its host must wait.
func (f *Frontier[T]) offer(q *queue[T]) {
	if q.state != idle || q.empty() {
		return
	}
	if q.host.full() {
		f.park(q)
		return
	}
	if wait := q.host.notBefore; wait.After(f.cfg.Now()) {
		q.state = onTimer
		q.due = wait
		heap.Push(&f.timed, q)
		f.armTimer()
		return
	}
	q.state = inPool
	if len(q.urgent) > 0 {
		f.pool.pushFront(q)
	} else {
		f.pool.push(q)
	}
	f.cond.Signal()
}

// armTimer makes sure a timer fires when the earliest timed queue is due.
func (f *Frontier[T]) armTimer() {
	if len(f.timed) == 0 {
		return
	}
	d := f.timed[0].due.Sub(f.cfg.Now())
	if f.timer == nil {
		f.timer = time.AfterFunc(d, f.wake)
		return
	}
	f.timer.Reset(d)
}

// wake moves queues whose time has come from the heap to the pool.
func (f *Frontier[T]) wake() {
	f.mu.Lock()
	defer f.mu.Unlock()
	now := f.cfg.Now()
	for len(f.timed) > 0 && !f.timed[0].due.After(now) {
		q := heap.Pop(&f.timed).(*queue[T])
		q.state = idle
		f.offer(q)
	}
	f.armTimer()
	f.cond.Broadcast()
}

// Len returns how many URLs are waiting in the frontier.
func (f *Frontier[T]) Len() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.waiting
}

// Leased returns how many queues are in workers' hands.
func (f *Frontier[T]) Leased() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.leased
}

// ActiveHosts returns how many hosts a worker is serving now.
func (f *Frontier[T]) ActiveHosts() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.active
}

// Idle reports whether nothing is waiting and no queue is in a worker's hands.
func (f *Frontier[T]) Idle() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.waiting == 0 && f.leased == 0
}

// Changed is signalled whenever URLs leave the frontier or a queue comes
// back, so the engine can refill the frontier or notice the crawl is over.
func (f *Frontier[T]) Changed() <-chan struct{} { return f.changed }

func (f *Frontier[T]) signal() {
	select {
	case f.changed <- struct{}{}:
	default:
	}
}

// Close wakes every worker blocked in Next with ErrClosed and drops what is
// still waiting. Drain gives back what was waiting first.
func (f *Frontier[T]) Close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = true
	if f.timer != nil {
		f.timer.Stop()
	}
	f.cond.Broadcast()
}

// Drain removes and returns every waiting entry (to hand them back to the
// store when the crawl stops).
func (f *Frontier[T]) Drain() []Entry[T] {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]Entry[T], 0, f.waiting)
	for _, h := range f.hosts {
		for _, q := range h.queues {
			for e := q.pick(BFS, 0, nil); e != nil; e = q.pick(BFS, 0, nil) {
				if !e.dead {
					out = append(out, e.Entry)
				}
			}
		}
	}
	clear(f.index)
	f.waiting = 0
	return out
}
