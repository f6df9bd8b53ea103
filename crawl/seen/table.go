package seen

import "math/bits"

// table is the exact set behind the Bloom filter: an open-addressing hash
// table of uint64 keys with linear probing. Slot value 0 means empty, so the
// key 0 is kept in a separate flag.
//
// The layout is chosen for memory (paper 004's seen-set at or under 16 bytes
// per URL, of which the Bloom filter takes 2.5 to 5). A key costs 8 bytes
// divided by the load factor, and an array that doubles past 3/4 full is on
// average only 0.54 full (14.8 bytes per key). This one may be any length,
// so it grows by a quarter at a time, and fills up to maxLoad: once past its
// first few growths it is always between maxLoad/1.25 (0.72) and maxLoad
// (0.9) full, 8.9 to 11.1 bytes per key.
//
// A key's home slot is the high half of its mixed hash times the length, so
// homes follow the order of the hashes whatever the length: growing reads
// the old slots in order and writes the new ones nearly in order, rather
// than at random. Even so, re-placing four keys for each one added (a
// doubling table re-places one) and probing longer runs, an insert costs
// about twice as much as in a table kept under 3/4 full (BenchmarkTable).
type table struct {
	slots []uint64
	used  int  // non-zero keys in slots
	zero  bool // whether key 0 is present
}

const (
	// minSlots is the length of a table's first slot array.
	minSlots = 8
	// maxLoadNum/maxLoadDen (0.9) is the fullest a table is filled before
	// it grows.
	maxLoadNum, maxLoadDen = 9, 10
)

// mix scrambles a fingerprint (the murmur3 64-bit finalizer, a bijection) so
// that shard and slot choices do not depend on any structure in the input:
// Rabin fingerprints are linear over GF(2) and similar URLs share bits.
func mix(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}

func (t *table) len() int {
	if t.zero {
		return t.used + 1
	}
	return t.used
}

// home returns the slot where the search for the key with hash h starts.
func (t *table) home(h uint64) int {
	i, _ := bits.Mul64(h, uint64(len(t.slots)))
	return int(i)
}

// has reports whether key is present; h must be mix(key).
func (t *table) has(key, h uint64) bool {
	if key == 0 {
		return t.zero
	}
	if t.slots == nil {
		return false
	}
	for i := t.home(h); ; {
		switch t.slots[i] {
		case key:
			return true
		case 0:
			return false
		}
		if i++; i == len(t.slots) {
			i = 0
		}
	}
}

// insert adds key if it is absent and reports whether it did.
func (t *table) insert(key, h uint64) bool {
	if t.has(key, h) {
		return false
	}
	t.insertNew(key, h)
	return true
}

// insertNew adds a key known to be absent, without comparing keys: the
// caller learned from the Bloom filter that key cannot be in the table.
func (t *table) insertNew(key, h uint64) {
	if key == 0 {
		t.zero = true
		return
	}
	if !t.fits(t.used + 1) {
		t.grow()
	}
	t.place(key, h)
	t.used++
}

// place stores key in the first empty slot from its home slot on.
func (t *table) place(key, h uint64) {
	i := t.home(h)
	for t.slots[i] != 0 {
		if i++; i == len(t.slots) {
			i = 0
		}
	}
	t.slots[i] = key
}

// fits reports whether n non-zero keys keep the load factor at most maxLoad.
func (t *table) fits(n int) bool {
	return uint64(n)*maxLoadDen <= uint64(len(t.slots))*maxLoadNum
}

// grow re-places every key in a quarter more slots.
func (t *table) grow() {
	old := t.slots
	t.slots = make([]uint64, growSlots(len(old)))
	for _, k := range old {
		if k != 0 {
			t.place(k, mix(k))
		}
	}
}

// growSlots is the slot count that follows n: a quarter more, and at least
// minSlots.
func growSlots(n int) int {
	return max(minSlots, n+n/4)
}

// keys appends every key to dst, in slot order with 0 first.
func (t *table) keys(dst []uint64) []uint64 {
	if t.zero {
		dst = append(dst, 0)
	}
	for _, k := range t.slots {
		if k != 0 {
			dst = append(dst, k)
		}
	}
	return dst
}

// bytes is the memory the slot array holds.
func (t *table) bytes() int64 {
	return int64(len(t.slots)) * 8
}
