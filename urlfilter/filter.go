package urlfilter

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

// Filter holds the black and white lists and answers lookups. The zero
// value is an empty filter; it is safe for concurrent use, and lookups take
// no lock.
//
// Each list is paper 002's structure: a Bloom filter in front of the
// bitmap-bucket hash table of MD5 digests, sized for its number of entries
// (the sizes and their reasons are with shapeFor). A sieve over both lists
// stands in front of MD5 (see Lookup). The lists are held in an immutable
// snapshot: Load builds a new one beside the old, Update copies only the
// buckets and filter parts it changes, and either swaps the result in with
// one atomic store, so a lookup always sees a whole snapshot, old or new.
type Filter struct {
	snap atomic.Pointer[snapshot]
	mu   sync.Mutex // serializes Load and Update against each other
}

// snapshot is one immutable state of both lists.
type snapshot struct {
	lists [2]*table // Black, White
	sieve *sieve    // over both lists, in front of MD5
	cats  *catalog
	kinds kindStats
}

var emptySnapshot = NewBuilder(0).snapshot()

const unsafeSizeofSnapshot = unsafe.Sizeof(snapshot{})

// New returns an empty filter.
func New() *Filter { return &Filter{} }

func (f *Filter) load() *snapshot {
	if s := f.snap.Load(); s != nil {
		return s
	}
	return emptySnapshot
}

// Load replaces both lists with entries. The new lists are built beside
// the old ones, which keep answering until the swap. An entry of no list
// or of an unknown kind is refused (ErrEntry), as are more than
// MaxCategories categories; the filter is then unchanged. Of two entries
// with the same list, kind and value, the later one's category counts.
func (f *Filter) Load(entries []Entry) error {
	b := NewBuilder(len(entries))
	for _, e := range entries {
		if err := b.Add(e); err != nil {
			return err
		}
	}
	return f.LoadBuilder(b)
}

// LoadBuilder replaces both lists with the entries collected in b, like
// Load; b is not changed and may be added to and loaded again.
func (f *Filter) LoadBuilder(b *Builder) error {
	s := b.snapshot()
	f.mu.Lock()
	f.snap.Store(s)
	f.mu.Unlock()
	return nil
}

// Update removes, then adds entries (removal by list, kind and value; an
// added entry already listed takes the new category). It copies only the
// buckets and filter parts it touches, so a handful of entries costs about
// a tenth of a millisecond and 200 KB of garbage on lists of a million; a
// list grown a tenth past the size it was built for is rebuilt. An entry
// of no list or unknown kind, or a category beyond MaxCategories, is
// refused and nothing changes.
func (f *Filter) Update(add, remove []Entry) error {
	for _, e := range remove {
		if err := checkEntry(e); err != nil {
			return err
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	old := f.load()
	cats := old.cats
	tags := make([]uint8, len(add))
	for i, e := range add {
		if err := checkEntry(e); err != nil {
			return err
		}
		t, ok := cats.index[e.Category]
		if !ok {
			if cats == old.cats {
				cats = cats.clone()
			}
			var err error
			if t, err = cats.intern(e.Category); err != nil {
				return err
			}
		}
		tags[i] = t
	}
	s := &snapshot{lists: old.lists, sieve: old.sieve, cats: cats, kinds: old.kinds}
	var sieveParts map[int]bool
	var ws [2]*writer
	w := func(l List) *writer {
		if ws[l-1] == nil {
			ws[l-1] = newWriter(old.lists[l-1])
		}
		return ws[l-1]
	}
	for _, e := range remove {
		d := Key(e.Kind, e.Value)
		if w(e.List).remove(&d) {
			s.kinds.count(entryShape(e.Kind, e.Value), -1)
		}
	}
	for i, e := range add {
		d := Key(e.Kind, e.Value)
		if w(e.List).insert(&d, tags[i]) {
			continue // listed already: its sieve bits are set
		}
		s.kinds.count(entryShape(e.Kind, e.Value), 1)
		if sieveParts == nil {
			s.sieve, sieveParts = s.sieve.cow(), map[int]bool{}
		}
		s.sieve.add(s.sieve.hash(e.Kind, e.Value, ""), sieveParts)
	}
	for l, wr := range ws {
		if wr != nil {
			s.lists[l] = wr.done()
		}
	}
	f.snap.Store(s)
	return nil
}

// Len returns how many entries the lists hold (an entry on both lists
// counts twice).
func (f *Filter) Len() int {
	s := f.load()
	return s.lists[0].count + s.lists[1].count
}
