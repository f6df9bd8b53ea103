package urlfilter

import (
	"net/url"
	"strings"
	"sync/atomic"

	"github.com/trawler/trawler/crawl/urlnorm"
)

// Filter holds the black and white lists and answers lookups. The zero
// value is an empty filter; it is safe for concurrent use, and lookups take
// no lock.
type Filter struct {
	snap atomic.Pointer[snapshot]
}

// snapshot is one immutable state of both lists.
type snapshot struct {
	entries map[Digest]Entry
}

// New returns an empty filter.
func New() *Filter { return &Filter{} }

func (f *Filter) load() *snapshot {
	if s := f.snap.Load(); s != nil {
		return s
	}
	return &snapshot{}
}

// Load replaces both lists with entries. The new lists are built beside
// the old ones, which keep answering until the swap.
func (f *Filter) Load(entries []Entry) error {
	s := &snapshot{entries: make(map[Digest]Entry, len(entries))}
	for _, e := range entries {
		s.entries[Key(e.Kind, e.Value)] = e
	}
	f.snap.Store(s)
	return nil
}

// Update adds and removes entries (removal by list, kind and value).
func (f *Filter) Update(add, remove []Entry) error {
	old := f.load()
	s := &snapshot{entries: make(map[Digest]Entry, len(old.entries)+len(add))}
	for d, e := range old.entries {
		s.entries[d] = e
	}
	for _, e := range remove {
		d := Key(e.Kind, e.Value)
		if cur, ok := s.entries[d]; ok && cur.List == e.List {
			delete(s.entries, d)
		}
	}
	for _, e := range add {
		s.entries[Key(e.Kind, e.Value)] = e
	}
	f.snap.Store(s)
	return nil
}

// Len returns how many entries the lists hold.
func (f *Filter) Len() int { return len(f.load().entries) }

// Lookup decides a URL: the exact URL, then its host and parent domains,
// then its path prefixes. A URL that cannot be normalized matches nothing.
func (f *Filter) Lookup(rawURL string) Match {
	s := f.load()
	u, err := urlnorm.Normalize(rawURL)
	if err != nil {
		return Match{}
	}
	if m, ok := s.find(KindURL, u); ok {
		return m
	}
	pu, err := url.Parse(u)
	if err != nil {
		return Match{}
	}
	host := strings.TrimSuffix(pu.Hostname(), ".")
	if m, ok := s.findHost(host); ok {
		return m
	}
	p := pu.EscapedPath()
	for i := 1; i <= len(p); i++ {
		if i == len(p) || p[i] == '/' {
			if i == len(p) && strings.HasSuffix(p, "/") {
				break
			}
			if m, ok := s.find(KindPrefix, host+p[:i]); ok {
				return m
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
	for h := host; h != ""; {
		if m, ok := s.find(KindHost, h); ok {
			return m, true
		}
		_, rest, ok := strings.Cut(h, ".")
		if !ok {
			break
		}
		h = rest
	}
	return Match{}, false
}

func (s *snapshot) find(k Kind, v string) (Match, bool) {
	e, ok := s.entries[Key(k, v)]
	if !ok {
		return Match{}, false
	}
	return Match{Entry: e}, true
}
