package crawl

import (
	"context"
	"fmt"

	"github.com/trawler/trawler/crawl/neardup"
)

// restore loads what the store knows of this crawl: counts, the seen-set
// and, for a new crawl, the seeds.
func (e *Engine) restore(ctx context.Context) error {
	if e.priorityOnly {
		return e.restoreLane(ctx)
	}
	if !e.shared { // the other robots' leases are theirs: expired ones are claimed anyway
		if err := e.store.Recover(ctx); err != nil {
			return fmt.Errorf("recover unfinished URLs: %w", err)
		}
	}
	c, err := e.store.Counts(ctx)
	if err != nil {
		return fmt.Errorf("count stored URLs: %w", err)
	}
	t, err := e.store.Totals(ctx)
	if err != nil {
		return fmt.Errorf("read the totals of earlier runs: %w", err)
	}
	e.mu.Lock()
	e.byDepth, e.byStatus, e.before = append([]int64(nil), t.ByDepth...), t.ByStatus, t.Elapsed
	e.mu.Unlock()
	e.bytes.Store(t.Bytes)
	e.done.Store(c.Done)
	e.errs.Store(c.Error)
	e.fetchedBefore = c.Done + c.Error
	e.skipped.Store(c.Skipped)
	e.reserved.Store(c.Done + c.Error)
	if c.Skipped > 0 && !e.capReached() {
		n, err := e.store.Unskip(ctx, SkipPageCap)
		if err != nil {
			return fmt.Errorf("take up URLs left out by the page cap: %w", err)
		}
		c.Waiting += n
		e.skipped.Add(-n)
	}
	if !e.shared {
		e.spilled.Store(c.Waiting)
	}
	if c.Waiting+c.Done+c.Error+c.Processing+c.Skipped > 0 {
		e.spillEver.Store(true)
		if err := e.loadSeen(ctx); err != nil {
			return err
		}
		if e.near != nil {
			if err := e.store.Sketches(ctx, func(fp uint64, s neardup.Sketch) { e.near.Add(fp, s) }); err != nil {
				return fmt.Errorf("load near-duplicate sketches: %w", err)
			}
		}
	}
	// Seeds the store does not know yet: those of a new crawl, or of a
	// crawl whose only URLs came through the priority lane.
	var items []Item
	for _, s := range e.cfg.Seeds {
		fp := fingerprint(s)
		if e.seen.Add(fp) {
			items = append(items, Item{URL: s, FP: fp})
		}
	}
	if len(items) == 0 {
		return nil
	}
	held := e.admit(items)
	if err := e.store.Apply(ctx, e.owner, &Batch{New: items, Held: held}); err != nil {
		return fmt.Errorf("store seeds: %w", err)
	}
	return nil
}

// loadSeen fills the seen-sets with the URLs the store knows.
func (e *Engine) loadSeen(ctx context.Context) error {
	err := e.store.Fingerprints(ctx, func(fp uint64, skip SkipReason) {
		if skip.PathDependent() {
			e.skipSeen.Add(fp)
		} else {
			e.seen.Add(fp)
		}
	})
	if err != nil {
		return fmt.Errorf("load known URLs: %w", err)
	}
	return nil
}

// finishCycle closes the cycle in the store when the run visited every
// URL. A run that ended at the page cap leaves it open and records what
// was still waiting as skipped; a resumed run with room takes it up again.
func (e *Engine) finishCycle(ctx context.Context) error {
	if e.capReached() && !e.shared { // a shared crawl's page cap is each robot's own
		n, err := e.store.SkipWaiting(ctx, SkipPageCap)
		if err != nil {
			return fmt.Errorf("record URLs over the page cap: %w", err)
		}
		e.skipped.Add(n)
		e.spilled.Store(0)
		e.parked.Store(0)
		e.inHand.Store(0)
		e.front.Drain()
		if n > 0 {
			return nil
		}
	}
	c, err := e.store.Counts(ctx)
	if err != nil {
		return fmt.Errorf("count stored URLs: %w", err)
	}
	if c.Waiting > 0 {
		return nil
	}
	if err := e.store.FinishCycle(ctx); err != nil {
		return fmt.Errorf("finish the crawl cycle: %w", err)
	}
	return nil
}
