package rabin

import "hash"

// Size is the length in bytes of a fingerprint as returned by Sum.
const Size = 8

// BlockSize is the number of bytes the tables consume in their smallest
// full step (they take sixteen where they can, and the last one to seven
// bytes of a write in one more step); any split of the input gives the
// same fingerprint.
const BlockSize = 8

// digest carries the running remainder; the remainder of a prefix is all
// that the rest of the input needs (property 3 of paper 000 §3.1).
type digest struct{ r uint64 }

// New returns a hash.Hash64 that computes Fingerprint incrementally, for
// input that arrives in pieces, such as a page body read from the network.
// Sum64 equals Fingerprint of everything written since New or Reset.
func New() hash.Hash64 { return &digest{r: empty} }

func (d *digest) Write(p []byte) (int, error) {
	d.r = update(d.r, p)
	return len(p), nil
}

func (d *digest) Sum64() uint64 { return d.r }

// Sum appends the fingerprint, big-endian, to in.
func (d *digest) Sum(in []byte) []byte {
	r := d.r
	return append(in, byte(r>>56), byte(r>>48), byte(r>>40), byte(r>>32),
		byte(r>>24), byte(r>>16), byte(r>>8), byte(r))
}

func (d *digest) Reset()         { d.r = empty }
func (d *digest) Size() int      { return Size }
func (d *digest) BlockSize() int { return BlockSize }
