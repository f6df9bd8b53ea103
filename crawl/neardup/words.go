package neardup

import (
	"encoding/binary"
	"math/bits"
	"unsafe"
)

// Version 2 hashes each word of the text once, eight bytes a step, and
// makes a shingle's hash from its words' hashes: a polynomial in them,
// kept rolling as the text is read (a word in, the word Shingle places
// back out), so that a shingle costs the same whatever its length. The
// polynomial makes the order of the words count; its value is mixed with
// the seed into the shingle's 64-bit hash, as version 1 mixes a
// fingerprint.
//
// The constants are SplitMix64 of ASCII names ("wordseed", "wordkey1",
// "wordkey2", "rollbase", "shingle2"), fixed forever: changing one
// changes every version 2 sketch.
const (
	wordSeed  = 0x0fc28c2aed2d851a
	wordKey1  = 0x35b536951b0001e2
	wordKey2  = 0x724cd5436c9f1a3f
	rollBase  = 0x36cff0f5faa6c843 // odd, so that B^j is never 0 mod 2^64
	shingle2  = 0xd829908dee55928a
	spaceWord = 0x2020202020202020
	byteOnes  = 0x0101010101010101
)

// wordBlock is the number of words version 2 hashes before it rolls
// their hashes into shingles, so that each loop keeps its few variables
// in registers.
const wordBlock = 256

// shinglesV2 is shingles for version 2: it puts the hash of every
// shingle of text into its bin of mins, keeping the least, and returns
// the number of shingles. Words and shingles are those of version 1;
// only the hash differs.
func (c Config) shinglesV2(text string, mins []uint64) int {
	w := c.Shingle
	r := roller{mins: mins, mask: uint64(len(mins) - 1), key: mix(c.Seed ^ shingle2), outPow: rollPow(w), w: w}
	var hs [MaxShingle + wordBlock]uint64 // the last w words' hashes, then a block's
	var buf [64]byte
	b, padded := unsafe.Slice(unsafe.StringData(text), len(text)), false
	for i := 0; ; {
		m, next := hashWords(b, i, hs[w:w+wordBlock])
		r.add(hs[:w+m])
		copy(hs[:w], hs[m:m+w])
		if i = next; m == wordBlock {
			continue
		}
		if padded || i >= len(b) {
			break
		}
		// The words left are too close to the end to read eight bytes at
		// a time: read them from a copy with spaces after it.
		b, i, padded = append(append(buf[:0], b[i:]...), "        "...), 0, true
	}
	switch {
	case r.words >= w:
		return r.words - w + 1
	case r.words > 0: // the whole text is one shingle
		h := mix(r.roll ^ r.key)
		mins[h&r.mask] = h
		return 1
	}
	return 0
}

// hashWords puts into hs the hashes of the words of b from i on, as many
// as fit, while it can read b eight bytes at a time without passing its
// end. It returns their number and where it stopped: the start of the
// first word not hashed, or past the end of b. Bytes are read as
// little-endian words XORed with spaces: a space is then a zero byte, and
// the lowest zero byte of a step ends the word. Each full step and the
// last, partial one (zero to seven bytes, the rest zero) are hashed in by
// a 64×64→128-bit multiplication; every word makes a different sequence
// of steps, so two words have one hash only by chance.
func hashWords(b []byte, i int, hs []uint64) (m, next int) {
	for m < len(hs) && i+8 <= len(b) {
		t := load8(b, i)
		zeros := zeroBytes(t)
		if zeros&0x80 != 0 { // a space
			i++
			continue
		}
		start, h := i, uint64(wordSeed)
		for zeros == 0 { // eight bytes of a long word
			h = mum(t^wordKey1, h^wordKey2)
			if i += 8; i+8 > len(b) {
				return m, start
			}
			t = load8(b, i)
			zeros = zeroBytes(t)
		}
		end := uint(bits.TrailingZeros64(zeros)) &^ 7 // bits of the word in t
		hs[m] = mum(t&(1<<end-1)^wordKey1, h^wordKey2)
		m++
		i += int(end>>3) + 1
	}
	return m, i
}

// roller rolls version 2's shingle hashes over the words of a text.
type roller struct {
	mins              []uint64
	mask, key, outPow uint64 // outPow is B^w, the weight of the word leaving the window
	w                 int
	roll              uint64 // Σ word[n-j]·B^j over the last w words
	words             int
}

// add rolls in the words whose hashes follow the first w of hs, which are
// those of the w words before them (0 for none), and puts the hash of
// each shingle they end into its bin.
func (r *roller) add(hs []uint64) {
	in := hs[r.w:]
	out := hs[:len(in)]
	roll, mins, mask, key, outPow := r.roll, r.mins, r.mask, r.key, r.outPow
	k := min(max(r.w-1-r.words, 0), len(in)) // words before the first shingle ends
	for j := range k {
		roll = roll*rollBase + in[j] - out[j]*outPow
	}
	for j := k; j < len(in); j++ {
		roll = roll*rollBase + in[j] - out[j]*outPow
		h := mix(roll ^ key)
		bin := h & mask
		mins[bin] = min(mins[bin], h)
	}
	r.roll, r.words = roll, r.words+len(in)
}

// load8 returns the eight bytes of b from i, which the caller has checked
// are in b, as a little-endian word XORed with spaces. It reads them
// without the bounds checks b[i:] would make.
func load8(b []byte, i int) uint64 {
	p := unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), i)
	return binary.LittleEndian.Uint64(unsafe.Slice((*byte)(p), 8)) ^ spaceWord
}

// zeroBytes returns the high bit of each zero byte of t, exactly for the
// lowest (a higher one may be misplaced).
func zeroBytes(t uint64) uint64 { return (t - byteOnes) &^ t & high }

// rollPow returns rollBase^w mod 2^64.
func rollPow(w int) uint64 {
	p := uint64(1)
	for range w {
		p *= rollBase
	}
	return p
}

// mum folds the 128-bit product of a and b to 64 bits.
func mum(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}
