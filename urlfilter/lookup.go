package urlfilter

import "strings"

// Lookup decides a URL: the exact URL, then its host and parent domains,
// then its path prefixes. A URL that cannot be normalized matches nothing.
//
// It asks only for keys some entry could have (by kind, number of host
// labels and of path segments), lets a sieve rule out most of those by a
// cheap hash of their text, and digests the rest with MD5 for the paper's
// Bloom filters and tables. An already-canonical URL skips urlnorm.
func (f *Filter) Lookup(rawURL string) Match {
	s := f.load()
	u, ok := normalize(rawURL)
	if !ok {
		return Match{}
	}
	var buf [batch]key
	keys := buf[:0]
	if s.kinds.urls > 0 {
		keys = append(keys, key{kind: KindURL, a: u})
	}
	host, p := splitCanonical(u)
	keys = s.hostKeys(keys, host)
	// Path prefixes end before each '/' but the first, and at the end of a
	// path that does not end with '/'.
	for i, segments := 1, 1; i <= len(p); i, segments = i+1, segments+1 {
		j := strings.IndexByte(p[i:], '/')
		if j < 0 {
			if i == len(p) {
				break
			}
			j = len(p) - i
		}
		i += j
		if s.kinds.hasPrefix(segments) {
			keys = append(keys, key{kind: KindPrefix, a: host, b: p[:i]})
		}
	}
	return s.decide(keys)
}

// LookupHost decides a host alone (an HTTPS CONNECT, where the path is not
// seen): its host entries and those of its parent domains.
func (f *Filter) LookupHost(host string) Match {
	h := strings.TrimSuffix(strings.ToLower(host), ".")
	if hn, _, ok := strings.Cut(h, ":"); ok && !strings.HasPrefix(h, "[") {
		h = hn
	}
	h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	s := f.load()
	var buf [batch]key
	return s.decide(s.hostKeys(buf[:0], h))
}

// key is one entry a lookup asks for, in the order of the lookup's steps:
// kind and value a+b, and its digest once computed.
type key struct {
	kind Kind
	a, b string
	d    Digest
}

// batch is how many keys decide handles at once; a URL rarely has more.
const batch = 16

// hostKeys appends the host keys of host and its parent domains that some
// entry could match (see kindStats).
func (s *snapshot) hostKeys(keys []key, host string) []key {
	labels := strings.Count(host, ".") + 1
	for h := host; h != ""; labels-- {
		if s.kinds.hasHost(labels) {
			keys = append(keys, key{kind: KindHost, a: h})
		}
		_, rest, ok := strings.Cut(h, ".")
		if !ok {
			break
		}
		h = rest
	}
	return keys
}

// decide returns the first key listed (black list before white list at
// each key) as a Match. The sieve rules out most keys first, at the cost
// of a cheap hash; the others are digested and asked of both lists' Bloom
// filters, then of the tables whose filter let them through.
func (s *snapshot) decide(keys []key) Match {
	black, white := s.lists[0], s.lists[1]
	for len(keys) > 0 {
		part := keys[:min(len(keys), batch)]
		var pass uint32
		for i := range part {
			pass |= b2u(s.sieve.test(s.sieve.hash(part[i].kind, part[i].a, part[i].b))) << i
		}
		for i := range part {
			if pass>>i&1 == 0 {
				continue
			}
			k := &part[i]
			k.d = keyOf(k.kind, k.a, k.b)
			inBlack, inWhite := black.front.test(&k.d), white.front.test(&k.d)
			if inBlack {
				if tag, ok := black.find(&k.d); ok {
					return s.match(Black, k, tag)
				}
			}
			if inWhite {
				if tag, ok := white.find(&k.d); ok {
					return s.match(White, k, tag)
				}
			}
		}
		keys = keys[len(part):]
	}
	return Match{}
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

func (s *snapshot) match(l List, k *key, tag uint8) Match {
	return Match{Entry{List: l, Kind: k.kind, Value: k.a + k.b, Category: s.cats.names[tag]}}
}
