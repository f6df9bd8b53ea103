package urlfilter

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"strings"
	"testing"

	"github.com/trawler/trawler/crawl/urlnorm"
)

// reference is the filter as first written: one map per list, url.Parse,
// every key tried. Filter must answer exactly like it.
type reference struct {
	lists [2]map[Digest]Entry
}

func newReference() *reference {
	return &reference{lists: [2]map[Digest]Entry{{}, {}}}
}

func (r *reference) update(add, remove []Entry) {
	for _, e := range remove {
		delete(r.lists[e.List-1], Key(e.Kind, e.Value))
	}
	for _, e := range add {
		r.lists[e.List-1][Key(e.Kind, e.Value)] = e
	}
}

func (r *reference) len() int { return len(r.lists[0]) + len(r.lists[1]) }

func (r *reference) find(k Kind, v string) (Match, bool) {
	for _, l := range r.lists {
		if e, ok := l[Key(k, v)]; ok {
			return Match{Entry{List: e.List, Kind: k, Value: v, Category: e.Category}}, true
		}
	}
	return Match{}, false
}

func (r *reference) findHost(host string) (Match, bool) {
	for h := host; h != ""; {
		if m, ok := r.find(KindHost, h); ok {
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

func (r *reference) lookup(raw string) Match {
	u, err := urlnorm.Normalize(raw)
	if err != nil {
		return Match{}
	}
	if m, ok := r.find(KindURL, u); ok {
		return m
	}
	pu, err := url.Parse(u)
	if err != nil {
		return Match{}
	}
	host := strings.TrimSuffix(pu.Hostname(), ".")
	if m, ok := r.findHost(host); ok {
		return m
	}
	p := pu.EscapedPath()
	for i := 1; i <= len(p); i++ {
		if i == len(p) || p[i] == '/' {
			if i == len(p) && strings.HasSuffix(p, "/") {
				break
			}
			if m, ok := r.find(KindPrefix, host+p[:i]); ok {
				return m
			}
		}
	}
	return Match{}
}

// vocabulary for random lists and URLs that often hit them.
var (
	vocabHosts = []string{"example.com", "a.example.com", "b.a.example.com", "news.example",
		"shop.example.org", "com", "x.y.z.example.net", "127.0.0.1", "[::1]", "xn--bcher-kva.example"}
	vocabPaths = []string{"/", "/a", "/a/", "/a/b", "/a/b/c.html", "/private", "/privateer",
		"/private/x", "/a//b", "/%7Euser", "/~user/x", "/q?x=1", "/a/b?y=%2f"}
)

func randomEntry(rng *rand.Rand) Entry {
	l := List(1 + rng.IntN(2))
	cat := []string{"", "gambling", "news", "adult"}[rng.IntN(4)]
	host := vocabHosts[rng.IntN(len(vocabHosts))]
	path := vocabPaths[rng.IntN(len(vocabPaths))]
	var line string
	switch rng.IntN(3) {
	case 0:
		line = "http://" + host + path
	case 1:
		line = host
	default:
		line = host + strings.SplitN(path, "?", 2)[0]
	}
	e, err := ParseEntry(l, line+" "+cat)
	if err != nil {
		return Entry{List: l, Kind: KindHost, Value: "example.com", Category: cat}
	}
	return e
}

func randomURL(rng *rand.Rand) string {
	scheme := []string{"http://", "https://", "HTTP://", "ftp://"}[rng.IntN(4)]
	host := vocabHosts[rng.IntN(len(vocabHosts))]
	if rng.IntN(3) == 0 {
		host = fmt.Sprintf("h%d.unlisted.test", rng.IntN(100))
	}
	if rng.IntN(4) == 0 {
		host = strings.ToUpper(host[:1]) + host[1:]
	}
	if rng.IntN(5) == 0 {
		host += []string{":80", ":8080", ":443", "."}[rng.IntN(4)]
	}
	return scheme + host + vocabPaths[rng.IntN(len(vocabPaths))] + []string{"", "#f", "/./x", "/../"}[rng.IntN(4)]
}

// TestLookupAgainstReference loads, updates and looks up random entries
// and URLs, checking every answer against the reference filter, and that
// an updated filter answers like one loaded with the same entries.
func TestLookupAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	f, ref := New(), newReference()
	var initial []Entry
	for range 40 {
		initial = append(initial, randomEntry(rng))
	}
	if err := f.Load(initial); err != nil {
		t.Fatal(err)
	}
	ref.update(initial, nil)
	rounds := 300
	if raceEnabled {
		rounds = 100
	}
	found, looked := 0, 0
	for round := range rounds {
		var add, remove []Entry
		for range rng.IntN(6) {
			add = append(add, randomEntry(rng))
		}
		for range rng.IntN(6) {
			remove = append(remove, randomEntry(rng))
		}
		if err := f.Update(add, remove); err != nil {
			t.Fatal(err)
		}
		ref.update(add, remove)
		if f.Len() != ref.len() {
			t.Fatalf("round %d: Len %d, want %d", round, f.Len(), ref.len())
		}
		for range 30 {
			u := randomURL(rng)
			got, want := f.Lookup(u), ref.lookup(u)
			if got != want {
				t.Fatalf("round %d: Lookup(%q) = %+v, want %+v", round, u, got, want)
			}
			looked++
			if got.Found() {
				found++
			}
		}
		h := vocabHosts[rng.IntN(len(vocabHosts))]
		if got, want := f.LookupHost("www."+h), func() Match { m, _ := ref.findHost("www." + h); return m }(); got != want {
			t.Fatalf("round %d: LookupHost(www.%s) = %+v, want %+v", round, h, got, want)
		}
	}
	if found < looked/10 || found > looked*9/10 {
		t.Fatalf("%d of %d lookups matched: the test exercises too little", found, looked)
	}
	// The same entries, loaded at once.
	var all []Entry
	for _, l := range ref.lists {
		for _, e := range l {
			all = append(all, e)
		}
	}
	g := New()
	if err := g.Load(all); err != nil {
		t.Fatal(err)
	}
	for range 2000 {
		u := randomURL(rng)
		if a, b := f.Lookup(u), g.Lookup(u); a != b {
			t.Fatalf("Lookup(%q): updated filter %+v, loaded filter %+v", u, a, b)
		}
	}
}

func mustParse(t *testing.T, l List, lines ...string) []Entry {
	t.Helper()
	var out []Entry
	for _, line := range lines {
		e, err := ParseEntry(l, line)
		if err != nil {
			t.Fatalf("ParseEntry(%q): %v", line, err)
		}
		out = append(out, e)
	}
	return out
}

func TestHostEntriesCoverSubdomains(t *testing.T) {
	f := New()
	if err := f.Load(mustParse(t, Black, "example.com ads", "*.tracker.example", "10.0.0.1")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		url, value string
	}{
		{"http://example.com/", "example.com"},
		{"http://www.example.com/x", "example.com"},
		{"https://a.b.c.d.example.com:8443/x?y", "example.com"},
		{"http://EXAMPLE.COM./", "example.com"},
		{"http://tracker.example/", "tracker.example"},
		{"http://x.tracker.example/", "tracker.example"},
		{"http://10.0.0.1/", "10.0.0.1"},
		{"http://notexample.com/", ""},
		{"http://example.com.evil.net/", ""},
		{"http://example.co/", ""},
		{"http://110.0.0.1/", ""},
	} {
		m := f.Lookup(c.url)
		if m.Value != c.value || (c.value != "") != (m.List == Black) || c.value != "" && m.Kind != KindHost {
			t.Errorf("Lookup(%q) = %+v, want host %q", c.url, m, c.value)
		}
	}
	if m := f.Lookup("http://www.example.com/"); m.Category != "ads" {
		t.Errorf("category %q", m.Category)
	}
	for host, want := range map[string]string{"sub.example.com": "example.com", "EXAMPLE.com:443": "example.com", "example.org": ""} {
		if m := f.LookupHost(host); m.Value != want {
			t.Errorf("LookupHost(%q) = %+v, want %q", host, m, want)
		}
	}
}

func TestPrefixesAtSegmentBoundaries(t *testing.T) {
	f := New()
	if err := f.Load(mustParse(t, Black, "example.com/private", "example.com/a/b/", "example.com/x%2Fy")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		url, value string
	}{
		{"http://example.com/private", "example.com/private"},
		{"http://example.com/private/", "example.com/private"},
		{"http://example.com/private/deep/er?q=1", "example.com/private"},
		{"https://www.example.com/private", ""}, // prefixes are per host
		{"http://example.com/privateer", ""},
		{"http://example.com/privat", ""},
		{"http://example.com/pri%76ate", "example.com/private"}, // %76 is 'v'
		{"http://example.com/a/b/c", "example.com/a/b"},
		{"http://example.com/a/bc", ""},
		{"http://example.com/x%2Fy/z", "example.com/x%2Fy"},
		{"http://example.com/x/y/z", ""},
		{"http://example.com/", ""},
	} {
		m := f.Lookup(c.url)
		if m.Value != c.value || (c.value != "") != (m.Kind == KindPrefix) {
			t.Errorf("Lookup(%q) = %+v, want prefix %q", c.url, m, c.value)
		}
	}
}

func TestBlackBeforeWhite(t *testing.T) {
	f := New()
	entries := append(mustParse(t, White, "example.com ok", "http://example.com/page"), mustParse(t, Black, "example.com bad")...)
	if err := f.Load(entries); err != nil {
		t.Fatal(err)
	}
	if m := f.Lookup("http://example.com/x"); m.List != Black || m.Category != "bad" {
		t.Errorf("host on both lists: %+v", m)
	}
	if m := f.Lookup("http://example.com/page"); m.List != White || m.Kind != KindURL {
		t.Errorf("exact white URL on a black host: %+v", m)
	}
	if err := f.Update(nil, mustParse(t, Black, "example.com")); err != nil {
		t.Fatal(err)
	}
	if m := f.Lookup("http://example.com/x"); m.List != White || m.Category != "ok" {
		t.Errorf("after removing the black entry: %+v", m)
	}
}

// TestJunk: nothing panics on junk, and bad entries change nothing.
func TestJunk(t *testing.T) {
	f := New()
	if err := f.Load(mustParse(t, Black, "example.com")); err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"", " ", "http://", "://", "http:///x", "http://[::1", "http://a b/", "javascript:alert(1)",
		"http://%zz/", "http://example.com:99999/", "\x00\xff", strings.Repeat("a", 5000), "http://" + strings.Repeat("a.", 200) + "/"} {
		if m := f.Lookup(u); m.Found() {
			t.Errorf("Lookup(%q) = %+v", u, m)
		}
	}
	for _, h := range []string{"", ".", ":", "[", "]", "[::1", "a:b:c"} {
		f.LookupHost(h)
	}
	for _, k := range []Kind{0, 4, 255} {
		Key(k, "x")
	}
	for _, e := range []Entry{{List: None, Kind: KindHost, Value: "a"}, {List: Black, Kind: 0, Value: "a"}, {List: 7, Kind: KindURL}} {
		if err := f.Load([]Entry{e}); !errors.Is(err, ErrEntry) {
			t.Errorf("Load(%+v) = %v", e, err)
		}
		if err := f.Update([]Entry{e}, nil); !errors.Is(err, ErrEntry) {
			t.Errorf("Update(add %+v) = %v", e, err)
		}
		if err := f.Update(nil, []Entry{e}); !errors.Is(err, ErrEntry) {
			t.Errorf("Update(remove %+v) = %v", e, err)
		}
	}
	if f.Len() != 1 || !f.Lookup("http://example.com/").Found() {
		t.Errorf("bad entries changed the filter: Len %d", f.Len())
	}
	var zero Filter
	if zero.Lookup("http://example.com/").Found() || zero.Len() != 0 {
		t.Error("zero Filter is not empty")
	}
}

func TestCategories(t *testing.T) {
	f := New()
	var entries []Entry
	for i := range MaxCategories {
		entries = append(entries, Entry{List: Black, Kind: KindHost, Value: fmt.Sprintf("h%d.example", i), Category: fmt.Sprintf("c%d", i)})
	}
	if err := f.Load(entries); err != nil {
		t.Fatal(err)
	}
	for i := range MaxCategories {
		if m := f.Lookup(fmt.Sprintf("http://h%d.example/", i)); m.Category != fmt.Sprintf("c%d", i) {
			t.Fatalf("entry %d: %+v", i, m)
		}
	}
	extra := Entry{List: White, Kind: KindHost, Value: "more.example", Category: "one-too-many"}
	if err := f.Update([]Entry{extra}, nil); !errors.Is(err, ErrTooManyCategories) {
		t.Errorf("Update with category 256: %v", err)
	}
	if err := f.Load(append(entries, extra)); !errors.Is(err, ErrTooManyCategories) {
		t.Errorf("Load with category 256: %v", err)
	}
	if f.Lookup("http://more.example/").Found() || f.Len() != MaxCategories {
		t.Error("refused entry was filed")
	}
	// Re-adding with another known category retags the entry.
	if err := f.Update([]Entry{{List: Black, Kind: KindHost, Value: "h0.example", Category: "c7"}}, nil); err != nil {
		t.Fatal(err)
	}
	if m := f.Lookup("http://h0.example/"); m.Category != "c7" || f.Len() != MaxCategories {
		t.Errorf("retagged: %+v, Len %d", m, f.Len())
	}
}
