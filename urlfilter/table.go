package urlfilter

import (
	"slices"
	"unsafe"
)

// slot is one place of a bucket's array: a digest and the interned tag of
// its entry's category (0 = none). 17 bytes, with no padding: the tag costs
// one byte per slot and is read from the cache line the digest was
// compared in.
type slot struct {
	d   Digest
	tag uint8
}

const unsafeSlotSize = unsafe.Sizeof(slot{})

// bucket is one bucket of paper 002's improved hash table: a bitmap of w
// bits beside a contiguous array of p ≥ w slots. Bit i set means slots[i]
// holds a digest. A digest's home slot is H(m) mod w; insertion probes
// forward from it to the first free slot, past w into the overflow area
// slots[w:] if need be, which fills from w without gaps (over slots used).
// An array with no free slot left is grown by the factor r.
type bucket struct {
	bits  []uint64
	slots []slot
	over  int32 // used slots at w and beyond
	count int32 // digests held
}

// table is one list: n buckets, with or without the Bloom filter in
// front. A table reachable from a published snapshot is never written;
// Update writes a copy (see writer).
type table struct {
	shape
	buckets []*bucket
	front   *bloomFront // nil: no Bloom filter
	count   int         // digests held
	removed int         // digests removed since the table was built
	waste   int         // bytes allocated for slots but given to no bucket
}

// home is the digest's home slot, the paper's H(m) mod w.
func (t *table) home(d *Digest) uint64 {
	_, b := halves(d)
	return reduce(b, t.w)
}

func (t *table) bucketOf(d *Digest) uint64 {
	a, _ := halves(d)
	return reduce(a, t.n)
}

// lookup answers for d through the Bloom filter, if any, then the table.
func (t *table) lookup(d *Digest) (uint8, bool) {
	if t.front != nil && !t.front.test(d) {
		return 0, false
	}
	return t.find(d)
}

// find looks d up in the table alone: from its home slot forward, until a
// clear bit, the end of the used overflow area, or an equal digest.
func (t *table) find(d *Digest) (uint8, bool) {
	a, b := halves(d)
	bk := t.buckets[reduce(a, t.n)]
	w := t.w
	for j := reduce(b, w); j < w; j++ {
		if bk.bits[j>>6]&(1<<(j&63)) == 0 {
			return 0, false
		}
		if s := &bk.slots[j]; s.d == *d {
			return s.tag, true
		}
	}
	for _, s := range bk.slots[w : w+uint64(bk.over)] {
		if s.d == *d {
			return s.tag, true
		}
	}
	return 0, false
}

// lookupCount is lookup that also counts digest comparisons, for the
// paper's experiment; lookups that serve requests use lookup.
func (t *table) lookupCount(d *Digest) (tag uint8, ok bool, comps int) {
	if t.front != nil && !t.front.test(d) {
		return 0, false, 0
	}
	a, b := halves(d)
	bk := t.buckets[reduce(a, t.n)]
	end := t.w + uint64(bk.over)
	for j := reduce(b, t.w); j < end; j++ {
		if j < t.w && bk.bits[j>>6]&(1<<(j&63)) == 0 {
			return 0, false, comps
		}
		comps++
		if bk.slots[j].d == *d {
			return bk.slots[j].tag, true, comps
		}
	}
	return 0, false, comps
}

// insertInto puts d with tag into bk, which the caller owns; replaced
// reports that d was there already (its tag is then replaced).
func (t *table) insertInto(bk *bucket, d *Digest, tag uint8) (replaced bool) {
	w := t.w
	for j := t.home(d); j < w; j++ {
		word, bit := &bk.bits[j>>6], uint64(1)<<(j&63)
		if *word&bit == 0 {
			*word |= bit
			bk.slots[j] = slot{*d, tag}
			bk.count++
			return false
		}
		if bk.slots[j].d == *d {
			bk.slots[j].tag = tag
			return true
		}
	}
	end := w + uint64(bk.over)
	for j := w; j < end; j++ {
		if bk.slots[j].d == *d {
			bk.slots[j].tag = tag
			return true
		}
	}
	if end == uint64(len(bk.slots)) {
		p := len(bk.slots)
		grown := make([]slot, max(p+1, int(float64(p)*growFactor+0.999999)))
		copy(grown, bk.slots)
		bk.slots = grown
	}
	bk.slots[end] = slot{*d, tag}
	bk.over++
	bk.count++
	return false
}

// removeFrom deletes d from bk, which the caller owns, by backward shift:
// each later digest of the run whose home is at or before the hole moves
// into it, so every digest stays reachable from its home without gaps.
func (t *table) removeFrom(bk *bucket, d *Digest) bool {
	w := t.w
	end := w + uint64(bk.over)
	hole := end
	for j := t.home(d); j < end; j++ {
		if j < w && bk.bits[j>>6]&(1<<(j&63)) == 0 {
			return false
		}
		if bk.slots[j].d == *d {
			hole = j
			break
		}
	}
	if hole == end {
		return false
	}
	for j := hole + 1; j < end; j++ {
		if j < w && bk.bits[j>>6]&(1<<(j&63)) == 0 {
			break
		}
		if t.home(&bk.slots[j].d) <= hole {
			bk.slots[hole] = bk.slots[j]
			hole = j
		}
	}
	bk.slots[hole] = slot{}
	if hole < w {
		bk.bits[hole>>6] &^= 1 << (hole & 63)
	} else {
		bk.over-- // the hole ran to the end of the overflow area
	}
	bk.count--
	return true
}

// each calls fn for every digest of t, bucket by bucket.
func (t *table) each(fn func(s *slot)) {
	for _, bk := range t.buckets {
		for j := range bk.slots[:t.w] {
			if bk.bits[j>>6]&(1<<(j&63)) != 0 {
				fn(&bk.slots[j])
			}
		}
		for j := range bk.slots[t.w : t.w+uint64(bk.over)] {
			fn(&bk.slots[t.w+uint64(j)])
		}
	}
}

// bytes is the memory t holds, counted from what it allocated: headers,
// bucket pointers, bitmaps, slot arrays (with growth slack and arena
// remnants) and the Bloom filter.
func (t *table) bytes() int {
	n := int(unsafe.Sizeof(*t)) + 8*cap(t.buckets) + t.waste
	for _, bk := range t.buckets {
		n += int(unsafe.Sizeof(*bk)) + 8*cap(bk.bits) + int(unsafeSlotSize)*cap(bk.slots)
	}
	if t.front != nil {
		n += t.front.bytes()
	}
	return n
}

func (bk *bucket) clone() *bucket {
	return &bucket{bits: slices.Clone(bk.bits), slots: slices.Clone(bk.slots), over: bk.over, count: bk.count}
}
