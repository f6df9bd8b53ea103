// Package browse is the model behind the window's Results screen: a
// virtual list of a crawl's pages that loads blocks of rows from SQLite on
// demand (keyset paging when scrolling on, random access when jumping),
// the query the filters and search box build, the detail of one page, and
// CSV export. It knows no widgets: the window passes fyne.Do as Do, and
// everything but the loading goroutine runs on the UI goroutine.
package browse

import (
	"context"
	"sync"

	"github.com/trawler/trawler/db"
)

// BlockSize is how many rows one database read brings.
const BlockSize = 100

// maxBlocks bounds the rows kept in memory (maxBlocks × BlockSize).
const maxBlocks = 64

// Source is the part of *db.DB the rows read.
type Source interface {
	Pages(ctx context.Context, q db.PageQuery) ([]db.PageRow, error)
	PagesAt(ctx context.Context, q db.PageQuery, offset, limit int) ([]db.PageRow, error)
	CountPages(ctx context.Context, q db.PageQuery) (int, error)
}

// Rows is the results table's window onto one listing of pages. Its
// methods run on the UI goroutine; reads happen on its own goroutine and
// come back through Do.
type Rows struct {
	src      Source
	do       func(func())
	changed  func()      // after the count or a block arrived
	failed   func(error) // a read failed
	q        db.PageQuery
	gen      int // bumped by every new query or refresh
	count    int
	counted  bool
	blocks   map[int]*block
	loading  map[int]int // block → generation being loaded
	lru      []int
	requests *queue
}

type block struct {
	gen  int
	rows []db.PageRow
}

// NewRows returns an empty listing reading from src. changed and failed
// are called on the UI goroutine (through do).
func NewRows(src Source, do func(func()), changed func(), failed func(error)) *Rows {
	r := &Rows{src: src, do: do, changed: changed, failed: failed, requests: newQueue()}
	r.blocks, r.loading = map[int]*block{}, map[int]int{}
	go r.requests.serve(src)
	return r
}

// Close stops the loading goroutine; reads still under way are dropped.
func (r *Rows) Close() {
	r.gen++
	r.requests.close()
}

// Query returns the listing's query.
func (r *Rows) Query() db.PageQuery { return r.q }

// SetQuery shows another listing: the rows are forgotten and counted again.
func (r *Rows) SetQuery(q db.PageQuery) {
	q.After, q.Limit = nil, 0
	r.q = q
	r.gen++
	r.count, r.counted = 0, false
	r.blocks, r.loading, r.lru = map[int]*block{}, map[int]int{}, nil
	r.requests.reset()
	r.ask(request{kind: countRows})
	r.load(0) // asked last, served first: the first rows show before the count is known
}

// Refresh reads the listing again (a running crawl adds pages) while the
// rows already shown stay until their new version arrives.
func (r *Rows) Refresh() {
	r.gen++
	r.loading = map[int]int{}
	r.requests.reset()
	r.ask(request{kind: countRows})
}

// Counted reports whether the listing's size is known.
func (r *Rows) Counted() bool { return r.counted }

// Len returns the number of rows in the listing. Until they are counted,
// it is the number of rows of the first block, once that has arrived.
func (r *Rows) Len() int {
	if r.counted {
		return r.count
	}
	if b, ok := r.blocks[0]; ok && b.gen == r.gen {
		return len(b.rows)
	}
	return 0
}

// Row returns row i when it is loaded; otherwise it asks for its block
// and returns false. A row from before a Refresh is returned while its new
// version loads.
func (r *Rows) Row(i int) (db.PageRow, bool) {
	if i < 0 || i >= r.Len() {
		return db.PageRow{}, false
	}
	k := i / BlockSize
	b, ok := r.blocks[k]
	if !ok || b.gen != r.gen {
		r.load(k)
	}
	if !ok || i%BlockSize >= len(b.rows) {
		return db.PageRow{}, false
	}
	r.touch(k)
	return b.rows[i%BlockSize], true
}

// load asks for block k unless it is on its way.
func (r *Rows) load(k int) {
	if g, ok := r.loading[k]; ok && g == r.gen {
		return
	}
	r.loading[k] = r.gen
	req := request{kind: loadBlock, block: k}
	if prev, ok := r.blocks[k-1]; ok && prev.gen == r.gen && len(prev.rows) == BlockSize {
		req.after = prev.rows[BlockSize-1].Cursor(r.q.Sort)
	}
	r.ask(req)
}

func (r *Rows) ask(req request) {
	req.q, req.gen = r.q, r.gen
	req.deliver = func(res result) { r.do(func() { r.receive(res) }) }
	r.requests.push(req)
}

// receive takes a read's result on the UI goroutine.
func (r *Rows) receive(res result) {
	if res.req.gen != r.gen {
		return // an older query's answer
	}
	if res.err != nil {
		delete(r.loading, res.req.block)
		if r.failed != nil {
			r.failed(res.err)
		}
		return
	}
	switch res.req.kind {
	case countRows:
		r.count, r.counted = res.count, true
	case loadBlock:
		delete(r.loading, res.req.block)
		r.blocks[res.req.block] = &block{gen: res.req.gen, rows: res.rows}
		r.touch(res.req.block)
		r.evict()
	}
	if r.changed != nil {
		r.changed()
	}
}

func (r *Rows) touch(k int) {
	if n := len(r.lru); n > 0 && r.lru[n-1] == k {
		return
	}
	for i, v := range r.lru {
		if v == k {
			r.lru = append(r.lru[:i], r.lru[i+1:]...)
			break
		}
	}
	r.lru = append(r.lru, k)
}

func (r *Rows) evict() {
	for len(r.lru) > maxBlocks {
		delete(r.blocks, r.lru[0])
		r.lru = r.lru[1:]
	}
}

type requestKind int

const (
	countRows requestKind = iota
	loadBlock
)

type request struct {
	kind    requestKind
	q       db.PageQuery
	gen     int
	block   int
	after   *db.Cursor // continue after this row: keyset paging
	deliver func(result)
}

type result struct {
	req   request
	rows  []db.PageRow
	count int
	err   error
}

// queue hands requests to the loading goroutine, newest first: after a
// fast scroll, the rows now on screen matter, not those scrolled past.
type queue struct {
	mu     sync.Mutex
	items  []request
	wake   chan struct{}
	closed bool
	ctx    context.Context    // of the requests queued since the last reset
	cancel context.CancelFunc // ends the reads of a superseded listing
}

func newQueue() *queue {
	ctx, cancel := context.WithCancel(context.Background())
	return &queue{wake: make(chan struct{}, 1), ctx: ctx, cancel: cancel}
}

func (q *queue) push(r request) {
	q.mu.Lock()
	q.items = append(q.items, r)
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// reset drops requests not yet started and cancels the read under way:
// its listing is superseded.
func (q *queue) reset() {
	q.mu.Lock()
	q.items = nil
	q.cancel()
	q.ctx, q.cancel = context.WithCancel(context.Background())
	q.mu.Unlock()
}

func (q *queue) close() {
	q.mu.Lock()
	q.closed = true
	q.cancel()
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// pop returns the newest request and the context to read it in.
func (q *queue) pop() (request, context.Context, bool, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return request{}, nil, false, true
	}
	n := len(q.items)
	if n == 0 {
		return request{}, nil, false, false
	}
	r := q.items[n-1]
	q.items = q.items[:n-1]
	return r, q.ctx, true, false
}

func (q *queue) serve(src Source) {
	for {
		req, ctx, ok, closed := q.pop()
		if closed {
			return
		}
		if !ok {
			<-q.wake
			continue
		}
		res := result{req: req}
		switch {
		case req.kind == countRows:
			res.count, res.err = src.CountPages(ctx, req.q)
		case req.after != nil:
			qq := req.q
			qq.After, qq.Limit = req.after, BlockSize
			res.rows, res.err = src.Pages(ctx, qq)
		default:
			res.rows, res.err = src.PagesAt(ctx, req.q, req.block*BlockSize, BlockSize)
		}
		req.deliver(res)
	}
}
