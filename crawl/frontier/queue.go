package frontier

import (
	"math/rand/v2"
	"time"
)

type queueState int

const (
	idle    queueState = iota // empty, or about to be offered
	inPool                    // ready, waiting for a worker
	onTimer                   // has URLs, host must wait
	leased                    // in a worker's hands
	parked                    // has URLs, host has as many queues in workers' hands as it may
)

// queue holds a host's URLs as groups, one per page that found them.
// Breadth-first takes from the oldest group, depth-first from the newest;
// each group gives its URLs in document order.
type queue[T any] struct {
	host   *host[T]
	urgent []*entry[T]   // the priority lane: picked before any group, oldest first
	groups [][]*entry[T] // groups[head:] are live; each group's entries are consumed from its front
	head   int
	n      int // entries left, in urgent and groups, dead ones included
	state  queueState
	pushes uint64 // the Push that last opened a group here

	// pool links and timer position
	prev, next *queue[T]
	due        time.Time
	heapIndex  int
}

func (q *queue[T]) empty() bool { return q.n == 0 }

func (q *queue[T]) newGroup() { q.groups = append(q.groups, nil) }

func (q *queue[T]) push(e *entry[T]) {
	last := len(q.groups) - 1
	q.groups[last] = append(q.groups[last], e)
	q.n++
}

// pick removes and returns the next entry in the given order, or nil.
func (q *queue[T]) pick(order Order, mix float64, rnd *rand.Rand) *entry[T] {
	if q.n == 0 {
		return nil
	}
	if len(q.urgent) > 0 {
		e := q.urgent[0]
		q.urgent[0] = nil
		q.urgent = q.urgent[1:]
		q.n--
		return e
	}
	depthFirst := order == DFS || (order == Mixed && rnd.Float64() < mix)
	if depthFirst {
		for i := len(q.groups) - 1; i >= q.head; i-- {
			if g := q.groups[i]; len(g) > 0 {
				return q.takeFront(i)
			}
			q.groups = q.groups[:i] // trailing empty groups are done
		}
	}
	for i := q.head; i < len(q.groups); i++ {
		if len(q.groups[i]) > 0 {
			return q.takeFront(i)
		}
		q.groups[i] = nil
		q.head = i + 1
	}
	return nil
}

func (q *queue[T]) takeFront(i int) *entry[T] {
	g := q.groups[i]
	e := g[0]
	g[0] = nil
	q.groups[i] = g[1:]
	q.n--
	if q.n == 0 {
		q.groups = q.groups[:0]
		q.head = 0
	} else if q.head > 64 && q.head*2 > len(q.groups) {
		q.groups = append(q.groups[:0], q.groups[q.head:]...)
		q.head = 0
	}
	return e
}

// fifo is the pool of ready queues: an intrusive doubly linked list, so a
// queue can leave it from the middle when its host must wait.
type fifo[T any] struct{ first, last *queue[T] }

func (p *fifo[T]) push(q *queue[T]) {
	q.prev, q.next = p.last, nil
	if p.last != nil {
		p.last.next = q
	} else {
		p.first = q
	}
	p.last = q
}

func (p *fifo[T]) pushFront(q *queue[T]) {
	q.prev, q.next = nil, p.first
	if p.first != nil {
		p.first.prev = q
	} else {
		p.last = q
	}
	p.first = q
}

func (p *fifo[T]) pop() *queue[T] {
	q := p.first
	if q != nil {
		p.remove(q)
	}
	return q
}

func (p *fifo[T]) remove(q *queue[T]) {
	if q.prev != nil {
		q.prev.next = q.next
	} else {
		p.first = q.next
	}
	if q.next != nil {
		q.next.prev = q.prev
	} else {
		p.last = q.prev
	}
	q.prev, q.next = nil, nil
}

// timedHeap orders waiting queues by the time their host may be asked again.
type timedHeap[T any] []*queue[T]

func (h timedHeap[T]) Len() int           { return len(h) }
func (h timedHeap[T]) Less(i, j int) bool { return h[i].due.Before(h[j].due) }
func (h timedHeap[T]) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].heapIndex, h[j].heapIndex = i, j
}
func (h *timedHeap[T]) Push(x any) {
	q := x.(*queue[T])
	q.heapIndex = len(*h)
	*h = append(*h, q)
}
func (h *timedHeap[T]) Pop() any {
	old := *h
	q := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	return q
}
