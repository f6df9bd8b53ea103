package frontier

import "time"

// SetPerHost changes how many of a host's queues workers may hold at once,
// and so how many requests at once a host sees, for every host: a host
// with fewer queues gets more, and queues beyond the limit wait (parked)
// until one in a worker's hands comes back.
func (f *Frontier[T]) SetPerHost(n int) {
	if n < 1 {
		n = 1
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cfg.PerHost = n
	for _, h := range f.hosts {
		h.limit = n
		for len(h.queues) < n {
			h.queues = append(h.queues, &queue[T]{host: h})
		}
		f.unpark(h)
	}
	f.cond.Broadcast()
}

// SetDefaultDelay changes the delay of hosts met from now on; SetDelay
// changes a known host's.
func (f *Frontier[T]) SetDefaultDelay(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cfg.Delay = d
}

// park keeps an idle queue with URLs out of the pool while its host is
// full.
func (f *Frontier[T]) park(q *queue[T]) {
	q.state = parked
	q.host.parked = append(q.host.parked, q)
}

// unpark offers a host's parked queues again, as many as it takes.
func (f *Frontier[T]) unpark(h *host[T]) {
	for len(h.parked) > 0 && !h.full() {
		q := h.parked[0]
		h.parked = h.parked[1:]
		q.state = idle
		f.offer(q)
	}
}
