package neardup

import "math/bits"

// heads maps the keys of one band to the latest page with each key: an
// open-addressing table with linear probing, which for these uniformly
// hashed 32-bit keys does without the generality a map pays for. Every
// Add looks up one key per band and every stored page sets one.
type heads struct {
	slots []head // a power of two of them, at most maxHeadLoad full
	used  int
	shift uint8 // 32 minus the log2 of len(slots)
}

// head is one slot; page is the page's number plus one, 0 when empty.
type head struct{ key, page uint32 }

const (
	minHeads = 64
	// maxHeadLoadNum/maxHeadLoadDen (3/4) is the fullest a table gets
	// before it doubles: most lookups are of keys no page has yet, whose
	// probes run to the next empty slot.
	maxHeadLoadNum, maxHeadLoadDen = 3, 4
)

// home returns the slot where the search for key starts.
func (h *heads) home(key uint32) int {
	return int((key * 0x9e3779b1) >> h.shift)
}

// get returns the page set for key.
func (h *heads) get(key uint32) (page uint32, ok bool) {
	if h.used == 0 {
		return 0, false
	}
	mask := len(h.slots) - 1
	for i := h.home(key); ; i = (i + 1) & mask {
		switch s := h.slots[i]; {
		case s.page == 0:
			return 0, false
		case s.key == key:
			return s.page - 1, true
		}
	}
}

// put sets page for key and returns the page it replaces, if any.
func (h *heads) put(key, page uint32) (prev uint32, ok bool) {
	if (h.used+1)*maxHeadLoadDen > len(h.slots)*maxHeadLoadNum {
		h.resize(max(minHeads, 2*len(h.slots)))
	}
	mask := len(h.slots) - 1
	for i := h.home(key); ; i = (i + 1) & mask {
		s := &h.slots[i]
		switch {
		case s.page == 0:
			*s = head{key, page + 1}
			h.used++
			return 0, false
		case s.key == key:
			prev, s.page = s.page-1, page+1
			return prev, true
		}
	}
}

// sweep drops the keys of pages before first, and shrinks the table when
// it is left less than a quarter full.
func (h *heads) sweep(first uint32) {
	live := 0
	for _, s := range h.slots {
		if s.page > first { // s.page-1 >= first
			live++
		}
	}
	n := len(h.slots)
	for n > minHeads && live*4 < n {
		n /= 2
	}
	h.rebuild(n, first)
}

// resize moves the keys into n slots.
func (h *heads) resize(n int) { h.rebuild(n, 0) }

// rebuild moves the keys of pages from first on into a new table of n
// slots, a power of two.
func (h *heads) rebuild(n int, first uint32) {
	old := h.slots
	h.slots, h.used = make([]head, n), 0
	h.shift = uint8(33 - bits.Len(uint(n)))
	mask := n - 1
	for _, s := range old {
		if s.page == 0 || s.page-1 < first {
			continue
		}
		i := h.home(s.key)
		for h.slots[i].page != 0 {
			i = (i + 1) & mask
		}
		h.slots[i] = s
		h.used++
	}
}
