package neardup

import (
	"encoding/binary"
	"math/bits"
)

// lendSeq is the sequence of bins an empty bin borrows its value from
// for LSH: j_p = start + p·step mod k for p = 0, 1, … with step odd
// ("optimal densification", Shrivastava 2017, with a permutation instead
// of draws). Two pages that share the shingle at the lender's minimum then
// agree on the empty bin as well. It depends only on the seed and the
// bin, so an Index works it out once per bin, not once per page.
type lendSeq struct {
	start, step uint32 // reduced mod k
	inv         uint32 // step's inverse mod k: the p of bin j is (j-start)·inv mod k
}

// lendSeq returns the sequence of bin i. Only the low bits of the hash
// matter: k is a power of two, so sums and products mod k depend on the
// operands mod k alone.
func (c Config) lendSeq(i uint64) lendSeq {
	mask := uint64(c.Hashes - 1)
	r := mix((c.Seed ^ densifySalt) + i*golden)
	t := (r >> 32) | 1
	return lendSeq{start: uint32(r & mask), step: uint32(t & mask), inv: uint32(inverse(t) & mask)}
}

// at returns the bin at position p of the sequence.
func (l lendSeq) at(p, mask uint32) uint32 { return (l.start + p*l.step) & mask }

// probe returns the first non-empty bin of s in the sequence, trying the
// bins in turn; s must have one.
func (l lendSeq) probe(s Sketch) uint32 {
	mask := uint32(len(s) - 1)
	for j := l.start; ; j = (j + l.step) & mask {
		if s[j] != 0 {
			return j
		}
	}
}

// search returns the bin of full, the non-empty bins of s, that comes
// first in the sequence: the one of least position p. It gives probe's
// bin, or 0 if full is empty.
func (l lendSeq) search(full []uint32, mask uint32) uint32 {
	best, bestP := uint32(0), ^uint32(0)
	for _, j := range full {
		if p := ((j - l.start) * l.inv) & mask; p < bestP {
			best, bestP = j, p
		}
	}
	return best
}

// lendDepth is the number of positions of each sequence that lenders
// lists by bin, and lendLevels the number of depths a scan can stop at,
// evenly spaced up to lendDepth.
const (
	lendDepth  = 128
	lendLevels = 4
)

// lenders finds the bins that the empty bins of the bands borrow from.
// Besides each band bin's sequence, it lists for each bin j the band bins
// whose sequences reach j within their first lendDepth positions, and
// where. With f non-empty bins of k, the first of them in a sequence
// comes at about position k/f; so for a page with few, scanning their
// lists up to a few times k/f finds nearly every band bin's lender, at a
// cost that does not grow with f, where probing would cost k/f a bin and
// searching f a bin.
type lenders struct {
	seqs  []lendSeq // per band bin
	depth uint32    // positions of each sequence listed: lendDepth, or k if smaller
	first []uint32  // bin j's entries are near[first[j]:first[j+1]]
	near  []uint32  // p<<16 | i: band bin i's sequence is at the bin at position p; ascending p per bin
	// cut[L][j] ends the entries of bin j at positions below
	// levelDepth(L), so that a scan to that depth needs no test.
	cut [lendLevels][]uint32
}

// lenders returns the lenders of the bins the bands take, Bands·Rows of
// them (at most 4096, so i and p fit in 16 bits).
func (c Config) lenders() *lenders {
	n, k := c.Bands*c.Rows, c.Hashes
	l := &lenders{seqs: make([]lendSeq, n), depth: uint32(min(k, lendDepth)), first: make([]uint32, k+1)}
	for i := range l.seqs {
		l.seqs[i] = c.lendSeq(uint64(i))
	}
	mask := uint32(k - 1)
	for p := range l.depth {
		for _, q := range l.seqs {
			l.first[q.at(p, mask)+1]++
		}
	}
	for j := range k {
		l.first[j+1] += l.first[j]
	}
	l.near = make([]uint32, l.first[k])
	next := append([]uint32(nil), l.first[:k]...)
	level := 0
	for p := range l.depth {
		for ; p == l.levelDepth(level); level++ {
			l.cut[level] = append([]uint32(nil), next...)
		}
		for i, q := range l.seqs {
			j := q.at(p, mask)
			l.near[next[j]] = p<<16 | uint32(i)
			next[j]++
		}
	}
	for ; level < lendLevels; level++ {
		l.cut[level] = next
	}
	return l
}

// levelDepth returns the depth a scan at level L stops at, never deeper
// than the lists.
func (l *lenders) levelDepth(level int) uint32 {
	return min(l.depth, lendDepth*uint32(level+1)/lendLevels)
}

// maxStackBins is the most band bins whose scratch fill keeps on its
// stack.
const maxStackBins = 512

// noLend marks a band bin for which no listed position is a full bin.
const noLend = ^uint32(0)

// fill sets bins[i], for each band bin i, to i if s[i] is not empty and
// otherwise to the bin it borrows from: the first non-empty bin in its
// sequence (0 if s is all empty). bins has one entry per band bin.
func (l *lenders) fill(s Sketch, bins []uint32) {
	k := len(s)
	var fullBuf [maxStackBins]uint32 // k/8 ≤ 512
	full, few := fullBins(s, fullBuf[:0:k/8])
	if !few || len(full) == 0 { // probing costs less than 8 tries a bin
		for i := range bins {
			bins[i] = uint32(i)
			if s[i] == 0 && few {
				bins[i] = 0
			} else if s[i] == 0 {
				bins[i] = l.seqs[i].probe(s)
			}
		}
		return
	}
	var bestBuf [maxStackBins]uint32
	best := bestBuf[:0]
	if len(bins) > len(bestBuf) {
		best = make([]uint32, len(bins))
	}
	// Scanning to depth 3k/f leaves about one band bin in e^3 ≈ 20 to
	// search, which costs f where the scan costs about 3 a bin.
	level := 0
	for level < lendLevels-1 && int(l.levelDepth(level)) < 3*k/len(full) {
		level++
	}
	best = l.early(full, best[:len(bins)], l.cut[level])
	mask := uint32(k - 1)
	seqs, s := l.seqs[:len(bins)], s[:len(bins)]
	for i, q := range seqs {
		j := uint32(i)
		if s[i] == 0 {
			if e := best[i]; e != noLend {
				j = q.at(e>>16, mask)
			} else { // every full bin is at depth or later: rare
				j = q.search(full, mask)
			}
		}
		bins[i] = j
	}
}

// early sets best[i] to the least entry p<<16 | i of the full bins'
// lists, up to their cut, or noLend, and returns best.
func (l *lenders) early(full []uint32, best []uint32, cut []uint32) []uint32 {
	for i := range best {
		best[i] = noLend
	}
	for _, j := range full {
		lower(best, l.near[l.first[j]:cut[j]])
	}
	return best
}

// lower sets best[i] to the least of it and the entries of band bin i. It
// is not inlined, so that its loop has the registers to itself.
//
//go:noinline
func lower(best, entries []uint32) {
	for _, e := range entries {
		i := e & 0xffff
		best[i] = min(best[i], e)
	}
}

// fullBins appends to dst the non-empty bins of s, eight bins a step, as
// long as they fit in its capacity; few is false if they do not.
func fullBins(s Sketch, dst []uint32) (full []uint32, few bool) {
	for i := 0; i+8 <= len(s); i += 8 {
		w := binary.LittleEndian.Uint64(s[i:])
		for m := ((w & low7) + low7 | w) & high; m != 0; m &= m - 1 {
			if len(dst) == cap(dst) {
				return dst, false
			}
			dst = append(dst, uint32(i+bits.TrailingZeros64(m)/8))
		}
	}
	return dst, true
}

// inverse returns the multiplicative inverse of odd t modulo 2^64, by
// Newton's iteration (each step doubles the number of correct bits).
func inverse(t uint64) uint64 {
	x := t // correct to 3 bits, as t·t ≡ 1 mod 8
	for range 5 {
		x *= 2 - t*x
	}
	return x
}
