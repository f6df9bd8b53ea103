package urlfilter

import "github.com/bits-and-blooms/bloom/v3"

// bloomFront is the Bloom filter in front of one list's table (paper 002,
// Fig. 2: a miss there means the URL is on no list, and no exact
// comparison is made). It is a bits-and-blooms filter split into parts of
// about bloomPartTarget entries, so that an Update copies only the parts it
// sets bits in, while lookups read the old parts undisturbed.
//
// The probe positions come straight from the MD5 digest, which is already
// uniform, rather than from the library's murmur hashing of it (Test):
// that halves the cost of a test. All bloomK positions of a digest lie in one 512-bit
// block (one cache line), chosen by the digest.
type bloomFront struct {
	parts   []*bloom.BloomFilter
	pblocks uint64
}

func newBloomFront(s shape) *bloomFront {
	f := &bloomFront{parts: make([]*bloom.BloomFilter, s.parts), pblocks: s.pblocks}
	for i := range f.parts {
		f.parts[i] = bloom.New(uint(s.pblocks*bloomBlockBits), bloomK)
	}
	return f
}

// locate returns the part of d and its bloomK bit positions in that part.
func (f *bloomFront) locate(d *Digest, locs *[bloomK]uint64) int {
	a, b := halves(d)
	part := reduce(a, uint64(len(f.parts)))
	base := reduce(b*0x9E3779B97F4A7C15, f.pblocks) * bloomBlockBits
	for i := range locs {
		locs[i] = base + a&(bloomBlockBits-1)
		a >>= 9
	}
	return int(part)
}

// test reports whether d may be in the list; false means it is not. It
// tests the positions on the filter's bit set: the library's
// TestLocations would first reduce each one modulo m with a 64-bit
// division, which costs more than the test when the bits are cached.
func (f *bloomFront) test(d *Digest) bool {
	var locs [bloomK]uint64
	bs := f.parts[f.locate(d, &locs)].BitSet()
	for _, l := range locs {
		if !bs.Test(uint(l)) {
			return false
		}
	}
	return true
}

// add sets the bits of d in f, which the caller owns.
func (f *bloomFront) add(d *Digest) {
	var locs [bloomK]uint64
	p := f.locate(d, &locs)
	bs := f.parts[p].BitSet()
	for _, l := range locs {
		bs.Set(uint(l))
	}
}

// cow returns a copy of f that shares its parts; own must be called on a
// part before add changes it.
func (f *bloomFront) cow() *bloomFront {
	return &bloomFront{parts: append([]*bloom.BloomFilter(nil), f.parts...), pblocks: f.pblocks}
}

// own makes the part of d private to f (a copy), once per owner set.
func (f *bloomFront) own(d *Digest, owned map[int]bool) {
	var locs [bloomK]uint64
	p := f.locate(d, &locs)
	if !owned[p] {
		f.parts[p] = f.parts[p].Copy()
		owned[p] = true
	}
}

// bytes is the memory f holds: bit arrays and headers.
func (f *bloomFront) bytes() int {
	n := 24 + 8*len(f.parts)
	for _, p := range f.parts {
		n += 24 + 32 + int(p.Cap()+63)/64*8
	}
	return n
}
