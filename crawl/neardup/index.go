package neardup

import (
	"encoding/binary"
	"math"
	"math/bits"
	"sync"
)

// MaxChain is the most pages, latest first, that Add compares among those
// sharing one band with the new page. It bounds the work per page when
// thousands of pages share a band (a site whose pages are mostly one
// template); a page whose only match is older than that many others in
// every band it shares is missed.
const MaxChain = 32

// chunkPages is the number of pages whose sketches share one allocation,
// so that a growing index never copies its whole store.
const chunkPages = 1024

// Match is a page's best match among the pages added before it.
type Match struct {
	ID         uint64  // the matching page's id
	Similarity float64 // their estimated Similarity, at least the Threshold
	// Group is the near-duplicate group the new page joins: the group of
	// its match, or the page's own id when it has none.
	Group uint64
}

// Index finds, for each page added, the most similar page added before it
// by locality-sensitive hashing over sketch bands. It is safe for
// concurrent use. Add is deterministic: adding the same sketches in the
// same order (as when a resumed crawl rebuilds the index from stored
// sketches) gives the same matches and groups.
type Index struct {
	cfg     Config
	maxMiss int // the most disagreeing bins a pair reaching the threshold can have

	lend *lenders // where the empty bins of the bands borrow from

	mu      sync.Mutex
	added   int
	stored  uint32   // pages stored, forgotten ones included; a page's number p counts them
	chunks  []*chunk // page p is in chunks[p/chunkPages]; nil once forgotten
	heads   []heads  // per band: key → the latest page with it
	epoch   uint32   // the number of the current Add, to compare each page once
	first   uint32   // the oldest page still held (a chunk's first)
	dropped int      // pages forgotten since the heads were last swept
}

// chunk holds chunkPages stored pages, so that a growing index never
// copies its whole store and a window can drop its oldest pages at once.
type chunk struct {
	ids    []uint64
	groups []uint64
	seen   []uint32 // per page: the epoch of the last Add that compared it
	mins   []uint64 // packed sketches, Hashes/8 words a page
	next   []uint32 // page × band: the previous page with the band's key, +1; 0 ends
}

// NewIndex returns an empty index matching pages at c.Threshold. It panics
// if c is invalid (see Config.Validate).
func NewIndex(c Config) *Index {
	c = c.mustValid()
	x := &Index{cfg: c, lend: c.lenders(), heads: make([]heads, c.Bands)}
	// A pair reaches the threshold only if at least a share p of the n
	// bins not empty in both agree, so at most (1-p)·n ≤ (1-p)·k disagree.
	p := jaccardOf(c.Threshold)*(1-chance) + chance
	x.maxMiss = int(math.Ceil((1-p)*float64(c.Hashes) + 1e-9))
	return x
}

// Held returns the number of pages the index holds for comparison: all
// those stored, or the latest Window of them (give or take a chunk).
func (x *Index) Held() int {
	x.mu.Lock()
	defer x.mu.Unlock()
	return int(x.stored - x.first)
}

// Len returns the number of pages added with a usable sketch.
func (x *Index) Len() int {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.added
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
func (x *Index) Add(id uint64, s Sketch) (match Match, ok bool) {
	own := Match{Group: id}
	if len(s) != x.cfg.Hashes {
		return own, false
	}
	var buf [maxStackBands]uint32
	keys := buf[:0]
	if x.cfg.Bands <= len(buf) {
		keys = buf[:x.cfg.Bands]
	} else {
		keys = make([]uint32, x.cfg.Bands)
	}
	x.keys(s, keys)
	x.mu.Lock()
	defer x.mu.Unlock()
	x.added++
	best, sim, same := x.best(s, keys)
	if best < 0 {
		x.insert(id, id, s, keys)
		return own, false
	}
	c, i := x.at(uint32(best))
	match = Match{ID: c.ids[i], Similarity: sim, Group: c.groups[i]}
	if !same {
		x.insert(id, match.Group, s, keys)
	}
	return match, true
}

// maxStackBands is the most bands whose keys Add keeps on its stack.
const maxStackBands = 64

// keys puts the hash of each band of s in keys. An empty bin takes the
// value of the bin it borrows from (lendSeq) and that bin's number, so
// that short pages, whose bins are mostly empty, still fall into bands
// with the pages that share their text and not with every short page.
func (x *Index) keys(s Sketch, keys []uint32) {
	r := x.cfg.Rows
	var buf [maxStackBins]uint32
	bins := buf[:0]
	if n := len(keys) * r; n <= len(buf) {
		bins = buf[:n]
	} else {
		bins = make([]uint32, n)
	}
	x.lend.fill(s, bins)
	for b := range keys {
		h := uint64(b+1) * golden
		for _, j := range bins[b*r : b*r+r] {
			h = mix(h ^ (uint64(j)<<8 | uint64(s[j])))
		}
		keys[b] = uint32(h)
	}
}

// best returns the stored page most similar to s at or above the
// threshold and their Similarity, or -1 if there is none; same reports
// that the page's sketch equals s.
func (x *Index) best(s Sketch, keys []uint32) (best int, sim float64, same bool) {
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
		p, ok := x.heads[b].get(key)
		for n := 0; ok && n < MaxChain && p >= x.first; n++ {
			c, i := x.at(p)
			if c.seen[i] != x.epoch {
				c.seen[i] = x.epoch
				if eq, all, ok := compare(s, x.sketch(c, i), x.maxMiss); ok {
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
	low7 = 0x7f7f7f7f7f7f7f7f
	high = 0x8080808080808080
)

// nonZero returns the number of bytes of w that are not zero.
func nonZero(w uint64) int {
	return bits.OnesCount64(((w & low7) + low7 | w) & high)
}

// compare counts, over the sketch a and the packed sketch b, the bins
// where they hold the same non-empty value (eq) and the bins not empty in
// both (n). It gives up, with ok false, once more than maxMiss bins
// disagree; most candidates do, so the empty bins are only counted for the
// others. a is read eight bins a word, as appendPacked packs them; the
// misses are checked four words at a time, which gives up at most three
// words later than checking each and so with the same outcome.
func compare(a Sketch, b []uint64, maxMiss int) (eq, n int, ok bool) {
	misses := 0
	a = a[:8*len(b)]
	i := 0
	for ; i+4 <= len(b); i += 4 {
		w := b[i : i+4 : i+4]
		misses += nonZero(binary.LittleEndian.Uint64(a[8*i:])^w[0]) +
			nonZero(binary.LittleEndian.Uint64(a[8*i+8:])^w[1]) +
			nonZero(binary.LittleEndian.Uint64(a[8*i+16:])^w[2]) +
			nonZero(binary.LittleEndian.Uint64(a[8*i+24:])^w[3])
		if misses > maxMiss {
			return 0, 0, false
		}
	}
	for ; i < len(b); i++ {
		misses += nonZero(binary.LittleEndian.Uint64(a[8*i:]) ^ b[i])
	}
	if misses > maxMiss {
		return 0, 0, false
	}
	n = 8 * len(b)
	for i, w := range b {
		n -= 8 - nonZero(binary.LittleEndian.Uint64(a[8*i:])|w)
	}
	return n - misses, n, true
}

// appendPacked appends s to p eight bins a word, so that sketches compare
// a word at a time.
func appendPacked(p []uint64, s Sketch) []uint64 {
	for i := 0; i+8 <= len(s); i += 8 {
		p = append(p, binary.LittleEndian.Uint64(s[i:]))
	}
	return p
}

// at returns the chunk of page p and the page's place in it.
func (x *Index) at(p uint32) (*chunk, int) { return x.chunks[p/chunkPages], int(p % chunkPages) }

// sketch returns the stored, packed sketch of page i of chunk c.
func (x *Index) sketch(c *chunk, i int) []uint64 {
	w := x.cfg.Hashes / 8
	return c.mins[i*w : i*w+w]
}

// insert stores a page and links it into each band's chain.
func (x *Index) insert(id, group uint64, s Sketch, keys []uint32) {
	p := x.stored
	x.stored++
	if p%chunkPages == 0 {
		x.chunks = append(x.chunks, &chunk{
			ids: make([]uint64, 0, chunkPages), groups: make([]uint64, 0, chunkPages), seen: make([]uint32, 0, chunkPages),
			mins: make([]uint64, 0, chunkPages*len(s)/8), next: make([]uint32, 0, chunkPages*len(keys)),
		})
	}
	c := x.chunks[len(x.chunks)-1]
	c.ids, c.groups, c.seen = append(c.ids, id), append(c.groups, group), append(c.seen, 0)
	c.mins = appendPacked(c.mins, s)
	for b, key := range keys {
		prev, ok := x.heads[b].put(key, p)
		link := uint32(0)
		if ok && prev >= x.first {
			link = prev + 1
		}
		c.next = append(c.next, link)
	}
	x.forget()
}

// forget drops the oldest chunk of pages once the window is exceeded by a
// whole chunk, and sweeps the band heads of forgotten pages once a quarter
// of the window has gone, so that memory stays near the window's worth
// whatever the number of pages added.
func (x *Index) forget() {
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
	for b := range x.heads {
		x.heads[b].sweep(x.first)
	}
}
