package neardup

import (
	"fmt"
	"math"
	"math/bits"
	"strings"
	"sync"

	"github.com/trawler/trawler/crawl/rabin"
)

// Sketch is the MinHash sketch of one page: one byte per bin, 0 for a
// bin no shingle fell into and 1..255 for the bits of the bin's minimum.
// A nil Sketch stands for a page without text; it never matches.
type Sketch []uint8

// noMin marks a bin no shingle fell into while sketching.
const noMin = math.MaxUint64

// chance is the probability that the bytes of two different minima agree.
const chance = 1.0 / 255

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
	buf, _ := minsPool.Get().(*[]uint64)
	if buf == nil || len(*buf) < k {
		buf = new([]uint64)
		*buf = make([]uint64, k)
		for i := range *buf {
			(*buf)[i] = noMin
		}
	}
	mins := (*buf)[:k]
	var n int
	if c.Version == Version1 {
		n = c.shinglesV1(text, mins)
	} else {
		n = c.shinglesV2(text, mins)
	}
	var out Sketch
	if n > 0 {
		out = make(Sketch, k)
		c.finish(mins, out)
	}
	minsPool.Put(buf)
	return out
}

// minsPool holds the bins' minima between sketches: eight bytes a bin, so
// that sketching every page of a crawl does not make garbage of them. A
// buffer in the pool is all noMin: finish empties the bins it reads.
var minsPool sync.Pool

// shinglesV1 puts the hash of every shingle of text into its bin of mins,
// keeping the least, and returns the number of shingles: for version 1,
// the Rabin fingerprint of the shingle's bytes mixed with the seed.
func (c Config) shinglesV1(text string, mins []uint64) int {
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

// finish writes each non-empty bin's minimum to out as a byte in 1..255,
// re-hashed with the seed and the bin's number so that the bytes of
// different minima agree with probability exactly 1/255, and empties the
// bin. It skips four empty bins at a time, as most are on short pages.
func (c Config) finish(mins []uint64, out Sketch) {
	fin := (c.Seed ^ finishSalt) * golden
	out = out[:len(mins)]
	for i := 0; i+4 <= len(mins); i += 4 {
		q := mins[i : i+4 : i+4]
		if q[0]&q[1]&q[2]&q[3] == noMin {
			continue
		}
		for j, m := range q {
			if m != noMin {
				h := mix(m^(fin+uint64(i+j)*golden)) >> 32
				out[i+j] = uint8(1 + (h*255)>>32)
				q[j] = noMin
			}
		}
	}
}

// Resemblance returns the MinHash estimate of the Jaccard index of the two
// pages' shingle sets, |A∩B|/|A∪B|: the share of bins, among those not
// empty in both, whose minima agree, corrected for the bytes of different
// minima agreeing by chance. Sketches of different sizes, or nil ones,
// give 0.
func Resemblance(a, b Sketch) float64 {
	if len(a) == 0 || len(a) != len(b) {
		return 0
	}
	eq, n := agree(a, b)
	return jaccardFrom(eq, n)
}

// jaccardFrom returns the Jaccard estimate from eq agreeing bins among n
// bins not empty in both.
func jaccardFrom(eq, n int) float64 {
	if n == 0 {
		return 0
	}
	p := float64(eq) / float64(n)
	return max(0, (p-chance)/(1-chance))
}

// Similarity returns the estimated share of shingles the two pages have in
// common, 2|A∩B|/(|A|+|B|) (the Dice coefficient), from the Resemblance J
// as 2J/(1+J). For pages of equal length it is the fraction of either
// page the other contains: one paragraph in twenty rewritten gives about
// 0.95 where J would be 0.90, half the text rewritten about 0.45.
// Thresholds and matches are in this measure.
func Similarity(a, b Sketch) float64 { return diceOf(Resemblance(a, b)) }

// agree returns the number of bins where a and b hold the same non-empty
// value, and the number of bins not empty in both; they have one length.
func agree(a, b Sketch) (eq, n int) {
	b = b[:len(a)]
	for i, v := range a {
		switch {
		case v == 0 && b[i] == 0:
		case v == b[i]:
			eq++
			n++
		default:
			n++
		}
	}
	return eq, n
}

// encoding is the first byte of a marshalled sketch: the version of the
// encoding, not Config.Version (the bytes do not say how the minima were
// hashed; whoever stores sketches keeps that). Encoding 1 (16 bits per
// bin, empty bins filled in) was written by development builds only.
const encoding = 2

// MarshalBinary encodes s for storage: an encoding byte, then one byte
// per bin. A nil Sketch encodes as no bytes.
func (s Sketch) MarshalBinary() ([]byte, error) {
	if len(s) == 0 {
		return nil, nil
	}
	b := make([]byte, 0, 1+len(s))
	return append(append(b, encoding), s...), nil
}

// UnmarshalBinary decodes what MarshalBinary wrote; no bytes give nil. A
// sketch of an older encoding also gives nil, without error: it cannot be
// compared with today's, and the page is sketched again when its body is
// next fetched.
func (s *Sketch) UnmarshalBinary(b []byte) error {
	switch {
	case len(b) == 0 || b[0] == 1:
		*s = nil
		return nil
	case b[0] != encoding:
		return fmt.Errorf("decode sketch: unknown encoding %d (this program writes %d)", b[0], encoding)
	case bits.OnesCount(uint(len(b)-1)) != 1:
		return fmt.Errorf("decode sketch: %d bins is not a power of two", len(b)-1)
	}
	*s = append(Sketch(nil), b[1:]...)
	return nil
}
