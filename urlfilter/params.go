package urlfilter

import (
	"encoding/binary"
	"math/bits"
)

// Sizing of paper 002's improved hash table and of its Bloom filter. The
// paper fixes the shape (n buckets, each a bitmap of w bits beside an array
// of p ≥ w digests, grown by a factor r when full) but not the numbers; these
// are ours, chosen for lists of 10 to 10,000,000 entries.
//
//   - n = ⌈N / bucketTarget⌉ buckets (at least 1). A bucket is the unit an
//     Update copies (copy-on-write), so it must stay small enough to copy in
//     a few microseconds (512 entries × 17 bytes ≈ 10 KB), and large enough
//     that the per-bucket header (≈ 100 bytes) and the random spread of
//     entries over buckets (±√512 ≈ ±4.4 %) cost little: 0.2 bytes per
//     entry, and few buckets overflowing their bitmap. At 10,000,000
//     entries that is 19,532 buckets, whose pointer array (156 KB) is the
//     largest thing an Update copies.
//   - w = ⌈(N/n) / maxLoad⌉ bits per bitmap, so the bitmap area of every
//     bucket is filled to maxLoad = 0.85 on average. Insertion is linear
//     probing from H(m) mod w, so a hit needs ½(1 + 1/(1−0.85)) ≈ 3.8
//     digest comparisons on average (3.7 measured), mostly in one or two
//     cache lines; a miss that gets past the Bloom filter
//     ½(1 + 1/(1−0.85)²) ≈ 22 (19.5 measured). A lower load would shorten
//     both but cost 17 bytes per extra slot: at 0.85 the whole structure
//     stays under 24 bytes per entry. Tiny lists get at least minBitmap.
//   - p = w + the overflow the bucket needs when the table is built (Load
//     knows every entry, so it leaves no slack); later inserts that run
//     past the end grow the array to ⌈p·r⌉ with r = growFactor = 1.25: one
//     growth makes room for about a third more entries in that bucket while
//     wasting at most a quarter of it. A larger r would buy nothing here,
//     since Update copies a touched bucket anyway.
//   - The Bloom filter has bloomBitsPerEntry = 12 bits per entry and sets
//     bloomK = 5 bits of one 64-bit word per digest: about 1 % false
//     positives (a classic filter needs 10 bits for that, but reads up to
//     5 cache lines), 1.5 bytes per entry, and a test is one load and one
//     compare. It is split into parts of about bloomPartTarget = 4096
//     entries (6 KB) so that an Update copies only the parts it touches; a
//     Bloom filter cannot forget, so removed entries leave bits that only
//     send lookups on to the exact table.
//   - A table is rebuilt from its own digests when Updates grow it past
//     rebuildGrowth = 1.1 times the size it was built for (the bitmaps
//     would fill and the overflow areas lengthen), or when more than half
//     of that size has been removed (the Bloom filter would be stale). It
//     is rebuilt for rebuildHeadroom = 1.25 times its entries, so that a
//     list growing by small Updates is rebuilt once per ~40 % of growth.
//
// The sieve in front of MD5 has its own size (see sieve.go).
const (
	bucketTarget      = 512
	maxLoad           = 0.85
	minBitmap         = 16
	growFactor        = 1.25
	bloomBitsPerEntry = 12
	bloomK            = 5
	bloomPartTarget   = 4096
	rebuildGrowth     = 1.1
	rebuildHeadroom   = 1.25
)

// shape is the geometry of one table, fixed when it is built.
type shape struct {
	n, w   uint64 // buckets, bits per bitmap
	design int    // entries the table was sized for
	bloom  bool   // whether a Bloom filter stands in front
	parts  uint64 // Bloom filter parts
	pwords uint64 // 64-bit words per part
}

// shapeFor sizes a table for about entries digests in buckets buckets
// (0 = choose, see above), with or without a Bloom filter.
func shapeFor(entries, buckets int, withBloom bool) shape {
	entries = max(entries, 1)
	if buckets <= 0 {
		buckets = (entries + bucketTarget - 1) / bucketTarget
	}
	buckets = max(buckets, 1)
	per := float64(entries) / float64(buckets)
	w := max(uint64(per/maxLoad+0.999999), minBitmap)
	s := shape{n: uint64(buckets), w: w, design: entries, bloom: withBloom}
	if withBloom {
		s.parts, s.pwords = bloomShape(entries, bloomBitsPerEntry)
	}
	return s
}

// Where a digest goes. MD5 output is uniform, so its bits are used
// directly: the first 8 bytes (a) pick the bucket — the paper's
// hash(m) mod n — and the Bloom part (high bits) and bits (low 30 bits);
// the last 8 (b) pick the home slot — the paper's H(m) mod w — and the
// Bloom word. "mod" is
// Lemire's multiply-shift reduction, which maps the high bits uniformly
// onto [0, n) without a division.
func halves(d *Digest) (a, b uint64) {
	return binary.LittleEndian.Uint64(d[0:8]), binary.LittleEndian.Uint64(d[8:16])
}

func reduce(x, n uint64) uint64 {
	hi, _ := bits.Mul64(x, n)
	return hi
}
