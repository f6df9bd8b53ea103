package urlfilter

import (
	"math/bits"

	"github.com/bits-and-blooms/bloom/v3"
)

// bloomFront is the Bloom filter in front of one list's table (paper 002,
// Fig. 2: a miss there means the URL is on no list, and no exact
// comparison is made). It is made of bits-and-blooms filters, each holding
// the bits of about bloomPartTarget entries, so that an Update copies
// (BloomFilter.Copy) only the parts it sets bits in, while lookups read the
// old parts undisturbed.
//
// A lookup must cost one memory access, since a miss is all the work most
// lookups do, so the filter is "register-blocked": the digest picks one
// 64-bit word of its part and sets bloomK bits in it. The positions come
// straight from the MD5 digest, which is already uniform. The library's
// own Test hashes the digest again with murmur3 and then reads bloomK
// words of the whole filter, which measured three times slower; here
// test reads the part's words directly (BitSet.Words, the library's
// documented access to them) with one load and one mask compare.
type bloomFront struct {
	parts  []*bloom.BloomFilter
	words  [][]uint64 // parts[i].BitSet().Words(), read by test
	pwords uint64     // words per part
}

func newBloomFront(parts, pwords uint64) *bloomFront {
	f := &bloomFront{parts: make([]*bloom.BloomFilter, parts), words: make([][]uint64, parts), pwords: pwords}
	for i := range f.parts {
		f.parts[i] = bloom.New(uint(pwords*64), bloomK)
		f.words[i] = f.parts[i].BitSet().Words()
	}
	return f
}

// bloomShape sizes a filter for entries at bitsPerEntry: its parts and
// the 64-bit words of each.
func bloomShape(entries, bitsPerEntry int) (parts, pwords uint64) {
	entries = max(entries, 1)
	parts = uint64((entries + bloomPartTarget - 1) / bloomPartTarget)
	perPart := (entries + int(parts) - 1) / int(parts)
	return parts, uint64((perPart*bitsPerEntry + 63) / 64)
}

// locate returns the part of the key hashed to (a, b), the index of its
// word in the part, and the mask of its bloomK bits in that word.
func (f *bloomFront) locate(a, b uint64) (part, word, mask uint64) {
	for i := range bloomK {
		mask |= 1 << (a >> (6 * i) & 63)
	}
	return reduce(a, uint64(len(f.parts))), reduce(b*0x9E3779B97F4A7C15, f.pwords), mask
}

// test reports whether d may be in the list; false means it is not.
func (f *bloomFront) test(d *Digest) bool { return f.testAB(halves(d)) }

func (f *bloomFront) testAB(a, b uint64) bool {
	part, word, mask := f.locate(a, b)
	return f.words[part][word]&mask == mask
}

// add sets the bits of (a, b); the caller owns its part (see own).
func (f *bloomFront) add(a, b uint64) {
	part, word, mask := f.locate(a, b)
	bs := f.parts[part].BitSet()
	for m := mask; m != 0; m &= m - 1 {
		bs.Set(uint(word*64) + uint(bits.TrailingZeros64(m)))
	}
}

// cow returns a copy of f that shares its parts; own must be called on a
// part before add changes it.
func (f *bloomFront) cow() *bloomFront {
	return &bloomFront{parts: append([]*bloom.BloomFilter(nil), f.parts...),
		words: append([][]uint64(nil), f.words...), pwords: f.pwords}
}

// own makes the part of (a, b) private to f (a copy), once per owned set.
func (f *bloomFront) own(a, b uint64, owned map[int]bool) {
	part, _, _ := f.locate(a, b)
	if p := int(part); !owned[p] {
		f.parts[p] = f.parts[p].Copy()
		f.words[p] = f.parts[p].BitSet().Words()
		owned[p] = true
	}
}

// bytes is the memory f holds: bit arrays and headers.
func (f *bloomFront) bytes() int {
	n := 48 + 8*cap(f.parts) + 24*cap(f.words)
	for _, p := range f.parts {
		n += 24 + 32 + int(p.Cap()+63)/64*8
	}
	return n
}
