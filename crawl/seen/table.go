package seen

// table is the exact set behind the Bloom filter: an open-addressing hash
// table of uint64 keys with linear probing over a power-of-two slot array.
// Slot value 0 means empty, so the key 0 is kept in a separate flag. The load
// factor stays at most 3/4; past that the array doubles. A table holds
// 8 bytes per slot, that is 8/load bytes per key (10.7 to 21.3).
type table struct {
	slots []uint64
	shift uint // 64 - log2(len(slots)); the slot of hash h is h >> shift
	used  int  // non-zero keys in slots
	zero  bool // whether key 0 is present
}

// minSlots is the size of a table's first slot array.
const minSlots = 8

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

// has reports whether key is present; h must be mix(key).
func (t *table) has(key, h uint64) bool {
	if key == 0 {
		return t.zero
	}
	if t.slots == nil {
		return false
	}
	mask := uint64(len(t.slots) - 1)
	for i := h >> t.shift; ; i = (i + 1) & mask {
		switch t.slots[i] {
		case key:
			return true
		case 0:
			return false
		}
	}
}

// insert adds key if it is absent and reports whether it did.
func (t *table) insert(key, h uint64) bool {
	if key == 0 {
		added := !t.zero
		t.zero = true
		return added
	}
	if t.slots != nil && t.fits(t.used+1) {
		mask := uint64(len(t.slots) - 1)
		for i := h >> t.shift; ; i = (i + 1) & mask {
			switch t.slots[i] {
			case key:
				return false
			case 0:
				t.slots[i] = key
				t.used++
				return true
			}
		}
	}
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
	if t.slots == nil || !t.fits(t.used+1) {
		t.grow()
	}
	t.place(key, h)
	t.used++
}

// place stores key in the first empty slot from its home slot on.
func (t *table) place(key, h uint64) {
	mask := uint64(len(t.slots) - 1)
	i := h >> t.shift
	for t.slots[i] != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = key
}

// fits reports whether n non-zero keys keep the load factor at most 3/4.
func (t *table) fits(n int) bool {
	return n*4 <= len(t.slots)*3
}

// grow doubles the slot array and re-places every key.
func (t *table) grow() {
	old := t.slots
	size := 2 * len(old)
	if size < minSlots {
		size = minSlots
	}
	t.slots = make([]uint64, size)
	t.shift = 64 - uint(log2(size))
	for _, k := range old {
		if k != 0 {
			t.place(k, mix(k))
		}
	}
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

func log2(n int) int {
	l := 0
	for n > 1 {
		n >>= 1
		l++
	}
	return l
}
