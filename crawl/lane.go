package crawl

import (
	"context"
	"fmt"
	"time"
)

// The priority lane (paper 002): URLs that the URL filter's gateway met and
// nobody has judged are pushed to the front of the crawl, so that their
// verdict decides the next request for them. The store keeps the lane
// (Store.ClaimUrgent); a running engine asks for it a few times a second
// and puts what it gets before every other waiting URL of the frontier.
// Politeness still holds: a lane URL waits for its host's delay like any
// other.

// PriorityOnly makes the engine serve only the store's priority lane and
// keep running, idle, until it is stopped: the URL filter gateway's own
// small crawler, which fetches and judges the URLs the gateway met. The
// crawl's other waiting URLs are left to its own runs, whose leases it
// does not touch, and it never finishes the crawl's cycle.
func PriorityOnly() Option {
	return func(e *Engine) { e.priorityOnly = true }
}

// lanePoll is how often a running engine asks the store for lane URLs, and
// laneBatch how many it takes at once.
const (
	lanePoll  = 200 * time.Millisecond
	laneBatch = 64
)

// pollLane moves the store's lane URLs into the frontier's lane, at most
// once per lanePoll. A crawl that has reached its page cap takes none.
func (e *Engine) pollLane(ctx context.Context) error {
	if time.Since(e.laneAt) < lanePoll || e.capReached() {
		return nil
	}
	e.laneAt = time.Now()
	items, err := e.store.ClaimUrgent(ctx, e.owner, laneBatch)
	if err != nil {
		return fmt.Errorf("claim URLs of the priority lane: %w", err)
	}
	for _, it := range items {
		e.seen.Add(it.FP) // a link to it found later is not new
	}
	e.pushClaimed(items)
	return nil
}

// restoreLane prepares a PriorityOnly run: it learns the URLs the crawl
// knows, so the links of lane pages are recorded once, but neither frees
// other runs' leases (the crawl's own run may be working beside it) nor
// takes up the crawl's waiting URLs.
func (e *Engine) restoreLane(ctx context.Context) error {
	return e.loadSeen(ctx)
}
