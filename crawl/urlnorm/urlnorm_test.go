package urlnorm

import (
	"errors"
	"net/url"
	"strings"
	"testing"
)

var long = "http://example.com/" + strings.Repeat("a", DefaultMaxLength)

// normalizeCases are absolute URLs as seeds, redirects and links bring them.
var normalizeCases = []struct {
	name, in, want string
	reason         Reason
}{
	{name: "lower-case host", in: "http://Example.COM/", want: "http://example.com/"},
	{name: "lower-case scheme, empty path", in: "HTTP://example.com", want: "http://example.com/"},
	{name: "IDNA host", in: "http://Bücher.example/", want: "http://xn--bcher-kva.example/"},
	{name: "IDNA host japanese", in: "http://例え.テスト/", want: "http://xn--r8jz45g.xn--zckzah/"},
	{name: "IDNA full-width mapped", in: "http://ＥＸＡＭＰＬＥ.com/", want: "http://example.com/"},
	{name: "punycode kept", in: "http://XN--BCHER-KVA.example/", want: "http://xn--bcher-kva.example/"},
	{name: "underscore host", in: "http://my_host.example.com/", want: "http://my_host.example.com/"},
	{name: "double hyphen host", in: "http://r3---sn-ab.example.com/", want: "http://r3---sn-ab.example.com/"},
	{name: "escaped IDN host", in: "http://b%C3%BCcher.example/", want: "http://xn--bcher-kva.example/"},
	{name: "escaped host", in: "http://ex%41mple.com/", want: "http://example.com/"},
	{name: "trailing dot kept", in: "http://EXAMPLE.com./", want: "http://example.com./"},
	{name: "http default port", in: "http://example.com:80/", want: "http://example.com/"},
	{name: "https default port", in: "https://example.com:443/x", want: "https://example.com/x"},
	{name: "ftp default port", in: "ftp://example.com:21/pub", want: "ftp://example.com/pub"},
	{name: "ftp empty path", in: "FTP://example.com", want: "ftp://example.com/"},
	{name: "other port kept", in: "http://example.com:8080/", want: "http://example.com:8080/"},
	{name: "http port on https kept", in: "https://example.com:80/", want: "https://example.com:80/"},
	{name: "port leading zeros", in: "http://example.com:0080/", want: "http://example.com/"},
	{name: "port leading zeros kept", in: "http://example.com:08080/", want: "http://example.com:8080/"},
	{name: "empty port", in: "http://example.com:/", want: "http://example.com/"},
	{name: "userinfo dropped", in: "http://user:p%40ss@example.com/", want: "http://example.com/"},
	{name: "IPv4", in: "http://192.0.2.1:81/", want: "http://192.0.2.1:81/"},
	{name: "IPv6 with port", in: "http://[::1]:8080/x", want: "http://[::1]:8080/x"},
	{name: "IPv6 canonical", in: "http://[2001:DB8:0:0:0:0:0:1]/", want: "http://[2001:db8::1]/"},
	{name: "IPv6 default port", in: "http://[::1]:80", want: "http://[::1]/"},
	{name: "fragment dropped", in: "http://example.com/a#frag", want: "http://example.com/a"},
	{name: "empty query dropped", in: "http://example.com/a?", want: "http://example.com/a"},
	{name: "empty query before fragment", in: "http://example.com/a?#x", want: "http://example.com/a"},
	{name: "query without path", in: "http://example.com?x=1", want: "http://example.com/?x=1"},
	{name: "dot segments", in: "http://example.com/a/./b/../c", want: "http://example.com/a/c"},
	{name: "dot segments past root", in: "http://example.com/../../a", want: "http://example.com/a"},
	{name: "escaped dot segments", in: "http://example.com/a/%2e%2E/b/%2E", want: "http://example.com/b/"},
	{name: "empty segments kept", in: "http://example.com/a//b/../c", want: "http://example.com/a//c"},
	{name: "unreserved decoded", in: "http://example.com/%7euser/%41%62%2D%5f%2e", want: "http://example.com/~user/Ab-_."},
	{name: "reserved kept escaped", in: "http://example.com/a%2fb%3fc%3D", want: "http://example.com/a%2Fb%3Fc%3D"},
	{name: "reserved kept literal", in: "http://example.com/[a]:@!$&'()*+,;=", want: "http://example.com/[a]:@!$&'()*+,;="},
	{name: "space escaped", in: "http://example.com/a b", want: "http://example.com/a%20b"},
	{name: "non-ASCII escaped", in: "http://example.com/über", want: "http://example.com/%C3%BCber"},
	{name: "lower-case escape", in: "http://example.com/%c3%bc", want: "http://example.com/%C3%BC"},
	{name: "control escaped", in: "http://example.com/\x01\x7f", want: "http://example.com/%01%7F"},
	{name: "unsafe escaped", in: "http://example.com/{x}|^`\"<>", want: "http://example.com/%7Bx%7D%7C%5E%60%22%3C%3E"},
	{name: "lone percent", in: "http://example.com/100%", want: "http://example.com/100%25"},
	{name: "bad escape", in: "http://example.com/a%zzb%4", want: "http://example.com/a%25zzb%254"},
	{name: "query order kept", in: "http://example.com/?b=2&a=1&a=0", want: "http://example.com/?b=2&a=1&a=0"},
	{name: "query escapes", in: "http://example.com/?q=%7e%2f%2b+a b&z=ü", want: "http://example.com/?q=~%2F%2B+a%20b&z=%C3%BC"},
	{name: "query reserved", in: "http://example.com/a?x=[1]&y=?/:@", want: "http://example.com/a?x=[1]&y=?/:@"},
	{name: "query dots kept", in: "http://example.com/?p=./../x", want: "http://example.com/?p=./../x"},
	{name: "query backslash", in: "http://example.com/?p=a\\b", want: "http://example.com/?p=a%5Cb"},
	{name: "whitespace", in: " \t http://example.com/a\tb\nc\r\n ", want: "http://example.com/abc"},
	{name: "backslashes", in: "http:\\\\example.com\\a\\b", want: "http://example.com/a/b"},
	{name: "long within limit", in: long[:DefaultMaxLength], want: long[:DefaultMaxLength]},

	{name: "empty", in: "", reason: ReasonEmpty},
	{name: "blank", in: " \t\n", reason: ReasonEmpty},
	{name: "relative", in: "/a/b", reason: ReasonSyntax},
	{name: "no scheme", in: "://example.com/", reason: ReasonSyntax},
	{name: "javascript", in: "javascript:void(0)", reason: ReasonScheme},
	{name: "javascript split", in: "java\nscript:alert(1)", reason: ReasonScheme},
	{name: "mailto", in: "mailto:a@example.com", reason: ReasonScheme},
	{name: "tel", in: "tel:+15550100", reason: ReasonScheme},
	{name: "data", in: "data:text/plain,hi", reason: ReasonScheme},
	{name: "file", in: "file:///etc/passwd", reason: ReasonScheme},
	{name: "websocket", in: "ws://example.com/", reason: ReasonScheme},
	{name: "too long", in: long, reason: ReasonTooLong},
	{name: "no authority", in: "http:/example.com/", reason: ReasonHost},
	{name: "empty host", in: "http:///a", reason: ReasonHost},
	{name: "only userinfo", in: "http://user@/", reason: ReasonHost},
	{name: "space in host", in: "http://exa mple.com/", reason: ReasonHost},
	{name: "bad char in host", in: "http://exa<mple.com/", reason: ReasonHost},
	{name: "empty label", in: "http://a..example/", reason: ReasonHost},
	{name: "long label", in: "http://" + strings.Repeat("a", 64) + ".example/", reason: ReasonHost},
	{name: "bad IDNA", in: "http://xn--a.example/", reason: ReasonHost},
	{name: "host not UTF-8", in: "http://0\x86/", reason: ReasonHost},
	{name: "text after IPv6", in: "http://[::1]x/", reason: ReasonHost},
	{name: "two ports", in: "http://example.com:80:80/", reason: ReasonHost},
	{name: "bad host escape", in: "http://ex%zzample.com/", reason: ReasonHost},
	{name: "bad IPv4", in: "http://256.1.1.1/", reason: ReasonHost},
	{name: "IPv4 alias", in: "http://0x7f.0.0.1/", reason: ReasonHost},
	{name: "bad IPv6", in: "http://[::g]/", reason: ReasonHost},
	{name: "unclosed IPv6", in: "http://[::1/", reason: ReasonHost},
	{name: "IPv4 in brackets", in: "http://[192.0.2.1]/", reason: ReasonHost},
	{name: "IPv6 zone", in: "http://[fe80::1%25eth0]/", reason: ReasonHost},
	{name: "port too big", in: "http://example.com:65536/", reason: ReasonHost},
	{name: "port zero", in: "http://example.com:0/", reason: ReasonHost},
	{name: "port not numeric", in: "http://example.com:8x/", reason: ReasonHost},
	{name: "port negative", in: "http://example.com:-1/", reason: ReasonHost},
}

func TestNormalize(t *testing.T) {
	for _, tc := range normalizeCases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Normalize(tc.in)
			checkResult(t, got, err, tc.want, tc.reason)
		})
	}
}

func TestMaxLength(t *testing.T) {
	const u = "http://example.com/abc" // 22 bytes
	if got, err := (Options{MaxLength: 22}).Normalize(u); err != nil || got != u {
		t.Errorf("MaxLength 22: got %q, %v; want %q", got, err, u)
	}
	_, err := Options{MaxLength: 21}.Normalize(u)
	checkResult(t, "", err, "", ReasonTooLong)
	// The limit applies to the result, not the input.
	if _, err := (Options{MaxLength: 22}).Normalize("http://example.com:80/./abc#x"); err != nil {
		t.Errorf("shrinking URL: %v", err)
	}
}

// resolveCases are links as found on pages.
var resolveCases = []struct {
	name, base, ref, want string
	reason                Reason
}{
	{name: "sibling", base: "http://example.com/dir/page.html", ref: "img/x.png", want: "http://example.com/dir/img/x.png"},
	{name: "base without path", base: "http://example.com", ref: "x", want: "http://example.com/x"},
	{name: "scheme-relative", base: "https://example.com/a", ref: "//cdn.Example.com/x.js", want: "https://cdn.example.com/x.js"},
	{name: "fragment only", base: "http://example.com/a?q=1#top", ref: "#section", want: "http://example.com/a?q=1"},
	{name: "lone hash", base: "http://example.com/a", ref: "#", want: "http://example.com/a"},
	{name: "empty query", base: "http://example.com/a?q=1", ref: "?", want: "http://example.com/a"},
	{name: "whitespace around", base: "http://example.com/a/b", ref: " \n ../x\t ", want: "http://example.com/x"},
	{name: "newline inside", base: "http://example.com/a/", ref: "pa\nge.html", want: "http://example.com/a/page.html"},
	{name: "backslash path", base: "http://example.com/a/b", ref: "..\\c\\d", want: "http://example.com/c/d"},
	{name: "backslash scheme-relative", base: "http://example.com/", ref: "\\\\other.example\\x", want: "http://other.example/x"},
	{name: "absolute other host", base: "http://example.com/", ref: "HTTPS://B.example:443", want: "https://b.example/"},
	{name: "same scheme relative", base: "https://example.com/a/b", ref: "https:c", want: "https://example.com/a/c"},
	{name: "other scheme no authority", base: "http://example.com/a/b", ref: "https:c", reason: ReasonHost},
	{name: "IDN base", base: "http://Bücher.example/a/b", ref: "c", want: "http://xn--bcher-kva.example/a/c"},
	{name: "base userinfo and port", base: "http://u:p@example.com:8080/x", ref: "y", want: "http://example.com:8080/y"},
	{name: "IPv6 base", base: "http://[::1]:8080/a/b", ref: "../c", want: "http://[::1]:8080/c"},
	{name: "ftp base", base: "ftp://ftp.example.com/pub/", ref: "file.txt", want: "ftp://ftp.example.com/pub/file.txt"},
	{name: "escaped slash in base", base: "http://example.com/x%2Fy/z", ref: "w", want: "http://example.com/x%2Fy/w"},
	{name: "base dot segments", base: "http://example.com/a/./b/../c", ref: "d", want: "http://example.com/a/d"},
	{name: "escaped dots in ref", base: "http://example.com/a/b/c", ref: "%2E%2e/d", want: "http://example.com/a/d"},
	{name: "non-ASCII ref", base: "http://example.com/", ref: "straße?q=ö", want: "http://example.com/stra%C3%9Fe?q=%C3%B6"},
	{name: "query kept, base query dropped", base: "http://example.com/a?x=1", ref: "b?y=2&a=1", want: "http://example.com/b?y=2&a=1"},
	{name: "colon in later segment", base: "http://example.com/a/", ref: "./b:c", want: "http://example.com/a/b:c"},
	{name: "nil base absolute", ref: "http://example.com/a", want: "http://example.com/a"},

	{name: "empty ref", base: "http://example.com/", ref: "", reason: ReasonEmpty},
	{name: "blank ref", base: "http://example.com/", ref: " \t\r\n", reason: ReasonEmpty},
	{name: "mailto", base: "http://example.com/", ref: "mailto:a@example.com", reason: ReasonScheme},
	{name: "javascript", base: "http://example.com/", ref: " JavaScript:go()", reason: ReasonScheme},
	{name: "windows path", base: "http://example.com/", ref: "C:\\x.txt", reason: ReasonScheme},
	{name: "relative on mailto base", base: "mailto:a@example.com", ref: "x", reason: ReasonScheme},
	{name: "nil base relative", ref: "x", reason: ReasonSyntax},
	{name: "relative base", base: "/a/b", ref: "x", reason: ReasonSyntax},
	{name: "bad port", base: "http://example.com/", ref: "//example.com:99999/", reason: ReasonHost},
	{name: "too long", base: "http://example.com/", ref: strings.Repeat("a", DefaultMaxLength), reason: ReasonTooLong},
}

func TestResolve(t *testing.T) {
	for _, tc := range resolveCases {
		t.Run(tc.name, func(t *testing.T) {
			var base *url.URL
			if tc.base != "" {
				base = mustParse(t, tc.base)
			}
			got, err := Resolve(base, tc.ref)
			checkResult(t, got, err, tc.want, tc.reason)
		})
	}
}

// TestIdempotent checks Normalize(Normalize(x)) == Normalize(x) and that
// net/url reads every result back unchanged, over all valid cases.
func TestIdempotent(t *testing.T) {
	var outs []string
	for _, tc := range normalizeCases {
		outs = append(outs, tc.want)
	}
	for _, tc := range resolveCases {
		outs = append(outs, tc.want)
	}
	for _, tc := range rfcCases {
		outs = append(outs, tc.want)
	}
	n := 0
	for _, out := range outs {
		if out == "" {
			continue
		}
		n++
		checkCanonical(t, out)
	}
	if n < 100 {
		t.Errorf("only %d valid cases checked", n)
	}
}

func checkCanonical(t *testing.T, out string) {
	t.Helper()
	again, err := Normalize(out)
	if err != nil || again != out {
		t.Errorf("Normalize(%q) = %q, %v; want it unchanged", out, again, err)
	}
	u, err := url.Parse(out)
	if err != nil {
		t.Errorf("url.Parse(%q): %v", out, err)
		return
	}
	if s := u.String(); s != out {
		t.Errorf("url.Parse(%q).String() = %q", out, s)
	}
}

func TestHost(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"http://a.com/x", "a.com:80"},
		{"https://a.com/x", "a.com:443"},
		{"ftp://a.com/", "a.com:21"},
		{"http://a.com:8080/", "a.com:8080"},
		{"https://a.com:80/", "a.com:80"},
		{"http://[::1]/", "[::1]:80"},
		{"http://[::1]:8080/", "[::1]:8080"},
		{"http://a.com:/", "a.com:80"},
		{"HTTP://a.com/", "a.com:80"},
		{"gopher://a.com/", "a.com"},
	} {
		if got := Host(mustParse(t, tc.in)); got != tc.want {
			t.Errorf("Host(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestRejectionError(t *testing.T) {
	_, err := Normalize("mailto:a@example.com")
	var r *Rejection
	if !errors.As(err, &r) {
		t.Fatalf("Normalize(mailto) error %T %v, want *Rejection", err, err)
	}
	if got, want := err.Error(), `urlnorm: scheme: only http, https and ftp are crawled: "mailto:a@example.com"`; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	_, err = Normalize(long + "/" + strings.Repeat("b", 5000))
	if msg := err.Error(); len(msg) > 400 || !strings.Contains(msg, "too long") {
		t.Errorf("long rejection message %d bytes: %.100q", len(msg), msg)
	}
	names := map[string]bool{}
	for r := ReasonSyntax; r <= ReasonEmpty; r++ {
		names[r.String()] = true
	}
	if len(names) != 5 || names[Reason(0).String()] {
		t.Errorf("reason names not distinct: %v", names)
	}
}

func checkResult(t *testing.T, got string, err error, want string, reason Reason) {
	t.Helper()
	if reason == 0 {
		if err != nil || got != want {
			t.Errorf("got %q, %v; want %q", got, err, want)
		}
		return
	}
	var r *Rejection
	if !errors.As(err, &r) {
		t.Errorf("got %q, %v; want rejection %v", got, err, reason)
		return
	}
	if r.Reason != reason || got != "" {
		t.Errorf("got %q, %v; want rejection %v", got, err, reason)
	}
}
