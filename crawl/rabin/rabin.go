// Package rabin computes Rabin fingerprints (paper 000 §3): a byte string
// is read as a polynomial over GF(2) and reduced modulo a fixed irreducible
// polynomial P(t) of degree 64; the 64-bit remainder is the fingerprint.
// The crawler marks every URL and page by its fingerprint, so that
// "already seen?" is a comparison of 16 hex digits (paper 000 §4).
//
// Guarantees: equal inputs give equal fingerprints, and different
// fingerprints mean different inputs (property 1 of paper 000 §3.1).
// Different inputs of at most n bits collide with probability about
// n/2^64 for a randomly chosen P; since P here is fixed and public,
// fingerprints are no defence against inputs built to collide.
//
// Computation is table-driven as in paper 000 §3.3, eight bytes per step,
// with the last one to seven bytes of an input taken in one more step.
package rabin

import (
	"encoding/binary"
	"unsafe"
)

// Poly holds the coefficients of t^63 … t^0 of the irreducible polynomial
// P(t) = t^64 + … + 1 that fingerprints are reduced by (t^64 is implicit).
//
// It was found by a reproducible search rather than copied: candidates
// t^64 + (x | 1), x drawn from math/rand/v2 PCG seeded with
// (0x747261776c657200, 2003), were tested in turn with Rabin's
// irreducibility test; the 23rd candidate was the first irreducible one.
// TestPolySearch reruns that search and TestPolyIrreducible proves the
// result irreducible:
//
//	go test -run 'TestPolySearch|TestPolyIrreducible' -v ./crawl/rabin
//
// Changing Poly changes every fingerprint ever stored.
const Poly = 0x391a68062509249b

// tab[k][v] is v(t)·t^(64+8k) mod P: the contribution of byte k (counting
// from the least significant) of a remainder r to r·t^64 mod P.
var tab = makeTables()

func makeTables() *[8][256]uint64 {
	t := new([8][256]uint64)
	for v := range 256 {
		x := uint64(v)
		for range 64 {
			x = mulT(x)
		}
		t[0][v] = x
	}
	for k := 1; k < 8; k++ {
		for v := range 256 {
			x := t[k-1][v]
			t[k][v] = x<<8 ^ t[0][x>>56]
		}
	}
	return t
}

// tab16[k][v] is v(t)·t^(128+8k) mod P: the same for a remainder shifted
// past sixteen bytes at once.
var tab16 = makeTables16()

func makeTables16() *[8][256]uint64 {
	u := new([8][256]uint64)
	for k := range 8 {
		for v := range 256 {
			x := tab[k][v] // v·t^(64+8k)
			for range 64 {
				x = mulT(x)
			}
			u[k][v] = x
		}
	}
	return u
}

// mulT returns x·t mod P.
func mulT(x uint64) uint64 {
	if x>>63 == 1 {
		return x<<1 ^ Poly
	}
	return x << 1
}

// empty is the fingerprint of no bytes: the leading 1-bit alone.
const empty = 1

// Fingerprint returns the Rabin fingerprint of b: the remainder modulo P of
// the polynomial whose coefficients are a 1-bit followed by the bits of b,
// most significant bit of each byte first. The leading 1-bit makes leading
// zero bytes count, so "\x00abc" and "abc" differ. Fingerprint(nil) is 1.
func Fingerprint(b []byte) uint64 {
	return fingerprint(b)
}

// FingerprintString is Fingerprint of the bytes of s, without copying them.
func FingerprintString(s string) uint64 {
	return fingerprint(unsafe.Slice(unsafe.StringData(s), len(s)))
}

// fingerprint is update(empty, p) with its first step in closed form: the
// leading 1-bit and up to seven bytes stay below degree 64, and the 1-bit
// shifted past eight bytes is t^64 mod P = Poly.
func fingerprint(p []byte) uint64 {
	if len(p) < 8 {
		return empty<<(8*len(p)) | bigEndian(p)
	}
	return blocks(Poly^binary.BigEndian.Uint64(p), p[8:], lastWord(p))
}

// update returns the remainder of r(t)·t^(8·len(p)) + p(t) modulo P.
func update(r uint64, p []byte) uint64 {
	if len(p) < 8 {
		return shiftIn(r, bigEndian(p), uint(len(p)))
	}
	return blocks(r, p, lastWord(p))
}

// blocks is update(r, p) sixteen bytes a step, and eight once if eight
// remain; last is the last eight bytes of the input p ends, which may
// start before p. In a sixteen-byte step the remainder's lookups and the
// first word's are independent, so the chain from one step to the next is
// as short as in an eight-byte step.
func blocks(r uint64, p []byte, last uint64) uint64 {
	for len(p) >= 16 {
		v, w := binary.BigEndian.Uint64(p), binary.BigEndian.Uint64(p[8:])
		r = fold(r, tab16) ^ fold(v, tab) ^ w
		p = p[16:]
	}
	if len(p) >= 8 {
		r = fold(r, tab) ^ binary.BigEndian.Uint64(p)
		p = p[8:]
	}
	m := uint(len(p)) // the rest, as shiftIn does it (too big to be inlined)
	h := r >> (64 - 8*m)
	return r<<(8*m) ^ last&(1<<(8*m)-1) ^ fold(h, tab)
}

// fold returns the sum of t[k][byte k of x] over the eight bytes of x.
func fold(x uint64, t *[8][256]uint64) uint64 {
	return ((t[7][x>>56] ^ t[6][byte(x>>48)]) ^ (t[5][byte(x>>40)] ^ t[4][byte(x>>32)])) ^
		((t[3][byte(x>>24)] ^ t[2][byte(x>>16)]) ^ (t[1][byte(x>>8)] ^ t[0][byte(x)]))
}

// shiftIn returns r(t)·t^(8m) + w(t) mod P for m in 0..7 and w below
// t^(8m): the bytes of r shifted past degree 64 are reduced all at once.
// The lookups of bytes not shifted out read tab[k][0] = 0, so there is no
// branch on m to mispredict.
func shiftIn(r, w uint64, m uint) uint64 {
	h := r >> (64 - 8*m) // the top m bytes of r; none when m is 0
	return r<<(8*m) ^ w ^ fold(h, tab)
}

// lastWord returns the last eight bytes of p, which has at least eight.
func lastWord(p []byte) uint64 { return binary.BigEndian.Uint64(p[len(p)-8:]) }

// bigEndian returns the bytes of p, fewer than eight, as a number.
func bigEndian(p []byte) uint64 {
	var w uint64
	for _, c := range p {
		w = w<<8 | uint64(c)
	}
	return w
}

// Hex formats a fingerprint as the 16 lower-case hex digits the crawler
// shows and stores (paper 000 §4), zero-padded on the left.
func Hex(fp uint64) string {
	const digits = "0123456789abcdef"
	var b [16]byte
	for i := 15; i >= 0; i-- {
		b[i] = digits[fp&0xf]
		fp >>= 4
	}
	return string(b[:])
}
