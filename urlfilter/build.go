package urlfilter

import "slices"

// arenaSlots is the size of the slot arrays buildTable carves buckets
// from: one allocation per ~1 MB instead of one per bucket.
const arenaSlots = 1 << 16

// buildTable builds a table of shape s holding items, inserted bucket by
// bucket in their order, so that of two equal digests the later one's tag
// wins; dup is called (if not nil) with the index of each item that
// replaced an earlier one. Every bucket's array is sized to what it needs
// (p = w + its overflow): Load leaves no growth slack.
func buildTable(s shape, items []slot, dup func(i int)) *table {
	t := &table{shape: s, buckets: make([]*bucket, s.n)}
	// Counting sort of item indexes by bucket, stable.
	start := make([]int32, s.n+1)
	for i := range items {
		start[t.bucketOf(&items[i].d)+1]++
	}
	most := int32(0)
	for b := range s.n {
		most = max(most, start[b+1])
		start[b+1] += start[b]
	}
	order := make([]int32, len(items))
	next := slices.Clone(start[:s.n])
	for i := range items {
		b := t.bucketOf(&items[i].d)
		order[next[b]] = int32(i)
		next[b]++
	}
	words := int((s.w + 63) / 64)
	headers := make([]bucket, s.n)
	bitArena := make([]uint64, int(s.n)*words)
	scratch := bucket{bits: make([]uint64, words), slots: make([]slot, int(s.w)+int(most))}
	var arena []slot
	for b := range s.n {
		clear(scratch.bits)
		clear(scratch.slots[:s.w+uint64(scratch.over)])
		scratch.over, scratch.count = 0, 0
		for _, i := range order[start[b]:start[b+1]] {
			if t.insertInto(&scratch, &items[i].d, items[i].tag) && dup != nil {
				dup(int(i))
			}
		}
		p := int(s.w) + int(scratch.over)
		bk := &headers[b]
		switch {
		case p > arenaSlots/8:
			// A big bucket (few buckets for many entries, as in the
			// paper's experiment) gets its own array: carving it from
			// arenas would waste up to a bucket per arena.
			bk.slots = slices.Grow([]slot(nil), p)[:p]
		default:
			if len(arena) < p {
				t.waste += len(arena) * int(unsafeSlotSize)
				left := int(s.n-b) * int(s.w)
				arena = make([]slot, max(p, min(arenaSlots, left+int(s.w))))
			}
			bk.slots = arena[:p:p]
			arena = arena[p:]
		}
		bk.bits = bitArena[int(b)*words : int(b+1)*words : int(b+1)*words]
		copy(bk.bits, scratch.bits)
		copy(bk.slots, scratch.slots[:p])
		bk.over, bk.count = scratch.over, scratch.count
		t.count += int(bk.count)
		t.buckets[b] = bk
	}
	t.waste += len(arena) * int(unsafeSlotSize)
	if s.bloom {
		t.front = newBloomFront(s.parts, s.pwords)
		for i := range items {
			t.front.add(halves(&items[i].d))
		}
	}
	return t
}

// rebuilt returns a table holding t's digests, sized for about entries.
func (t *table) rebuilt(entries int) *table {
	items := make([]slot, 0, t.count)
	t.each(func(s *slot) { items = append(items, *s) })
	return buildTable(shapeFor(entries, 0, t.bloom), items, nil)
}

// writer changes a copy of a published table: it shares the buckets and
// Bloom parts of the original and copies each one the first time it
// writes to it, so a small Update costs a few buckets, not the table.
type writer struct {
	t       *table
	buckets map[uint64]bool
	parts   map[int]bool
}

func newWriter(t *table) *writer {
	c := *t
	c.buckets = slices.Clone(t.buckets)
	if t.front != nil {
		c.front = t.front.cow()
	}
	return &writer{t: &c, buckets: map[uint64]bool{}, parts: map[int]bool{}}
}

func (w *writer) own(b uint64) *bucket {
	if !w.buckets[b] {
		w.t.buckets[b] = w.t.buckets[b].clone()
		w.buckets[b] = true
	}
	return w.t.buckets[b]
}

// insert adds d with tag; replaced reports that d was already listed.
func (w *writer) insert(d *Digest, tag uint8) (replaced bool) {
	t := w.t
	if cur, ok := t.find(d); ok && cur == tag {
		return true
	}
	if t.insertInto(w.own(t.bucketOf(d)), d, tag) {
		return true
	}
	t.count++
	if t.front != nil {
		a, b := halves(d)
		t.front.own(a, b, w.parts)
		t.front.add(a, b)
	}
	return false
}

// remove deletes d, reporting whether it was listed.
func (w *writer) remove(d *Digest) bool {
	t := w.t
	if _, ok := t.find(d); !ok {
		return false
	}
	t.removeFrom(w.own(t.bucketOf(d)), d)
	t.count--
	t.removed++
	return true
}

// done returns the table, rebuilt if Updates have outgrown its shape.
func (w *writer) done() *table {
	t := w.t
	if float64(t.count) > rebuildGrowth*float64(t.design) || t.removed > t.design/2 {
		return t.rebuilt(int(float64(t.count) * rebuildHeadroom))
	}
	return t
}
