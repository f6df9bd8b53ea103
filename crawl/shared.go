package crawl

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Shared makes the engine one of several crawling a crawl at once, each in
// its own process, over a store they share (paper 003's robots; see
// crawl/robot): the URLs it finds all go to the store rather than to its
// own frontier, it claims a few at a time (the store gives each host to
// one engine at a time), it frees no other engine's leases when it
// starts, and it ends only when the store has nothing waiting, in any
// engine's hands or not.
func Shared() Option {
	return func(e *Engine) { e.shared = true }
}

// HostsClaimed returns the per-host view of the queues, and the time it
// was read, between two claims: every host whose URLs a claim leased
// before that time has them in the frontier already. A robot hands on the
// hosts it has no URLs of (crawl/robot); a host a claim leases after that
// time must not be handed on.
func (e *Engine) HostsClaimed() ([]HostStatus, time.Time) {
	at := time.Now()
	if started := e.claimStart.Load(); started != 0 && started < at.UnixNano() {
		at = time.Unix(0, started) // that claim's hosts may not be in the frontier yet
	}
	return e.Hosts(), at
}

// Owner names this run's leases in the store.
func (e *Engine) Owner() string { return e.owner }

// sharedRetry is how long a shared engine waits after an empty claim, or
// between two looks at whether the crawl is over.
const sharedRetry = 200 * time.Millisecond

// sharedStep keeps a shared engine's frontier filled from the store and
// reports when the crawl as a whole is done.
func (e *Engine) sharedStep(ctx context.Context) (done bool, err error) {
	threads, _, _ := e.Settings()
	if e.front.Len() < 2*threads && time.Since(e.emptyAt) >= sharedRetry {
		if err := e.flush(); err != nil {
			if errors.Is(err, errStopping) {
				return false, nil
			}
			return false, err
		}
		e.claimStart.Store(time.Now().UnixNano())
		items, err := e.store.Claim(ctx, e.owner, 4*threads, e.cfg.Strategy)
		if err == nil {
			e.pushClaimed(items)
		}
		e.claimStart.Store(0)
		if err != nil {
			return false, fmt.Errorf("claim waiting URLs: %w", err)
		}
		if len(items) == 0 {
			e.emptyAt = time.Now()
		}
	}
	if !e.front.Idle() || e.background.Load() > 0 || time.Since(e.countAt) < sharedRetry {
		return false, nil
	}
	e.countAt = time.Now()
	if err := e.flush(); err != nil && !errors.Is(err, errStopping) {
		return false, err
	}
	c, err := e.store.Counts(ctx)
	if err != nil {
		return false, fmt.Errorf("count stored URLs: %w", err)
	}
	return c.Waiting == 0 && c.Processing == 0, nil
}
