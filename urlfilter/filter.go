package urlfilter

import (
	"crypto/md5"
	"strings"
	"sync"
	"sync/atomic"
)

// Filter holds the black and white lists and answers lookups. The zero
// value is an empty filter; it is safe for concurrent use, and lookups take
// no lock.
//
// Each list is paper 002's structure: a Bloom filter in front of the
// bitmap-bucket hash table of MD5 digests (see params.go for its sizes).
// The lists are held in an immutable snapshot: Load builds a new one beside
// the old, Update copies only the buckets and Bloom filter parts it
// changes, and either swaps the result in with one atomic store, so a
// lookup always sees a whole snapshot, old or new.
type Filter struct {
	snap atomic.Pointer[snapshot]
	mu   sync.Mutex // serializes Load and Update against each other
}

// snapshot is one immutable state of both lists.
type snapshot struct {
	lists [2]*table // Black, White
	cats  *catalog
	kinds kindStats
}

var emptySnapshot = NewBuilder(0).snapshot()

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
// added entry already listed takes the new category). It copies only what
// it touches, so a handful of entries costs microseconds whatever the size
// of the lists. An entry of no list or unknown kind, or a category beyond
// MaxCategories, is refused and nothing changes.
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
	s := &snapshot{lists: old.lists, cats: cats, kinds: old.kinds}
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
		if !w(e.List).insert(&d, tags[i]) {
			s.kinds.count(entryShape(e.Kind, e.Value), 1)
		}
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

// Lookup decides a URL: the exact URL, then its host and parent domains,
// then its path prefixes. A URL that cannot be normalized matches nothing.
func (f *Filter) Lookup(rawURL string) Match {
	s := f.load()
	u, ok := normalize(rawURL)
	if !ok {
		return Match{}
	}
	if s.kinds.urls > 0 {
		if l, tag, ok := s.probe(KindURL, u, ""); ok {
			return s.match(l, KindURL, u, tag)
		}
	}
	host, p := splitCanonical(u)
	if m, ok := s.findHost(host); ok {
		return m
	}
	segments := 0
	for i := 1; i <= len(p); i++ {
		if i == len(p) || p[i] == '/' {
			if i == len(p) && strings.HasSuffix(p, "/") {
				break
			}
			segments++
			if !s.kinds.hasPrefix(segments) {
				continue
			}
			if l, tag, ok := s.probe(KindPrefix, host, p[:i]); ok {
				return s.match(l, KindPrefix, host+p[:i], tag)
			}
		}
	}
	return Match{}
}

// LookupHost decides a host alone (an HTTPS CONNECT, where the path is not
// seen): its host entries and those of its parent domains.
func (f *Filter) LookupHost(host string) Match {
	h := strings.TrimSuffix(strings.ToLower(host), ".")
	if hn, _, ok := strings.Cut(h, ":"); ok && !strings.HasPrefix(h, "[") {
		h = hn
	}
	h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	m, _ := f.load().findHost(h)
	return m
}

func (s *snapshot) findHost(host string) (Match, bool) {
	labels := strings.Count(host, ".") + 1
	for h := host; h != ""; labels-- {
		if s.kinds.hasHost(labels) {
			if l, tag, ok := s.probe(KindHost, h, ""); ok {
				return s.match(l, KindHost, h, tag), true
			}
		}
		_, rest, ok := strings.Cut(h, ".")
		if !ok {
			break
		}
		h = rest
	}
	return Match{}, false
}

// probe looks the entry of kind k and value a+b up in the black list, then
// the white list. Both Bloom filters are asked before either table, so
// that their cache misses overlap.
func (s *snapshot) probe(k Kind, a, b string) (List, uint8, bool) {
	d := keyOf(k, a, b)
	black, white := s.lists[0], s.lists[1]
	inBlack, inWhite := black.front.test(&d), white.front.test(&d)
	if inBlack {
		if tag, ok := black.find(&d); ok {
			return Black, tag, true
		}
	}
	if inWhite {
		if tag, ok := white.find(&d); ok {
			return White, tag, true
		}
	}
	return None, 0, false
}

func (s *snapshot) match(l List, k Kind, v string, tag uint8) Match {
	return Match{Entry{List: l, Kind: k, Value: v, Category: s.cats.names[tag]}}
}

// keyOf is Key(k, a+b) without allocating for values up to 256 bytes.
func keyOf(k Kind, a, b string) Digest {
	var buf [256]byte
	x := append(buf[:0], kindPrefix(k), ':')
	x = append(x, a...)
	x = append(x, b...)
	return md5.Sum(x)
}
