package neardup

// The index and the lender as they were at commit 259d8fa, before the
// lenders were computed once per Index, the band heads moved from maps to
// a table of their own and sketches stopped being packed on the way in:
// the reference that TestIndexMatchesReference and FuzzIndexMatchesReference
// hold the current code to. Only the names differ.

import (
	"encoding/binary"
	"math"
	"math/bits"
	"sync"
)

// refLender is Config.lender as it was: it returns the bin an empty bin i of s borrows its value from for
// LSH: the first non-empty bin in a sequence of all bins that depends on i
// and the seed, j_p = s + p·t mod k for p = 0, 1, … with t odd ("optimal
// densification", Shrivastava 2017, with a permutation instead of draws).
// Two pages that share the shingle at the lender's minimum then agree on
// bin i as well. With few non-empty bins (listed in full) it finds the bin
// of least position p instead of probing; both ways give the same bin.
func refLender(c Config, i uint64, s Sketch, full []uint64) uint64 {
	mask := uint64(len(s) - 1)
	r := mix((c.Seed ^ densifySalt) + i*golden)
	start, t := r&mask, (r>>32)|1
	if full == nil {
		for p := uint64(0); ; p++ {
			if j := (start + p*t) & mask; s[j] != 0 {
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
		if p := ((j - start) * inv) & mask; p < bestP {
			best, bestP = j, p
		}
	}
	return best
}

// refIndex finds, for each page added, the most similar page added before it
// by locality-sensitive hashing over sketch bands. It is safe for
// concurrent use. Add is deterministic: adding the same sketches in the
// same order (as when a resumed crawl rebuilds the index from stored
// sketches) gives the same matches and groups.
type refIndex struct {
	cfg     Config
	maxMiss int // the most disagreeing bins a pair reaching the threshold can have

	mu      sync.Mutex
	added   int
	stored  uint32              // pages stored, forgotten ones included; a page's number p counts them
	chunks  []*refChunk         // page p is in chunks[p/chunkPages]; nil once forgotten
	heads   []map[uint32]uint32 // per band: key → the latest page with it
	epoch   uint32              // the number of the current Add, to compare each page once
	first   uint32              // the oldest page still held (a chunk's first)
	dropped int                 // pages forgotten since the heads were last swept
}

// refChunk holds chunkPages stored pages, so that a growing index never
// copies its whole store and a window can drop its oldest pages at once.
type refChunk struct {
	ids    []uint64
	groups []uint64
	seen   []uint32 // per page: the epoch of the last Add that compared it
	mins   []uint64 // packed sketches, Hashes/8 words a page
	next   []uint32 // page × band: the previous page with the band's key, +1; 0 ends
}

// newRefIndex returns an empty index matching pages at c.Threshold. It panics
// if c is invalid (see Config.Validate).
func newRefIndex(c Config) *refIndex {
	c = c.mustValid()
	x := &refIndex{cfg: c, heads: make([]map[uint32]uint32, c.Bands)}
	for i := range x.heads {
		x.heads[i] = make(map[uint32]uint32)
	}
	// A pair reaches the threshold only if at least a share p of the n
	// bins not empty in both agree, so at most (1-p)·n ≤ (1-p)·k disagree.
	p := jaccardOf(c.Threshold)*(1-chance) + chance
	x.maxMiss = int(math.Ceil((1-p)*float64(c.Hashes) + 1e-9))
	return x
}

// Add records the page id with sketch s and returns its best match: the
// page added before it with the highest estimated Similarity, at least the
// Threshold (ties go to the earlier page), and the group it joins. Groups
// are fixed when a page is added and never change: a page joins its best
// match's group, or founds a group named by its own id. So a group is a
// chain of matches and two pages in one group may be less similar than
// the threshold; a page similar to pages of two groups joins the group of
// the closer one, and the groups stay apart.
//
// ok is false, and match is {Group: id}, when there is no match. A nil
// sketch, or one of another size than the Config makes, is not recorded
// and never matches. A sketch equal to an earlier page's is matched to it
// with Similarity 1 and not stored again (pages that would match it match
// the earlier one equally well).
func (x *refIndex) Add(id uint64, s Sketch) (match Match, ok bool) {
	own := Match{Group: id}
	if len(s) != x.cfg.Hashes {
		return own, false
	}
	keys, packed := x.keys(s), refPack(s)
	x.mu.Lock()
	defer x.mu.Unlock()
	x.added++
	best, sim, same := x.best(packed, keys)
	if best < 0 {
		x.insert(id, id, packed, keys)
		return own, false
	}
	c, i := x.at(uint32(best))
	match = Match{ID: c.ids[i], Similarity: sim, Group: c.groups[i]}
	if !same {
		x.insert(id, match.Group, packed, keys)
	}
	return match, true
}

// keys returns the hash of each band of s. An empty bin takes the value
// of the bin it borrows from (Config.lender) and that bin's number, so
// that short pages, whose bins are mostly empty, still fall into bands
// with the pages that share their text and not with every short page.
func (x *refIndex) keys(s Sketch) []uint32 {
	r := x.cfg.Rows
	var full []uint64 // the non-empty bins, gathered only when few
	filled := 0
	for _, v := range s {
		if v != 0 {
			filled++
		}
	}
	if filled*filled <= len(s) {
		full = make([]uint64, 0, filled)
		for j, v := range s {
			if v != 0 {
				full = append(full, uint64(j))
			}
		}
	}
	keys := make([]uint32, x.cfg.Bands)
	for b := range keys {
		h := uint64(b+1) * golden
		for i := b * r; i < b*r+r; i++ {
			j := uint64(i)
			if s[i] == 0 {
				j = refLender(x.cfg, j, s, full)
			}
			h = mix(h ^ (j<<8 | uint64(s[j])))
		}
		keys[b] = uint32(h)
	}
	return keys
}

// best returns the stored page most similar to s (packed) at or above the
// threshold and their Similarity, or -1 if there is none; same reports
// that the page's sketch equals s.
func (x *refIndex) best(s []uint64, keys []uint32) (best int, sim float64, same bool) {
	if x.epoch++; x.epoch == 0 { // wrapped: forget the old marks
		for _, c := range x.chunks {
			if c != nil {
				clear(c.seen)
			}
		}
		x.epoch = 1
	}
	best, sim = -1, x.cfg.Threshold
	for b, key := range keys {
		p, ok := x.heads[b][key]
		for n := 0; ok && n < MaxChain && p >= x.first; n++ {
			c, i := x.at(p)
			if c.seen[i] != x.epoch {
				c.seen[i] = x.epoch
				if eq, all, ok := refCompare(s, x.sketch(c, i), x.maxMiss); ok {
					if all == eq { // the only stored copy: copies are not stored
						return int(p), 1, true
					}
					if si := diceOf(jaccardFrom(eq, all)); si > sim || (si == sim && (best < 0 || int(p) < best)) {
						best, sim = int(p), si
					}
				}
			}
			prev := c.next[i*len(keys)+b]
			p, ok = prev-1, prev != 0
		}
	}
	return best, sim, false
}

// Masks of the bytes of a word, for counting bytes that are not zero.
const (
	refLow7 = 0x7f7f7f7f7f7f7f7f
	refHigh = 0x8080808080808080
)

// refNonZero returns the number of bytes of w that are not zero.
func refNonZero(w uint64) int {
	return bits.OnesCount64(((w & refLow7) + refLow7 | w) & refHigh)
}

// refCompare counts, over the packed sketches a and b, the bins where they
// hold the same non-empty value (eq) and the bins not empty in both (n).
// It gives up, with ok false, once more than maxMiss bins disagree; most
// candidates do, so the empty bins are only counted for the others.
func refCompare(a, b []uint64, maxMiss int) (eq, n int, ok bool) {
	misses := 0
	b = b[:len(a)]
	for i, v := range a {
		if d := v ^ b[i]; d != 0 {
			if misses += refNonZero(d); misses > maxMiss {
				return 0, 0, false
			}
		}
	}
	n = 8 * len(a)
	for i, v := range a {
		n -= 8 - refNonZero(v|b[i])
	}
	return n - misses, n, true
}

// refPack puts eight bins in each word, so that sketches refCompare a word at a
// time.
func refPack(s Sketch) []uint64 {
	p := make([]uint64, len(s)/8)
	for i := range p {
		p[i] = binary.LittleEndian.Uint64(s[8*i:])
	}
	return p
}

// at returns the refChunk of page p and the page's place in it.
func (x *refIndex) at(p uint32) (*refChunk, int) { return x.chunks[p/chunkPages], int(p % chunkPages) }

// sketch returns the stored, packed sketch of page i of refChunk c.
func (x *refIndex) sketch(c *refChunk, i int) []uint64 {
	w := x.cfg.Hashes / 8
	return c.mins[i*w : i*w+w]
}

// insert stores a page and links it into each band's chain.
func (x *refIndex) insert(id, group uint64, s []uint64, keys []uint32) {
	p := x.stored
	x.stored++
	if p%chunkPages == 0 {
		x.chunks = append(x.chunks, &refChunk{
			ids: make([]uint64, 0, chunkPages), groups: make([]uint64, 0, chunkPages), seen: make([]uint32, 0, chunkPages),
			mins: make([]uint64, 0, chunkPages*len(s)), next: make([]uint32, 0, chunkPages*len(keys)),
		})
	}
	c := x.chunks[len(x.chunks)-1]
	c.ids, c.groups, c.seen = append(c.ids, id), append(c.groups, group), append(c.seen, 0)
	c.mins = append(c.mins, s...)
	for b, key := range keys {
		prev, ok := x.heads[b][key]
		link := uint32(0)
		if ok && prev >= x.first {
			link = prev + 1
		}
		c.next = append(c.next, link)
		x.heads[b][key] = p
	}
	x.forget()
}

// forget drops the oldest refChunk of pages once the window is exceeded by a
// whole refChunk, and sweeps the band heads of forgotten pages once a quarter
// of the window has gone, so that memory stays near the window's worth
// whatever the number of pages added.
func (x *refIndex) forget() {
	w := x.cfg.Window
	if w == 0 || int(x.stored-x.first) <= w+chunkPages {
		return
	}
	x.chunks[x.first/chunkPages] = nil
	x.first += chunkPages
	if x.dropped += chunkPages; x.dropped < w/4 {
		return
	}
	x.dropped = 0
	for _, h := range x.heads {
		for key, p := range h {
			if p < x.first {
				delete(h, key)
			}
		}
	}
}
