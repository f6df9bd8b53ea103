package crawl

import (
	"context"
	"errors"
	"time"
)

// Batching limits of the writer: a batch is committed once it holds this
// much page data, this many pages, or has waited this long. Paper 000
// uploads in 300 kB batches; a commit here rewrites every index page the
// batch touched, so at 1,500 pages/s batches of 300 kB (70 pages) made
// commits a fifth of the writer's work. The wait bounds how stale the
// window's counts get and how much a crash makes the crawler fetch again.
//
// While the frontier has no URL waiting, a batch waits only eagerWait:
// the fetches in flight are the last ones for now, and a page counts as
// done only once committed, so at the end of a crawl a full wait and a
// full batch's commit would both come after its last fetch.
const (
	batchBytes = 4 << 20
	batchPages = 2000
	batchWait  = 250 * time.Millisecond
	eagerWait  = 50 * time.Millisecond
)

// writer collects workers' results into batches and commits each batch in
// one store transaction, off the fetch path. Only after a commit do the
// URLs in it count as done or error. A batch is committed by a goroutine
// of its own while the next one is collected, so workers do not wait for
// a commit to hand over their pages; once the next batch is full too, they
// wait, which bounds what is held to two batches.
func (e *Engine) writer(ctx context.Context, finished chan<- struct{}) {
	defer close(finished)
	c := committer{e: e, ctx: ctx}
	defer c.wait()
	var (
		b      Batch
		size   int
		due    bool // the batch is ripe but the one before is still committing
		handed = time.Now()
	)
	tick := time.NewTicker(eagerWait)
	defer tick.Stop()
	hand := func() { // hands the batch to the committer, after the one before
		if !b.Empty() && e.fatalErr() == nil {
			c.start(b)
		}
		b, size, due, handed = Batch{}, 0, false, time.Now()
	}
	ripe := func() bool { // the batch has waited long enough
		waited := time.Since(handed)
		return !b.Empty() && (waited >= e.batchWait || waited >= eagerWait && e.front.Len() == 0)
	}
	for {
		select {
		case r, ok := <-e.results:
			if !ok {
				hand()
				return
			}
			size += add(&b, r)
			if size >= batchBytes || len(b.Pages) >= batchPages || !c.busy() && ripe() {
				hand()
			}
		case <-tick.C:
			if !ripe() {
				break
			}
			if c.busy() { // this one keeps growing until that commit ends
				due = true
			} else {
				hand()
			}
		case err := <-c.done:
			c.finished(err)
			if due || ripe() {
				hand()
			}
		case reply := <-e.flushReq:
			// Take what workers already handed over before committing.
			for drained := false; !drained; {
				select {
				case r, ok := <-e.results:
					if !ok {
						drained = true
						break
					}
					add(&b, r)
				default:
					drained = true
				}
			}
			hand()
			reply <- c.wait()
		}
	}
}

// committer commits the writer's batches one at a time, each in a
// goroutine of its own, and reports a failed commit to the engine.
type committer struct {
	e       *Engine
	ctx     context.Context
	done    chan error // the running commit's outcome; nil when none runs
	running bool
}

// start commits b once the commit before it has ended.
func (c *committer) start(b Batch) {
	c.wait()
	c.running = true
	if c.done == nil {
		c.done = make(chan error, 1)
	}
	go func() { c.done <- c.e.commit(c.ctx, &b) }()
}

// busy reports whether a commit is running.
func (c *committer) busy() bool { return c.running }

// finished takes the outcome of the running commit, received from done.
func (c *committer) finished(err error) {
	c.running = false
	if err != nil {
		c.e.fail(err)
	}
}

// wait waits for the running commit, if any, and returns its error.
func (c *committer) wait() error {
	if !c.running {
		return nil
	}
	err := <-c.done
	c.finished(err)
	return err
}

// add appends one result to the batch and returns its rough size in bytes.
func add(b *Batch, r result) int {
	size := 0
	if r.page != nil {
		b.Pages = append(b.Pages, r.page)
		size += len(r.page.Text) + len(r.page.URL) + 512
		for _, l := range r.page.Links {
			size += len(l.URL) + len(l.Text) + 16
		}
	}
	for i, it := range r.items {
		b.New = append(b.New, it)
		b.Held = append(b.Held, r.held[i])
	}
	for _, it := range r.lower {
		b.New = append(b.New, it)
		b.Held = append(b.Held, false)
	}
	b.Skipped = append(b.Skipped, r.skips...)
	return size + 64*(len(r.items)+len(r.lower)) + 128*len(r.skips)
}

// commit writes one batch and then moves its URLs to done or error.
func (e *Engine) commit(ctx context.Context, b *Batch) error {
	if err := e.store.Apply(ctx, e.owner, b); err != nil {
		return err
	}
	e.mu.Lock()
	for _, p := range b.Pages {
		for len(e.byDepth) <= p.Depth {
			e.byDepth = append(e.byDepth, 0)
		}
		e.byDepth[p.Depth]++
		e.byStatus[statusClass(p.Status)]++
	}
	e.mu.Unlock()
	var ok, failed int64
	for _, p := range b.Pages {
		e.log.add(pageEvent(p))
		if p.Failed() {
			failed++
		} else {
			ok++
		}
	}
	var claimed int64
	for _, s := range b.Skipped {
		if s.Claimed {
			claimed++
		}
	}
	e.done.Add(ok)
	e.errs.Add(failed)
	e.skipped.Add(int64(len(b.Skipped)))
	e.processing.Add(-(ok + failed + claimed))
	e.meter.add(time.Now(), e.done.Load()+e.errs.Load())
	if ok > 0 {
		select {
		case e.scoreWake <- struct{}{}:
		default:
		}
	}
	return nil
}

func statusClass(status int) int {
	if status < 100 || status > 599 {
		return 0
	}
	return status / 100
}

// flush asks the writer to commit everything handed to it so far, so the
// store's view is current (before claiming spilled URLs back).
func (e *Engine) flush() error {
	reply := make(chan error, 1)
	select {
	case e.flushReq <- reply:
		return <-reply
	case <-e.stopping:
		return errStopping
	}
}

// errStopping tells the distributor the crawl ended while it waited.
var errStopping = errors.New("crawl stopping")
