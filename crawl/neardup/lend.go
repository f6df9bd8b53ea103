package neardup

import "encoding/binary"

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

// lender returns the first non-empty bin of s in the sequence. With few
// non-empty bins (listed in full) it finds the one of least position p
// instead of probing; both ways give the same bin. s must have a
// non-empty bin, or full must be non-nil.
func (l lendSeq) lender(s Sketch, full []uint32) uint32 {
	mask := uint32(len(s) - 1)
	if full == nil {
		for j := l.start; ; j = (j + l.step) & mask {
			if s[j] != 0 {
				return j
			}
		}
	}
	if len(full) == 1 {
		return full[0]
	}
	best, bestP := uint32(0), ^uint32(0)
	for _, j := range full {
		if p := ((j - l.start) * l.inv) & mask; p < bestP {
			best, bestP = j, p
		}
	}
	return best
}

// lendSeqs returns the sequences of the bins the bands take.
func (c Config) lendSeqs() []lendSeq {
	seqs := make([]lendSeq, c.Bands*c.Rows)
	for i := range seqs {
		seqs[i] = c.lendSeq(uint64(i))
	}
	return seqs
}

// maxFull is the most non-empty bins fullBins lists: with k at most 4096,
// it lists them only when there are at most sqrt(k) = 64.
const maxFull = 64

// fullBins appends to dst, which must be non-nil, the non-empty bins of s
// if there are few, at most sqrt(len(s)), so that lenders are found by
// search; otherwise it returns nil and they are found by probing.
func fullBins(s Sketch, dst []uint32) []uint32 {
	filled := 0
	for i := 0; i+8 <= len(s); i += 8 {
		filled += nonZero(binary.LittleEndian.Uint64(s[i:]))
	}
	if filled*filled > len(s) {
		return nil
	}
	for j, v := range s {
		if v != 0 {
			dst = append(dst, uint32(j))
		}
	}
	return dst
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
