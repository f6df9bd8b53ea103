package urlfilter

import (
	"crypto/md5"
	"hash/maphash"
)

// sieve spares Filter.Lookup most of its MD5 digests. A lookup asks for
// up to a handful of keys (the URL, its host and parent domains, its path
// prefixes) and almost none is listed, yet each would cost an MD5 digest
// (≈ 100 ns, most of a lookup) before paper 002's Bloom filter can say
// so. The sieve is one more Bloom filter, over both lists, keyed by a
// cheap hash of the key's text (maphash, a few ns): a key it rules out is
// on no list, and only the few keys it lets through (listed ones and
// about 3 % of the others) are digested and looked up as the paper does.
//
// It costs sieveBitsPerEntry = 8 bits per entry. Like any Bloom filter it
// only grows: removed entries leave bits, which cost a digest, never a
// wrong answer, and Update adds bits for new entries (copying the parts it
// touches). It is sized at Load; lists grown far beyond by Updates make it
// pass more keys until the next Load.
type sieve struct {
	f    *bloomFront
	seed maphash.Seed
}

const sieveBitsPerEntry = 8

func newSieve(entries int, seed maphash.Seed) *sieve {
	parts, pwords := bloomShape(entries, sieveBitsPerEntry)
	return &sieve{f: newBloomFront(parts, pwords), seed: seed}
}

// hash is the sieve's hash of the key of kind k and value a+b.
func (s *sieve) hash(k Kind, a, b string) uint64 { return sieveHash(s.seed, k, a, b) }

func sieveHash(seed maphash.Seed, k Kind, a, b string) uint64 {
	var buf [256]byte
	return maphash.Bytes(seed, keyBytes(&buf, k, a, b))
}

func (s *sieve) test(h uint64) bool { return s.f.testAB(h, h) }

// cow returns a copy of s sharing its parts; add must be given the set of
// parts already owned by the copy.
func (s *sieve) cow() *sieve { return &sieve{f: s.f.cow(), seed: s.seed} }

func (s *sieve) add(h uint64, owned map[int]bool) {
	if owned != nil {
		s.f.own(h, h, owned)
	}
	s.f.add(h, h)
}

// keyBytes writes the text Key digests for kind k and value a+b: a
// letter per kind, a colon, the value. In buf when it fits.
func keyBytes(buf *[256]byte, k Kind, a, b string) []byte {
	x := append(buf[:0], kindPrefix(k), ':')
	x = append(x, a...)
	return append(x, b...)
}

// keyOf is Key(k, a+b) without allocating for values up to 254 bytes.
func keyOf(k Kind, a, b string) Digest {
	var buf [256]byte
	return md5.Sum(keyBytes(&buf, k, a, b))
}
