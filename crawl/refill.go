package crawl

import (
	"context"
	"errors"
	"fmt"

	"github.com/trawler/trawler/crawl/frontier"
)

// The frontier holds at most MemoryURLs waiting URLs; the rest wait in the
// store (spilled), and refill claims them back as the frontier runs low.

// claimStep is the most URLs one of refill's claims takes from the store.
// A claim's passing memory grows with its size (the rows the statement
// returns, SQLite's journal of the pages it changes, the rows read into
// Go): claiming 50,000 URLs at once raised the resident size by about
// 30 MB for the moment, 5,000 at a time by 5 MB, at the same cost per URL.
// When the frontier is empty, workers wait for the claim: the first one
// then takes firstClaim URLs, which start them within milliseconds
// (claiming 5,000 took a re-crawl's first 60-70 ms).
const (
	claimStep  = 5000
	firstClaim = 500
)

// refill claims up to n spilled URLs from the store into the frontier,
// claimStep at a time, each claim's URLs pushed as they come.
func (e *Engine) refill(ctx context.Context, n int) error {
	if err := e.flush(); err != nil {
		if errors.Is(err, errStopping) {
			return nil
		}
		return err
	}
	step := claimStep
	if e.front.Len() == 0 {
		step = firstClaim
	}
	claimed := 0
	for claimed < n {
		want := min(n-claimed, step)
		step = claimStep
		got, err := e.store.Claim(ctx, e.owner, want, e.cfg.Strategy)
		if err != nil {
			return fmt.Errorf("claim waiting URLs: %w", err)
		}
		if len(got) == 0 && claimed == 0 {
			e.spilled.Store(0)
			return nil
		}
		claimed += len(got)
		if e.spilled.Add(-int64(len(got))) < 0 {
			e.spilled.Store(0)
		}
		e.pushClaimed(got)
		if len(got) < want {
			return nil // the store has no more
		}
	}
	return nil
}

// pushClaimed puts URLs claimed from the store into the frontier, those
// of the priority lane in its lane.
func (e *Engine) pushClaimed(items []Item) {
	var lane []frontier.Entry[Item]
	rest := make([]frontier.Entry[Item], 0, len(items))
	for _, it := range items {
		ent := frontier.Entry[Item]{Value: it, FP: it.FP, Depth: it.Depth}
		if it.Urgent {
			e.urgent.Add(1)
			lane = append(lane, ent)
		} else {
			rest = append(rest, ent)
		}
	}
	e.front.PushUrgent(lane, itemHost)
	e.front.Push(rest, itemHost)
}
