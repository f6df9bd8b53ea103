package urlfilter

import "unsafe"

// chained is the baseline of paper 002's experiment: a plain hash table of
// n buckets, each a linked list of nodes, searched from its head. It holds
// digests and tags like table does, and is only used to measure against.
type chained struct {
	heads []*node
	count int
}

type node struct {
	d    Digest
	tag  uint8
	next *node
}

// newChained returns an empty chained table of n buckets (at least 1).
func newChained(n int) *chained {
	return &chained{heads: make([]*node, max(n, 1))}
}

func (c *chained) head(d *Digest) **node {
	a, _ := halves(d)
	return &c.heads[reduce(a, uint64(len(c.heads)))]
}

// insert adds d with tag at the end of its chain, or replaces the tag of
// an equal digest found on the way.
func (c *chained) insert(d *Digest, tag uint8) {
	p := c.head(d)
	for ; *p != nil; p = &(*p).next {
		if (*p).d == *d {
			(*p).tag = tag
			return
		}
	}
	*p = &node{d: *d, tag: tag}
	c.count++
}

// push adds d with tag at the head of its chain, for a caller who knows d
// is not there yet: building a list of distinct digests this way costs
// O(1) per digest, where insert walks the chain.
func (c *chained) push(d *Digest, tag uint8) {
	p := c.head(d)
	*p = &node{d: *d, tag: tag, next: *p}
	c.count++
}

// lookup walks d's chain.
func (c *chained) lookup(d *Digest) (uint8, bool) {
	for e := *c.head(d); e != nil; e = e.next {
		if e.d == *d {
			return e.tag, true
		}
	}
	return 0, false
}

// lookupCount is lookup that also counts digest comparisons.
func (c *chained) lookupCount(d *Digest) (tag uint8, ok bool, comps int) {
	for e := *c.head(d); e != nil; e = e.next {
		comps++
		if e.d == *d {
			return e.tag, true, comps
		}
	}
	return 0, false, comps
}

// bytes is the memory c holds: the head array and one node per digest
// (24 bytes of fields, padded to 32 by the allocator's size class).
func (c *chained) bytes() int {
	const nodeAlloc = (unsafe.Sizeof(node{}) + 15) &^ 15
	return int(unsafe.Sizeof(*c)) + 8*cap(c.heads) + c.count*int(nodeAlloc)
}
