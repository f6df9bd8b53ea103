package frontier

// PushUrgent puts URLs in the priority lane: each is taken before any
// other URL of its queue, and its queue goes to the front of the pool, so
// the next idle worker serves it unless its host must wait (politeness
// still holds). A URL already waiting moves to the lane.
func (f *Frontier[T]) PushUrgent(entries []Entry[T], hostOf func(T) string) {
	if len(entries) == 0 {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return
	}
	var touched []*queue[T]
	for _, e := range entries {
		if old, ok := f.index[e.FP]; ok {
			old.dead = true
			f.waiting--
		}
		q := f.queueOf(e, hostOf)
		ent := &entry[T]{Entry: e}
		q.urgent = append(q.urgent, ent)
		q.n++
		f.index[e.FP] = ent
		f.waiting++
		touched = append(touched, q)
	}
	for _, q := range touched {
		if q.state == inPool {
			f.pool.remove(q)
			q.state = idle
		}
		f.offer(q)
	}
	f.cond.Broadcast()
}

// queueOf is the queue of e's host that takes e: a host's URLs go to its
// queues in turn, so its queues hold as many URLs as each other (give or
// take one) and run dry together. Spread by fingerprint, they differed by
// the square root of their length: the last tenth of a one-host crawl ran
// on the few longest queues, with most of the host's workers idle.
func (f *Frontier[T]) queueOf(e Entry[T], hostOf func(T) string) *queue[T] {
	h := f.host(hostOf(e.Value))
	q := h.queues[h.turn%len(h.queues)]
	h.turn++
	return q
}
