package crawl

import (
	"runtime"
	"sync"
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
