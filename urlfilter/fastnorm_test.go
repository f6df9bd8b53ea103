package urlfilter

import (
	"math/rand/v2"
	"net/url"
	"strings"
	"testing"

	"github.com/trawler/trawler/crawl/urlnorm"
)

// Pieces of URLs, many of them just off the canonical form.
var (
	fnSchemes = []string{"http://", "https://", "ftp://", "HTTP://", "Http://", "http:/", "mailto:", "", " http://"}
	fnHosts   = []string{"example.com", "a.example.com", "Example.com", "x_y.example", "a-b.example", "xn--bcher-kva.example",
		"XN--bcher-kva.example", "example.com.", ".example.com", "a..b", "1.2.3.4", "1.2.3.256", "010.1.1.1", "a.123", "123.a",
		"[::1]", "[2001:DB8::1]", "ex%61mple.com", "bücher.example", "user:pw@example.com", strings.Repeat("a", 63) + ".com",
		strings.Repeat("a", 64) + ".com", strings.Repeat("abcdefgh.", 28) + "com", "", "com", "_", "-a.com"}
	fnPorts = []string{"", ":80", ":443", ":21", ":8080", ":08080", ":0", ":65535", ":65536", ":99999", ":", ":x", ":123456"}
	fnPaths = []string{"", "/", "/a", "/a/", "/a/b.html", "/./a", "/a/.", "/a/..", "/a/../b", "/.a", "/..a/", "/a./b",
		"/%7Euser", "/%7euser", "/%2F", "/%2f", "/%41", "/%zz", "/%", "/%4", "/a b", "/a\tb", "/\\a", "/ü", "/a;b=c",
		"/@:!$&'()*+,;=", "/[x]", "/a|b", "/a^b", "/a\"b", "/a#", "/a#b", "/~a-b_c.d"}
	fnQueries = []string{"", "?", "?a=1", "?a=1&b=2", "?a/b?c", "?%2f", "?%2F", "?%41", "?a b", "?a#b", "?x=%zz", "?ü", "?a|b"}
)

func randomPieceURL(rng *rand.Rand) string {
	pick := func(s []string) string { return s[rng.IntN(len(s))] }
	return pick(fnSchemes) + pick(fnHosts) + pick(fnPorts) + pick(fnPaths) + pick(fnQueries)
}

// checkFast checks the fast path's promise for one input, and that
// splitCanonical reads every normalized URL as net/url does.
func checkFast(t *testing.T, s string) (fast, unchanged bool) {
	t.Helper()
	u, err := urlnorm.Normalize(s)
	fast = canonical(s)
	if fast && (err != nil || u != s) {
		t.Fatalf("canonical(%q) but Normalize gives %q, %v", s, u, err)
	}
	got, ok := normalize(s)
	if ok != (err == nil) || got != u {
		t.Fatalf("normalize(%q) = %q %v, Normalize %q %v", s, got, ok, u, err)
	}
	if err != nil {
		return fast, false
	}
	pu, err := url.Parse(u)
	if err != nil {
		t.Fatalf("url.Parse(%q): %v", u, err)
	}
	host, path := splitCanonical(u)
	if want := strings.TrimSuffix(pu.Hostname(), "."); host != want || path != pu.EscapedPath() {
		t.Fatalf("splitCanonical(%q) = %q %q, want %q %q", u, host, path, want, pu.EscapedPath())
	}
	return fast, u == s
}

func TestCanonicalAgreesWithUrlnorm(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	n := 200_000
	if raceEnabled {
		n = 20_000
	}
	fast, unchanged := 0, 0
	for range n {
		s := randomPieceURL(rng)
		if u, err := urlnorm.Normalize(s); err == nil && rng.IntN(2) == 0 {
			s = u // canonical by definition
		}
		f, u := checkFast(t, s)
		if f {
			fast++
		}
		if u {
			unchanged++
		}
	}
	t.Logf("%d URLs: %d canonical, %d of them recognized by the fast path", n, unchanged, fast)
	if fast < unchanged/2 {
		t.Errorf("the fast path recognizes only %d of %d canonical URLs", fast, unchanged)
	}
	for _, s := range []string{"https://www.example.com/news/2024/05/article.html?page=2", "http://example.com/",
		"ftp://files.example.org:2121/pub/", "http://a.example/%2F/~x?q=%2F&r=a/b?c"} {
		if !canonical(s) {
			t.Errorf("canonical(%q) = false", s)
		}
	}
}

func FuzzCanonical(f *testing.F) {
	rng := rand.New(rand.NewPCG(4, 4))
	for range 200 {
		f.Add(randomPieceURL(rng))
	}
	f.Fuzz(func(t *testing.T, s string) { checkFast(t, s) })
}
