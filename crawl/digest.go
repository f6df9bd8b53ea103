package crawl

import (
	"context"
	"runtime"
	"sync"

	"github.com/trawler/trawler/crawl/fetch"
	"github.com/trawler/trawler/crawl/neardup"
)

// Workers fetch; what a page says (its metadata, text, links, sketch) is
// worked out by a few digesters, so that a worker starts the next fetch of
// its batch as soon as it has an answer. Threads stays the number of
// fetches at once. A digester changes nothing shared and does no I/O (what
// it needs from the store, the worker reads), so a few are enough. Once
// its batch is digested, the worker settles its pages in the order it
// fetched them (near-duplicate index, seen-set, frontier) and only then
// takes its next batch: the frontier chooses among the same URLs, in the
// same order, as when each worker digested its own pages, so the orders
// of a one-thread crawl are unchanged.

// digesters runs the digesters until the workers have stopped (each waits
// for its pages to be digested); done is then closed.
func (e *Engine) digesters(workersDone <-chan struct{}, done chan<- struct{}) {
	var wg sync.WaitGroup
	for range digesterCount() {
		wg.Go(func() {
			for f := range e.digests {
				e.digest(f)
				f.done.Done()
			}
		})
	}
	<-workersDone
	close(e.digests)
	wg.Wait()
	close(done)
}

// digesterCount is how many pages are digested at once: as many as the
// processors that run Go code, so digesting keeps them busy and no more.
func digesterCount() int { return runtime.GOMAXPROCS(0) }

// fetched is a URL's answer on its way from the worker that fetched it to
// a digester (see digest).
type fetched struct {
	it   Item
	p    *Page
	resp *fetch.Response // nil when the fetch failed
	done *sync.WaitGroup // the fetching worker's, told when f is digested
	// stored is an unchanged page's sketch from its last visit, when
	// near-duplicates are looked for.
	stored neardup.Sketch

	// What digest works out.
	skips   []Skip // references that are not URLs to crawl
	rejects []Skip // references refused by the normalizer, recorded once (see settle)
	follow  bool   // the page lets its links be followed
}

// digest works out what a fetched page says: its metadata, text, links
// and sketch. It changes nothing shared, so digesters may digest the pages
// of a batch in any order (settle then takes them in fetch order).
func (e *Engine) digest(f *fetched) {
	it, p, resp := f.it, f.p, f.resp
	var refs []Link
	f.follow = true
	switch {
	case resp != nil && isRedirect(resp.Status):
		refs, f.skips = e.redirect(p, resp)
	case resp != nil && p.Err == "" && !it.Resource:
		refs, f.rejects, f.follow = e.describe(p, resp)
	}
	p.Links = refs
	if e.near != nil && !it.Resource && p.Err == "" && p.Text != "" {
		p.Sketch = e.nearCfg.Sketch(p.Text) // already normalized (parse.Document.Text, or describe)
	}
}

// settle takes a digested page into the crawl, in the order its worker
// fetched it: its near-duplicate match, the new URLs it leads to (admitted
// into the frontier) and the references recorded as skipped, so that a
// one-thread crawl sees its pages in one order, whatever the digesters'.
func (e *Engine) settle(f *fetched) result {
	it, p := f.it, f.p
	skips := f.skips
	for _, s := range f.rejects {
		if e.seen.Add(s.FP) {
			skips = append(skips, s)
		}
	}
	if e.near != nil && !it.Resource && p.Err == "" {
		e.nearDup(p, f.stored)
	}
	items, lower, more := e.discover(p, it.Hops, f.follow)
	held := e.admit(items)
	return result{page: p, items: items, held: held, lower: lower, skips: append(skips, more...)}
}

// nearDup finds the page's best match among the pages sketched before it,
// by its sketch (digest's), or by stored, its sketch from the last visit,
// when the server said it has not changed.
func (e *Engine) nearDup(p *Page, stored neardup.Sketch) {
	s := stored
	if p.Sketch != nil {
		s = p.Sketch
	}
	if s == nil {
		return
	}
	m, ok := e.near.Add(p.FP, s)
	p.NearGroup = m.Group
	if ok {
		p.NearOf, p.NearSimilarity = m.ID, m.Similarity
	}
	if !e.nearFull.Load() && e.near.Held() >= e.cfg.NearWindow && e.nearFull.CompareAndSwap(false, true) {
		e.logger.Info("near-duplicate index full: each page is now compared with the latest pages only",
			"near-window", e.cfg.NearWindow)
	}
}

// storedSketch reads the sketch stored at an unchanged page's last visit;
// nil when there is none or it cannot be read (logged).
func (e *Engine) storedSketch(ctx context.Context, p *Page) neardup.Sketch {
	s, err := e.store.Sketch(ctx, p.FP)
	if err != nil {
		e.logger.Warn("read the stored sketch of an unchanged page", "url", p.URL, "err", err)
		return nil
	}
	return s
}
