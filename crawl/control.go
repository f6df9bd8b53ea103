package crawl

import (
	"context"
	"time"
)

// Pause stops workers from starting new fetches; those in flight finish.
func (e *Engine) Pause() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.state == StateRunning {
		e.state = StatePaused
		e.paused = make(chan struct{})
	}
}

// Resume lets a paused crawl go on.
func (e *Engine) Resume() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.state == StatePaused {
		e.state = StateRunning
		close(e.paused)
		e.paused = nil
	}
}

// Stop ends the crawl: no new fetch starts, fetches in flight finish and are
// stored, and Run returns. Unfetched URLs stay waiting for a later Run.
func (e *Engine) Stop() {
	e.stopOnce.Do(func() {
		e.mu.Lock()
		if e.state == StateRunning || e.state == StatePaused {
			e.state = StateStopping
		}
		if e.paused != nil {
			close(e.paused)
			e.paused = nil
		}
		e.mu.Unlock()
		close(e.stopping)
		e.front.Close()
		e.mu.Lock()
		if e.bgCancel != nil {
			e.bgCancel()
		}
		e.mu.Unlock()
	})
}

func (e *Engine) isStopping() bool {
	select {
	case <-e.stopping:
		return true
	default:
		return false
	}
}

// waitIfPaused blocks while the crawl is paused; it reports false when the
// crawl is ending instead.
func (e *Engine) waitIfPaused(ctx context.Context) bool {
	e.mu.Lock()
	p := e.paused
	e.mu.Unlock()
	if p != nil {
		select {
		case <-p:
		case <-ctx.Done():
		}
	}
	return !e.isStopping() && ctx.Err() == nil
}

func (e *Engine) fail(err error) {
	e.mu.Lock()
	if e.fatal == nil {
		e.fatal = err
	}
	e.mu.Unlock()
	e.front.Close()
}

func (e *Engine) fatalErr() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.fatal
}

func (e *Engine) finish(s RunState, err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.state = s
	e.ended = time.Now()
	if err != nil && e.fatal == nil {
		e.fatal = err
	}
}

// capReached reports whether the page cap leaves no room for another fetch.
func (e *Engine) capReached() bool {
	return e.cfg.MaxPages > 0 && e.reserved.Load() >= int64(e.cfg.MaxPages)
}

// reserve claims one fetch under the page cap.
func (e *Engine) reserve() bool {
	if e.cfg.MaxPages == 0 {
		e.reserved.Add(1)
		return true
	}
	if e.reserved.Add(1) > int64(e.cfg.MaxPages) {
		e.reserved.Add(-1)
		return false
	}
	return true
}
