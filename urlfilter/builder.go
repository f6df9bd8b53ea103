package urlfilter

import (
	"errors"
	"fmt"
	"hash/maphash"
	"maps"
	"strings"
)

// MaxCategories is how many distinct non-empty categories a Filter holds:
// each entry keeps its category as a one-byte tag, not as a string.
const MaxCategories = 255

// ErrTooManyCategories is returned by Builder.Add, Load and Update when the
// entries name more than MaxCategories distinct categories.
var ErrTooManyCategories = errors.New("urlfilter: more than 255 distinct categories")

// catalog interns category names as tags; tag 0 is the empty category. A
// catalog reachable from a snapshot is never changed: Update extends a copy.
type catalog struct {
	names []string
	index map[string]uint8
}

func newCatalog() *catalog {
	return &catalog{names: []string{""}, index: map[string]uint8{"": 0}}
}

func (c *catalog) clone() *catalog {
	return &catalog{names: append([]string(nil), c.names...), index: maps.Clone(c.index)}
}

// intern returns name's tag, adding it if it is new.
func (c *catalog) intern(name string) (uint8, error) {
	if t, ok := c.index[name]; ok {
		return t, nil
	}
	if len(c.names) > MaxCategories {
		return 0, fmt.Errorf("%w: %q", ErrTooManyCategories, name)
	}
	t := uint8(len(c.names))
	c.names = append(c.names, strings.Clone(name))
	c.index[name] = t
	return t, nil
}

// maxDepth caps the label and segment counts kindStats keeps apart.
const maxDepth = 63

// kindStats counts the entries of both lists by kind and, for hosts, by
// number of labels ("a.example.com": 3) and, for prefixes, by number of
// slashes ("example.com/a/b": 2). A lookup skips every key whose count is
// zero: no listed entry can have its digest, so its MD5 and probes would be
// wasted. The counts are exact, kept by Load and Update as entries come and
// go, so skipping never misses a match.
type kindStats struct {
	urls     int32
	hosts    [maxDepth + 1]int32
	prefixes [maxDepth + 1]int32
}

// entryShape packs an entry's kind and depth into a byte for kindStats.
func entryShape(k Kind, v string) uint8 {
	switch k {
	case KindHost:
		return uint8(k)<<6 | uint8(min(strings.Count(v, ".")+1, maxDepth))
	case KindPrefix:
		return uint8(k)<<6 | uint8(min(strings.Count(v, "/"), maxDepth))
	}
	return uint8(k) << 6
}

func (k *kindStats) count(shape uint8, delta int32) {
	depth := shape & maxDepth
	switch Kind(shape >> 6) {
	case KindURL:
		k.urls += delta
	case KindHost:
		k.hosts[depth] += delta
	case KindPrefix:
		k.prefixes[depth] += delta
	}
}

func (k *kindStats) hasHost(labels int) bool     { return k.hosts[min(labels, maxDepth)] > 0 }
func (k *kindStats) hasPrefix(segments int) bool { return k.prefixes[min(segments, maxDepth)] > 0 }

// checkEntry refuses entries Load and Update cannot file.
func checkEntry(e Entry) error {
	if e.List != Black && e.List != White {
		return fmt.Errorf("%w: list %v: want black or white", ErrEntry, e.List)
	}
	if e.Kind < KindURL || e.Kind > KindPrefix {
		return fmt.Errorf("%w: kind %d: want url, host or prefix", ErrEntry, e.Kind)
	}
	return nil
}

// Builder collects entries for Filter.LoadBuilder without keeping their
// strings: each entry is reduced at once to its digest, a category tag and
// a one-byte shape and the sieve's 8-byte hash (26 bytes), so a
// million-entry list can be streamed from
// a file or a database into a filter without a million strings in memory.
// A Builder is not safe for concurrent use.
type Builder struct {
	items  [2][]slot
	shapes [2][]uint8
	hashes []uint64 // for the sieve
	seed   maphash.Seed
	cats   *catalog
}

// NewBuilder returns an empty Builder; hint is how many entries are
// expected (0 if unknown), to size its buffers once.
func NewBuilder(hint int) *Builder {
	b := &Builder{cats: newCatalog(), seed: maphash.MakeSeed()}
	if hint > 0 {
		for l := range b.items {
			b.items[l] = make([]slot, 0, hint/2)
			b.shapes[l] = make([]uint8, 0, hint/2)
		}
		b.hashes = make([]uint64, 0, hint)
	}
	return b
}

// Add adds one entry. It refuses entries of no list or of an unknown kind,
// and a category beyond MaxCategories; the Builder is unchanged then.
func (b *Builder) Add(e Entry) error {
	if err := checkEntry(e); err != nil {
		return err
	}
	tag, err := b.cats.intern(e.Category)
	if err != nil {
		return err
	}
	l := e.List - 1
	b.items[l] = append(b.items[l], slot{d: Key(e.Kind, e.Value), tag: tag})
	b.shapes[l] = append(b.shapes[l], entryShape(e.Kind, e.Value))
	b.hashes = append(b.hashes, sieveHash(b.seed, e.Kind, e.Value, ""))
	return nil
}

// Len returns how many entries were added (duplicates included).
func (b *Builder) Len() int { return len(b.items[0]) + len(b.items[1]) }

// snapshot builds both lists from b; b is left as it is.
func (b *Builder) snapshot() *snapshot {
	s := &snapshot{cats: b.cats.clone(), sieve: newSieve(len(b.hashes), b.seed)}
	for _, h := range b.hashes {
		s.sieve.add(h, nil)
	}
	for l := range b.items {
		shapes := b.shapes[l]
		for _, sh := range shapes {
			s.kinds.count(sh, 1)
		}
		dup := func(i int) { s.kinds.count(shapes[i], -1) }
		s.lists[l] = buildTable(shapeFor(len(b.items[l]), 0, true), b.items[l], dup)
	}
	return s
}
