package urlnorm

import (
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/trawler/trawler/crawl/cputime"
)

// diffBases are the bases the differential tests resolve against: the
// usual kinds of page URL, and ones the Base cannot prepare (no host, an
// invalid host, another scheme, not absolute).
var diffBases = []string{
	"", "https://www.example.com/news/2024/05/article.html?page=2", rfcBase,
	"http://127.0.0.1:8080/p/12", "http://EXAMPLE.com:80/a/./b", "https://b.example:443",
	"http://Bücher.example/a/b", "http://xn--bcher-kva.example/", "http://[::1]:8080/a/b",
	"ftp://ftp.example.com/pub/", "http://u:p@example.com:8080/x", "http://example.com/x%2Fy/z",
	"http://a_b.example./", "http://10.0.0.1/", "http://0x7f.1/",
	"http:///nohost", "http://bad host/", "http://ex%41mple.com/", "http://ex:ample/", "http://example.com:99999/", "mailto:a@example.com",
	"/relative/base", "file:///etc/passwd",
}

// diffRefs are refs of every kind: canonical and not, absolute, from the
// root, relative, and ones to reject. The package's other tables are
// added to them.
var diffRefs = []string{
	"/", "/p/1", "/p/1?x=1", "/p/1?", "/p/1#f", "/p/./1", "/.well-known/x", "/a%2Fb", "/a%2fb",
	"/a%41b", "/a%7E", "/%", "/%4", "/a b", "/a\tb", "//host/x", "\\x", "/x?q=%C3%B6", "/x?q=ö",
	"/x?a?b", "https://www.example.com/", "https://www.example.com", "http://example.com:8080/x",
	"http://example.com:80/x", "http://example.com:080/x", "http://example.com:/x",
	"http://example.com:0/x", "http://example.com:65536/x", "ftp://example.com:21/x",
	"http://EXAMPLE.com/x", "HTTP://example.com/x", "http://example.com./x", "http://exa..mple/x",
	"http://xn--bcher-kva.example/", "http://xn--zz/", "http://1.2.3.4/", "http://1.2.3/",
	"http://a.123/", "http://123.a/", "http://-a.example/", "http://a_b.example/",
	"http://" + strings.Repeat("a", 63) + ".example/", "http://" + strings.Repeat("a", 64) + ".example/",
	"http://" + strings.Repeat("abcdefghi.", 26) + "com/", "http://[::1]/", "http://u@example.com/",
	"http://example.com/a/../b", "http://example.com/a/%2E%2E/b", "http://example.com/~u/",
	" http://example.com/x ", "http://example.com/x?", "http://example.com/x?#", "http:x", "https:x",
	"page.html", "../x", "?q", "#f", "", " ", "javascript:go()", "mailto:a@example.com",
	"http://example.com/" + strings.Repeat("a", DefaultMaxLength-19),
	"http://example.com/" + strings.Repeat("a", DefaultMaxLength-18),
	"/" + strings.Repeat("a", DefaultMaxLength-30),
}

// allRefs returns diffRefs and the refs and inputs of the package's other
// tables.
func allRefs() []string {
	refs := append([]string(nil), diffRefs...)
	for _, tc := range normalizeCases {
		refs = append(refs, tc.in)
	}
	for _, tc := range rfcCases {
		refs = append(refs, tc.ref)
	}
	for _, tc := range resolveCases {
		refs = append(refs, tc.ref)
	}
	return refs
}

// sameResult reports whether two results are the same text, or the same
// rejection.
func sameResult(got string, gotErr error, want string, wantErr error) bool {
	if gotErr == nil || wantErr == nil {
		return gotErr == wantErr && got == want
	}
	var g, w *Rejection
	return errors.As(gotErr, &g) && errors.As(wantErr, &w) && *g == *w && got == want
}

// checkSame fails t unless Resolve, Base.Resolve and, without a base,
// Normalize agree with the reference on base and ref, under o.
func checkSame(t testing.TB, o Options, base *url.URL, ref string) {
	t.Helper()
	want, wantErr := refRun(o, base, ref)
	if got, err := o.Resolve(base, ref); !sameResult(got, err, want, wantErr) {
		t.Fatalf("Resolve(%v, %.200q) = %.200q, %v; reference %.200q, %v", base, ref, got, err, want, wantErr)
	}
	if got, err := o.Base(base).Resolve(ref); !sameResult(got, err, want, wantErr) {
		t.Fatalf("Base(%v).Resolve(%.200q) = %.200q, %v; reference %.200q, %v", base, ref, got, err, want, wantErr)
	}
	if base == nil {
		if got, err := o.Normalize(ref); !sameResult(got, err, want, wantErr) {
			t.Fatalf("Normalize(%.200q) = %.200q, %v; reference %.200q, %v", ref, got, err, want, wantErr)
		}
	}
	if s := clean(ref); len(s) <= o.limit() && canonical(s) && (wantErr != nil || want != s) {
		t.Fatalf("%.200q passes as canonical, but normalizes to %.200q, %v", ref, want, wantErr)
	}
}

// parseBase returns the URL of a diffBases entry, nil for "". Those
// net/url refuses are put together by hand, as a caller could.
func parseBase(s string) *url.URL {
	if s == "" {
		return nil
	}
	if u, err := url.Parse(s); err == nil {
		return u
	}
	scheme, rest, _ := strings.Cut(s, "://")
	host, path, _ := strings.Cut(rest, "/")
	return &url.URL{Scheme: scheme, Host: host, Path: "/" + path}
}

// TestMatchesReference holds Normalize, Resolve and Base.Resolve to the
// code they replaced, for every ref of the tables against every base, and
// with a length limit that cuts through them.
func TestMatchesReference(t *testing.T) {
	refs := allRefs()
	for _, o := range []Options{{}, {MaxLength: 40}} {
		for _, bs := range diffBases {
			base := parseBase(bs)
			for _, ref := range refs {
				checkSame(t, o, base, ref)
			}
		}
	}
}

// TestCanonicalIsTaken checks that the fast paths are taken where they are
// meant to be, so the differential tests test them.
func TestCanonicalIsTaken(t *testing.T) {
	for _, s := range []string{
		"https://www.example.com/news/2024/05/article.html?page=2", "http://a_b.example:8080/x%2Fy",
		"ftp://ftp.example.com/pub/file.txt", "http://example.com/a?q=%C3%B6&b=c?d",
	} {
		if !canonical(s) {
			t.Errorf("canonical(%q) = false", s)
		}
	}
	b := Options{}.Base(parseBase("http://Example.COM:8080/a/b"))
	if b.prefix != "http://example.com:8080" {
		t.Errorf("Base prefix = %q", b.prefix)
	}
}

// FuzzMatchesReference compares Normalize, Resolve and Base.Resolve with
// the reference on arbitrary bases and refs:
//
//	go test -run '^$' -fuzz FuzzMatchesReference -fuzztime 3m ./crawl/urlnorm
func FuzzMatchesReference(f *testing.F) {
	refs := allRefs()
	for i, ref := range refs {
		f.Add(diffBases[i%len(diffBases)], ref, uint16(0))
	}
	f.Add("http://example.com/", "/x", uint16(25))
	f.Fuzz(func(t *testing.T, base, ref string, max uint16) {
		var u *url.URL
		if base != "" {
			var err error
			if u, err = url.Parse(base); err != nil {
				t.Skip()
			}
		}
		checkSame(t, Options{MaxLength: int(max)}, u, ref)
	})
}

// BenchmarkResolveLinks resolves the links of a typical page, one op per
// link: through the reference (as the crawler did before Base), through
// Options.Resolve and through one Base for the page, as the crawler does
// now. CPU time per op is reported besides wall time.
func BenchmarkResolveLinks(b *testing.B) {
	base := parseBase("https://www.example.com/news/2024/05/article.html?page=2")
	links := []string{
		"/", "/news/", "/section/4/", "/story/1234-567.html", "/tag/economy?page=3", "/p/12#comments",
		"article-2.html", "../04/older.html", "?page=3", "#top",
		"https://www.example.com/about", "https://cdn.example.net/js/app.js", "http://other.example/x?a=1&b=2",
		"HTTP://Example.com/a/./b/../c", "/search?q=caf%c3%a9", "mailto:news@example.com",
	}
	o := Options{}
	for _, impl := range []struct {
		name    string
		resolve func(ref string) (string, error)
	}{
		{"ref", func(ref string) (string, error) { return refRun(o, base, ref) }},
		{"Resolve", func(ref string) (string, error) { return o.Resolve(base, ref) }},
		{"Base", o.Base(base).Resolve},
	} {
		b.Run("impl="+impl.name, func(b *testing.B) {
			b.ReportAllocs()
			i, cpu := 0, cputime.Since()
			for b.Loop() {
				impl.resolve(links[i%len(links)])
				i++
			}
			b.ReportMetric(float64(cpu())/float64(b.N), "cpu-ns/op")
		})
	}
}
