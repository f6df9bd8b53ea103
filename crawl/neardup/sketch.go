package neardup

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/trawler/trawler/crawl/rabin"
)

// Sketch is the MinHash sketch of one page: k 16-bit minima, one per bin.
// A nil Sketch stands for a page without text; it never matches.
type Sketch []uint16

// noMin marks a bin no shingle fell into.
const noMin = math.MaxUint64

// Constants that derive independent hash streams from the seed.
const (
	golden      = 0x9e3779b97f4a7c15
	densifySalt = 0x6e65617264757031 // "neardup1"
	finishSalt  = 0x6d696e6861736831 // "minhash1"
)

// mix is the SplitMix64 finalizer: a bijection on 64 bits whose output
// bits each depend on every input bit.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// Sketch returns the MinHash sketch of text, which should be in the form
// parse.NormalizeText returns (words separated by single spaces; other
// white space counts as part of a word). Text of fewer than Shingle words
// is one shingle; text without words gives nil. It panics if c is invalid.
func (c Config) Sketch(text string) Sketch {
	c = c.mustValid()
	k := c.Hashes
	mins := make([]uint64, k)
	for i := range mins {
		mins[i] = noMin
	}
	if c.shingles(text, mins) == 0 {
		return nil
	}
	out := make(Sketch, k)
	c.finish(mins, out)
	return out
}

// shingles puts the hash of every shingle of text into its bin of mins,
// keeping the least, and returns the number of shingles.
func (c Config) shingles(text string, mins []uint64) int {
	w := c.Shingle
	mask := uint64(len(mins) - 1)
	seed := c.Seed
	var starts [MaxShingle]int
	slot, words, n := 0, 0, 0
	first, end := -1, 0
	for i := 0; i < len(text); {
		if text[i] == ' ' {
			i++
			continue
		}
		start := i
		if j := strings.IndexByte(text[i:], ' '); j >= 0 {
			i += j
		} else {
			i = len(text)
		}
		if first < 0 {
			first = start
		}
		end = i
		starts[slot] = start
		if slot++; slot == w {
			slot = 0
		}
		if words++; words >= w {
			h := mix(rabin.FingerprintString(text[starts[slot]:i]) ^ seed)
			b := h & mask
			mins[b] = min(mins[b], h) // branch-free: the outcome is unpredictable
			n++
		}
	}
	if words > 0 && words < w {
		h := mix(rabin.FingerprintString(text[first:end]) ^ seed)
		mins[h&mask] = h
		n = 1
	}
	return n
}

// finish densifies mins and writes the low 16 bits of each bin's
// re-hashed minimum to out. Re-hashing with the bin's number makes a bin
// that borrowed another's minimum differ from the lender: two different
// one-shingle pages fill every bin from their one shingle, and cut to 16
// bits without it they would agree everywhere once in 65,536 pairs.
func (c Config) finish(mins []uint64, out Sketch) {
	mask := uint64(len(mins) - 1)
	var full []uint64 // the non-empty bins, gathered only when few
	filled := 0
	for _, m := range mins {
		if m != noMin {
			filled++
		}
	}
	if filled*filled <= len(mins) {
		full = make([]uint64, 0, filled)
		for j, m := range mins {
			if m != noMin {
				full = append(full, uint64(j))
			}
		}
	}
	fin := (c.Seed ^ finishSalt) * golden
	for i, m := range mins {
		if m == noMin {
			m = mins[c.lender(uint64(i), mins, full, mask)]
		}
		out[i] = uint16(mix(m ^ (fin + uint64(i)*golden)))
	}
}

// lender returns the bin an empty bin i borrows its minimum from: the
// first non-empty bin in a sequence of all bins that depends on i and the
// seed, j_p = s + p·t mod k for p = 0, 1, … with t odd ("optimal
// densification", Shrivastava 2017, with a permutation instead of draws).
// Two pages that share the shingle at the lender's minimum then agree on
// bin i as well, so the estimate stays unbiased. With few non-empty bins
// (listed in full) it finds the bin of least position p instead of
// probing; both ways give the same bin.
func (c Config) lender(i uint64, mins, full []uint64, mask uint64) uint64 {
	r := mix((c.Seed ^ densifySalt) + i*golden)
	s, t := r&mask, (r>>32)|1
	if full == nil {
		for p := uint64(0); ; p++ {
			if j := (s + p*t) & mask; mins[j] != noMin {
				return j
			}
		}
	}
	if len(full) == 1 {
		return full[0]
	}
	inv := inverse(t)
	best, bestP := uint64(0), uint64(math.MaxUint64)
	for _, j := range full {
		if p := ((j - s) * inv) & mask; p < bestP {
			best, bestP = j, p
		}
	}
	return best
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

// Resemblance returns the MinHash estimate of the Jaccard index of the two
// pages' shingle sets, |A∩B|/|A∪B|: the fraction of bins whose minima
// agree. Sketches of different sizes, or nil ones, give 0.
func Resemblance(a, b Sketch) float64 {
	if len(a) == 0 || len(a) != len(b) {
		return 0
	}
	return float64(equal(a, b)) / float64(len(a))
}

// Similarity returns the estimated share of shingles the two pages have in
// common, 2|A∩B|/(|A|+|B|) (the Dice coefficient), from the Resemblance J
// as 2J/(1+J). For pages of equal length it is the fraction of either
// page the other contains: one paragraph in twenty rewritten gives about
// 0.95 where J would be 0.90, half the text rewritten about 0.45.
// Thresholds and matches are in this measure.
func Similarity(a, b Sketch) float64 { return diceOf(Resemblance(a, b)) }

// equal counts the bins where a and b agree; they have the same length.
func equal(a, b Sketch) int {
	n := 0
	b = b[:len(a)]
	for i, v := range a {
		if v == b[i] {
			n++
		}
	}
	return n
}

// sketchVersion is the first byte of a marshalled sketch.
const sketchVersion = 1

// MarshalBinary encodes s for storage: a version byte, then each minimum
// as two bytes, little-endian. A nil Sketch encodes as no bytes.
func (s Sketch) MarshalBinary() ([]byte, error) {
	if len(s) == 0 {
		return nil, nil
	}
	b := make([]byte, 1, 1+2*len(s))
	b[0] = sketchVersion
	for _, v := range s {
		b = binary.LittleEndian.AppendUint16(b, v)
	}
	return b, nil
}

// UnmarshalBinary decodes what MarshalBinary wrote; no bytes give nil.
func (s *Sketch) UnmarshalBinary(b []byte) error {
	if len(b) == 0 {
		*s = nil
		return nil
	}
	if b[0] != sketchVersion {
		return fmt.Errorf("decode sketch: version %d, want %d", b[0], sketchVersion)
	}
	if len(b)%2 != 1 {
		return errors.New("decode sketch: odd number of bytes after the version")
	}
	out := make(Sketch, len(b)/2)
	for i := range out {
		out[i] = binary.LittleEndian.Uint16(b[1+2*i:])
	}
	*s = out
	return nil
}
