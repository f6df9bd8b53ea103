package crawl

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// Paper 003's control server changes a robot's settings while it runs:
// the number of threads, the requests at once per host, the delay between
// two requests to a host. The engine takes each change at once, without a
// restart: what is in flight finishes as it was started.

// workerPool is the engine's workers (paper 000's thread pool): each has
// a context that retires it once it is idle.
type workerPool struct {
	mu     sync.Mutex
	ctx    context.Context      // the run's; nil before Run
	retire []context.CancelFunc // one per worker, in start order
	wg     sync.WaitGroup
	alive  atomic.Int64 // workers started and not yet returned
}

// startWorkers starts the configured number of workers for a run.
func (e *Engine) startWorkers(ctx context.Context) {
	e.pool.mu.Lock()
	e.pool.ctx = ctx
	n := e.cfg.Threads
	e.pool.mu.Unlock()
	e.resize(n)
}

// resize starts or retires workers until n run. A retired worker finishes
// the batch in its hands and stops before taking another.
func (e *Engine) resize(n int) {
	e.pool.mu.Lock()
	defer e.pool.mu.Unlock()
	if e.pool.ctx == nil {
		return
	}
	ctx := e.pool.ctx
	for len(e.pool.retire) < n {
		retire, cancel := context.WithCancel(ctx)
		e.pool.retire = append(e.pool.retire, cancel)
		e.pool.alive.Add(1)
		e.pool.wg.Go(func() {
			defer e.pool.alive.Add(-1)
			e.work(ctx, retire)
		})
	}
	for len(e.pool.retire) > n {
		last := len(e.pool.retire) - 1
		e.pool.retire[last]()
		e.pool.retire = e.pool.retire[:last]
	}
}

// SetThreads changes how many workers fetch at once, between 1 and
// MaxThreads, while the crawl runs or before it starts.
func (e *Engine) SetThreads(n int) error {
	if n < 1 || n > MaxThreads {
		return bad("threads", "must be between 1 and %d, got %d", MaxThreads, n)
	}
	e.mu.Lock()
	e.cfg.Threads = n
	e.mu.Unlock()
	e.resize(n)
	return nil
}

// SetPerHost changes how many requests at once one host may see.
func (e *Engine) SetPerHost(n int) error {
	if n < 1 || n > MaxThreads {
		return bad("per-host", "must be between 1 and %d, got %d", MaxThreads, n)
	}
	e.mu.Lock()
	e.cfg.PerHost = n
	e.mu.Unlock()
	e.front.SetPerHost(n)
	return nil
}

// SetDelay changes the least time between two requests to one host; a
// host whose robots.txt asks for a longer Crawl-delay keeps that.
func (e *Engine) SetDelay(d time.Duration) error {
	if d < 0 {
		return bad("delay", "must not be negative")
	}
	e.mu.Lock()
	e.cfg.Delay = d
	e.mu.Unlock()
	p := e.polite
	p.mu.Lock()
	p.base = d
	hosts := make(map[string]time.Duration, len(p.delays))
	for h := range p.delays {
		p.delays[h] = max(d, p.crawl[h])
		hosts[h] = p.delays[h]
	}
	p.mu.Unlock()
	e.front.SetDefaultDelay(d)
	for h, hd := range hosts {
		e.front.SetDelay(h, hd)
	}
	e.logger.Info("delay changed", "delay", d)
	return nil
}

// Settings returns the threads, per-host limit and delay in force.
func (e *Engine) Settings() (threads, perHost int, delay time.Duration) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.cfg.Threads, e.cfg.PerHost, e.cfg.Delay
}
