// Package urlfilter is paper 002's URL filter: a black list and a white
// list of URLs, hosts and path prefixes, each kept as 16-byte MD5 digests,
// and a lookup that answers in a few hundred nanoseconds whether a URL is
// listed and by which entry.
//
// A lookup checks, in order, the exact URL, its host and each parent domain
// ("a.b.example.com", "b.example.com", "example.com"), then its path
// prefixes at segment boundaries ("example.com/a", "example.com/a/b", …).
// At each step the black list is asked before the white list, and the
// first step that matches decides: so an exact white entry lets one page
// through on a black-listed host.
//
// Filters are read without locks: Load and Update build a new snapshot
// beside the one in use and swap it in atomically, so lookups never wait
// for a reload. The package knows no SQL, HTTP server or window.
//
// Each list is kept as paper 002 proposes: MD5 digests in a hash table of
// buckets, each a bitmap beside a contiguous array of digests, with a
// Bloom filter in front, so that a URL on no list costs no digest
// comparison and a listed one a few. A sieve over both lists spares most
// lookups the MD5 digests themselves. A Builder loads large lists without
// keeping their strings; Stats tells their shape and memory; Experiment
// re-runs the paper's comparison with a plain chained hash table.
package urlfilter

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"

	"github.com/trawler/trawler/crawl/urlnorm"
)

// List names one of the two lists; None means a URL is on neither.
type List uint8

// The lists.
const (
	None List = iota
	Black
	White
)

func (l List) String() string {
	switch l {
	case Black:
		return "black"
	case White:
		return "white"
	}
	return "none"
}

// ParseList reads "black" or "white".
func ParseList(s string) (List, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "black", "blacklist", "block":
		return Black, nil
	case "white", "whitelist", "allow":
		return White, nil
	}
	return None, fmt.Errorf("unknown list %q: want black or white", s)
}

// Kind is what an entry covers.
type Kind uint8

// Entry kinds: one URL exactly; a host with all its subdomains; or every
// URL of one host whose path starts with a prefix (at a segment boundary).
const (
	KindURL Kind = iota + 1
	KindHost
	KindPrefix
)

func (k Kind) String() string {
	switch k {
	case KindURL:
		return "url"
	case KindHost:
		return "host"
	case KindPrefix:
		return "prefix"
	}
	return "unknown"
}

// Entry is one line of a list. Value is canonical: a normalized URL for
// KindURL, a lower-case host name without port for KindHost, and
// "host/path" without a trailing slash for KindPrefix. Category names what
// kind of content it stands for ("gambling"); per-client policies decide
// by it. An empty category is allowed.
type Entry struct {
	List     List
	Kind     Kind
	Value    string
	Category string
}

// String gives the entry as a list file line would write it.
func (e Entry) String() string { return e.Value }

// Match is the answer of a lookup: which list, and the entry that matched.
// List is None (and the rest empty) for a URL on neither list.
type Match struct {
	Entry
}

// Found reports whether the lookup matched an entry.
func (m Match) Found() bool { return m.List != None }

// Digest is the MD5 digest under which an entry is stored. Each kind hashes
// its value under its own prefix, so a host and a URL never share a digest.
type Digest [16]byte

// Key returns the digest of an entry of kind k with canonical value v.
func Key(k Kind, v string) Digest { return keyOf(k, v, "") }

// kindPrefix is the byte each kind's digests are taken under; an unknown
// kind gets '?', so that Key never panics (no entry of it can be listed).
func kindPrefix(k Kind) byte {
	if k < KindURL || k > KindPrefix {
		return '?'
	}
	return "UHP"[k-1]
}

// ErrEntry is matched by every error ParseEntry returns.
var ErrEntry = errors.New("not a list entry")

// ParseEntry reads one entry of list l as a person writes it: an absolute
// http(s) or ftp URL is an exact URL; a bare host ("example.com", or
// "*.example.com", or "example.com:8080" whose port is dropped) covers the
// host and its subdomains; "host/path" is a path prefix. An optional
// category follows after white space.
func ParseEntry(l List, line string) (Entry, error) {
	f := strings.Fields(line)
	if len(f) == 0 || len(f) > 2 {
		return Entry{}, fmt.Errorf("%w: want one URL, host or host/path and an optional category", ErrEntry)
	}
	e := Entry{List: l}
	if len(f) == 2 {
		e.Category = f[1]
	}
	v := f[0]
	if strings.Contains(v, "://") {
		u, err := urlnorm.Normalize(v)
		if err != nil {
			return Entry{}, fmt.Errorf("%w: %v", ErrEntry, err)
		}
		e.Kind, e.Value = KindURL, u
		return e, nil
	}
	v = strings.TrimPrefix(v, "*.")
	host, path, _ := strings.Cut(v, "/")
	if strings.ContainsAny(host, "@?#") {
		return Entry{}, fmt.Errorf("%w: %q is not a host name", ErrEntry, host)
	}
	if _, port, ok := strings.Cut(host, ":"); ok && !strings.HasPrefix(host, "[") && strings.Trim(port, "0123456789") != "" {
		return Entry{}, fmt.Errorf("%w: %q is not a host name", ErrEntry, host)
	}
	u, err := urlnorm.Normalize("http://" + host + "/" + path)
	if err != nil {
		return Entry{}, fmt.Errorf("%w: %v", ErrEntry, err)
	}
	pu, err := url.Parse(u)
	if err != nil {
		return Entry{}, fmt.Errorf("%w: %v", ErrEntry, err)
	}
	h := strings.TrimSuffix(pu.Hostname(), ".")
	p := strings.TrimSuffix(pu.EscapedPath(), "/")
	if p == "" {
		e.Kind, e.Value = KindHost, h
		return e, nil
	}
	e.Kind, e.Value = KindPrefix, h+p
	return e, nil
}

// ReadEntries reads a list file of list l: one entry per line as
// ParseEntry takes it, blank lines and lines starting with # skipped, a
// byte-order mark allowed. Entries without a category get category. Bad
// lines refuse the whole file: the error names each (ten at most) by name
// and line number.
func ReadEntries(name string, r io.Reader, l List, category string) ([]Entry, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	var es []Entry
	var bad []string
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(strings.TrimPrefix(sc.Text(), "\uFEFF"))
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		e, err := ParseEntry(l, line)
		if err != nil {
			if len(bad) < 10 {
				bad = append(bad, fmt.Sprintf("%s:%d: %v", name, n, err))
			}
			continue
		}
		if e.Category == "" {
			e.Category = category
		}
		es = append(es, e)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(bad) > 0 {
		return nil, fmt.Errorf("%w; fix these lines:\n  %s", ErrEntry, strings.Join(bad, "\n  "))
	}
	return es, nil
}

// WriteEntry writes e as a line ReadEntries reads back: the value, and
// its category after a space.
func WriteEntry(w io.Writer, e Entry) error {
	var err error
	if e.Category == "" {
		_, err = fmt.Fprintln(w, e.Value)
	} else {
		_, err = fmt.Fprintln(w, e.Value, e.Category)
	}
	return err
}
