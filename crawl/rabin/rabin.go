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
// Computation is table-driven as in paper 000 §3.3, eight bytes per step.
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
	return update(empty, b)
}

// FingerprintString is Fingerprint of the bytes of s, without copying them.
func FingerprintString(s string) uint64 {
	return update(empty, unsafe.Slice(unsafe.StringData(s), len(s)))
}

// update returns the remainder of r(t)·t^(8·len(p)) + p(t) modulo P.
func update(r uint64, p []byte) uint64 {
	t := tab
	for len(p) >= 8 {
		w := binary.BigEndian.Uint64(p)
		r = ((t[7][r>>56] ^ t[6][byte(r>>48)]) ^ (t[5][byte(r>>40)] ^ t[4][byte(r>>32)])) ^
			((t[3][byte(r>>24)] ^ t[2][byte(r>>16)]) ^ (t[1][byte(r>>8)] ^ t[0][byte(r)] ^ w))
		p = p[8:]
	}
	for _, c := range p {
		r = (r<<8 | uint64(c)) ^ t[0][r>>56]
	}
	return r
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
