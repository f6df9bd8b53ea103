package rabin

import "encoding/binary"

// refUpdate is update as it was before the tail of an input was taken in
// one step (commit 259d8fa): the reference the differential tests and
// FuzzUpdateMatchesReference hold the current code to.
func refUpdate(r uint64, p []byte) uint64 {
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

// refFingerprint is Fingerprint as it was: refUpdate from the empty remainder.
func refFingerprint(p []byte) uint64 { return refUpdate(empty, p) }
