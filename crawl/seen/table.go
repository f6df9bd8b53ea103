package seen

import "math/bits"

// table is the exact set behind the Bloom filter: a bucketed cuckoo hash
// table of uint64 keys. A key lives in one of two buckets of bucketSlots
// slots, chosen by two independent parts of its mixed hash; when both are
// full, it takes a random slot of one of them and the key it displaces moves
// to its own other bucket, and so on. Slot value 0 means empty, so the key 0
// is kept in a separate flag.
//
// The layout is chosen for memory (paper 004's seen-set at or under 16 bytes
// per URL, of which the Bloom filter takes 2.5 to 5). A key costs 8 bytes
// divided by the load factor. Linear probing slows sharply past 3/4 full,
// and an array that doubles is on average only 0.54 full. Two-choice
// buckets of eight stay quick to fill up to maxLoad, and since any bucket
// count works the table grows by a quarter at a time, so once past its
// first few growths it is always between maxLoad/1.25 (0.76) and maxLoad
// (0.95) full: 8.4 to 10.5 bytes per key.
//
// Slots are never emptied (a displaced key is replaced in the same step), so
// each bucket's keys fill a prefix of it, and a key is placed in its second
// bucket only while its first is full: a lookup stops at the first empty
// slot and skips the second bucket when the first has room.
type table struct {
	slots   []uint64 // buckets × bucketSlots keys
	buckets uint64   // number of buckets
	used    int      // non-zero keys in slots
	zero    bool     // whether key 0 is present
	rand    uint64   // state of the displaced-slot choice
}

const (
	// bucketSlots is the slots of one bucket: 64 bytes, one cache line.
	bucketSlots = 8
	// maxLoadNum/maxLoadDen (0.95) is the fullest a table is filled before
	// it grows.
	maxLoadNum, maxLoadDen = 19, 20
	// maxKicks bounds one insertion's chain of displacements; past it the
	// table grows. Below maxLoad a chain rarely needs more than a few.
	maxKicks = 500
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

// homes returns the first slot of the two buckets of the key with hash h.
// The first comes from h's high bits, the second from its low half (the
// shard index uses only h's lowest bits, which matter to neither unless the
// table is tiny).
func (t *table) homes(h uint64) (b1, b2 uint64) {
	b1, _ = bits.Mul64(h, t.buckets)
	b2, _ = bits.Mul64(bits.RotateLeft64(h, 32), t.buckets)
	return b1 * bucketSlots, b2 * bucketSlots
}

// scan looks for key in the bucket starting at slot b. It reports whether
// it found it and whether the bucket is full.
func (t *table) scan(b, key uint64) (found, full bool) {
	for _, k := range t.slots[b : b+bucketSlots] {
		switch k {
		case key:
			return true, true
		case 0:
			return false, false
		}
	}
	return false, true
}

// has reports whether key is present; h must be mix(key).
func (t *table) has(key, h uint64) bool {
	if key == 0 {
		return t.zero
	}
	if t.buckets == 0 {
		return false
	}
	b1, b2 := t.homes(h)
	found, full := t.scan(b1, key)
	if found || !full {
		return found
	}
	found, _ = t.scan(b2, key)
	return found
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
	if left, ok := t.place(key, h); !ok {
		t.grow(left)
	}
	t.used++
}

// put stores key in the first empty slot of the bucket starting at slot b,
// if there is one.
func (t *table) put(b, key uint64) bool {
	for i := b; i < b+bucketSlots; i++ {
		if t.slots[i] == 0 {
			t.slots[i] = key
			return true
		}
	}
	return false
}

// place stores key, displacing others as needed. If a chain of maxKicks
// displacements ends without a free slot it returns the key left without
// one, which may be key or another, and false; every other key is in the
// table.
func (t *table) place(key, h uint64) (left uint64, ok bool) {
	b1, b2 := t.homes(h)
	if t.put(b1, key) || t.put(b2, key) {
		return 0, true
	}
	b := b1
	if t.next()&1 == 1 {
		b = b2
	}
	for range maxKicks {
		i := b + t.next()%bucketSlots
		key, t.slots[i] = t.slots[i], key
		// The displaced key moves to its other bucket (or, if both of its
		// buckets are this one, displaces another key here).
		if c1, c2 := t.homes(mix(key)); b == c1 {
			b = c2
		} else {
			b = c1
		}
		if t.put(b, key) {
			return 0, true
		}
	}
	return key, false
}

// next returns the next value of the table's splitmix64 sequence.
func (t *table) next() uint64 {
	t.rand += 0x9e3779b97f4a7c15
	z := t.rand
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// fits reports whether n non-zero keys keep the load factor at most maxLoad.
func (t *table) fits(n int) bool {
	return uint64(n)*maxLoadDen <= uint64(len(t.slots))*maxLoadNum
}

// grow re-places every key, and extra, in a quarter more buckets (or more,
// in the unlikely case that a chain of displacements fails on the way).
// The old slots are kept until every key has found a place, so none is lost.
func (t *table) grow(extra ...uint64) {
	old := t.slots
	n := t.buckets
	for {
		n = growBuckets(n)
		t.slots, t.buckets = make([]uint64, n*bucketSlots), n
		if t.replace(old, extra) {
			return
		}
	}
}

// replace places every non-zero key of old and extra into the empty slots
// and reports whether all found a place.
func (t *table) replace(old, extra []uint64) bool {
	for _, ks := range [2][]uint64{old, extra} {
		for _, k := range ks {
			if k == 0 {
				continue
			}
			if _, ok := t.place(k, mix(k)); !ok {
				return false
			}
		}
	}
	return true
}

// growBuckets is the bucket count that follows n: a quarter more, at least
// one more.
func growBuckets(n uint64) uint64 {
	return n + max(1, n/4)
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
