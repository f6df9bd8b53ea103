package crawl

import (
	"strings"
	"testing"
)

// refSplitHost is splitHost as it was at commit 259d8fa, before it sliced
// the host key out of the URL when the port is there: the reference
// TestSplitHostMatchesReference and FuzzSplitHost hold it to.
func refSplitHost(u string) (name, hostport string) {
	scheme, rest, ok := strings.Cut(u, "://")
	if !ok {
		return "", ""
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.LastIndexByte(rest, '@'); i >= 0 {
		rest = rest[i+1:]
	}
	host, port := rest, ""
	if i := strings.LastIndexByte(rest, ':'); i >= 0 && !strings.Contains(rest[i:], "]") {
		host, port = rest[:i], rest[i+1:]
	}
	if port == "" {
		port = defaultPort(scheme)
	}
	name = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	return name, host + ":" + port
}

// splitHostRefs are URLs for the splitHost differential tests: normalized
// ones and odd ones it must still treat as before.
var splitHostRefs = []string{
	"http://a.com/x", "https://a.com", "http://a.com:8080/x?y", "ftp://files.a.com/pub/",
	"http://[::1]:8080/", "http://[::1]/", "http://[::1]:/", "http://127.0.0.1:5/", "nonsense",
	"://x", "://x:1/", "http://a.com:/", "http://u:p@a.com/", "http://u:p@a.com:81/",
	"http://a.com#f:1", "http://a.com?q:1", "https://[fe80::1%25en0]:443/", "", ":///",
	"http://a:b:c/", "http://]:1/", "http://[::1]x/",
}

// checkSplitHost fails t unless splitHost and hostName agree with the
// reference on u.
func checkSplitHost(t testing.TB, u string) {
	t.Helper()
	name, hp := splitHost(u)
	wantName, wantHP := refSplitHost(u)
	if name != wantName || hp != wantHP {
		t.Fatalf("splitHost(%q) = %q, %q; reference %q, %q", u, name, hp, wantName, wantHP)
	}
	if got := hostName(u); got != wantName {
		t.Fatalf("hostName(%q) = %q; reference %q", u, got, wantName)
	}
}

func TestSplitHostMatchesReference(t *testing.T) {
	for _, u := range splitHostRefs {
		checkSplitHost(t, u)
	}
}

// FuzzSplitHost compares splitHost and hostName with the reference:
//
//	go test -run '^$' -fuzz FuzzSplitHost -fuzztime 3m ./crawl
func FuzzSplitHost(f *testing.F) {
	for _, u := range splitHostRefs {
		f.Add(u)
	}
	f.Fuzz(func(t *testing.T, u string) { checkSplitHost(t, u) })
}
