package urlnorm

import (
	"net/url"
	"testing"
)

// rfcBase is the base URI of RFC 3986 §5.4.
const rfcBase = "http://a/b/c/d;p?q"

// rfcCases are every example of RFC 3986 §5.4.1 (normal) and §5.4.2
// (abnormal). Where this package departs from the RFC's stated result, the
// comment says why: fragments are dropped, the empty path of "http://g"
// becomes "/", the empty ref is rejected so parsers can skip it, "g:h" is not
// a crawlable scheme, and "http:g" takes the RFC's backward-compatible
// reading, as browsers do.
var rfcCases = []struct {
	ref, want string
	reason    Reason
}{
	// §5.4.1 normal examples.
	{ref: "g:h", reason: ReasonScheme}, // RFC: "g:h"
	{ref: "g", want: "http://a/b/c/g"},
	{ref: "./g", want: "http://a/b/c/g"},
	{ref: "g/", want: "http://a/b/c/g/"},
	{ref: "/g", want: "http://a/g"},
	{ref: "//g", want: "http://g/"}, // RFC: "http://g"
	{ref: "?y", want: "http://a/b/c/d;p?y"},
	{ref: "g?y", want: "http://a/b/c/g?y"},
	{ref: "#s", want: "http://a/b/c/d;p?q"}, // RFC: "...?q#s"
	{ref: "g#s", want: "http://a/b/c/g"},    // RFC: "...g#s"
	{ref: "g?y#s", want: "http://a/b/c/g?y"},
	{ref: ";x", want: "http://a/b/c/;x"},
	{ref: "g;x", want: "http://a/b/c/g;x"},
	{ref: "g;x?y#s", want: "http://a/b/c/g;x?y"},
	{ref: "", reason: ReasonEmpty}, // RFC: "http://a/b/c/d;p?q"
	{ref: ".", want: "http://a/b/c/"},
	{ref: "./", want: "http://a/b/c/"},
	{ref: "..", want: "http://a/b/"},
	{ref: "../", want: "http://a/b/"},
	{ref: "../g", want: "http://a/b/g"},
	{ref: "../..", want: "http://a/"},
	{ref: "../../", want: "http://a/"},
	{ref: "../../g", want: "http://a/g"},
	// §5.4.2 abnormal examples.
	{ref: "../../../g", want: "http://a/g"},
	{ref: "../../../../g", want: "http://a/g"},
	{ref: "/./g", want: "http://a/g"},
	{ref: "/../g", want: "http://a/g"},
	{ref: "g.", want: "http://a/b/c/g."},
	{ref: ".g", want: "http://a/b/c/.g"},
	{ref: "g..", want: "http://a/b/c/g.."},
	{ref: "..g", want: "http://a/b/c/..g"},
	{ref: "./../g", want: "http://a/b/g"},
	{ref: "./g/.", want: "http://a/b/c/g/"},
	{ref: "g/./h", want: "http://a/b/c/g/h"},
	{ref: "g/../h", want: "http://a/b/c/h"},
	{ref: "g;x=1/./y", want: "http://a/b/c/g;x=1/y"},
	{ref: "g;x=1/../y", want: "http://a/b/c/y"},
	{ref: "g?y/./x", want: "http://a/b/c/g?y/./x"},
	{ref: "g?y/../x", want: "http://a/b/c/g?y/../x"},
	{ref: "g#s/./x", want: "http://a/b/c/g"},  // RFC: "...g#s/./x"
	{ref: "g#s/../x", want: "http://a/b/c/g"}, // RFC: "...g#s/../x"
	{ref: "http:g", want: "http://a/b/c/g"},   // RFC: "http:g" strict, this for backward compatibility
}

func TestResolveRFC3986(t *testing.T) {
	base := mustParse(t, rfcBase)
	for _, tc := range rfcCases {
		t.Run(tc.ref, func(t *testing.T) {
			got, err := Resolve(base, tc.ref)
			checkResult(t, got, err, tc.want, tc.reason)
		})
	}
}

// TestAgreesWithNetURL cross-checks Resolve against net/url's
// ResolveReference (followed by Normalize) on the RFC examples. They agree
// except where this package deliberately reads "http:g" the non-strict way.
func TestAgreesWithNetURL(t *testing.T) {
	base := mustParse(t, rfcBase)
	for _, tc := range rfcCases {
		if tc.reason != 0 || tc.ref == "http:g" {
			continue
		}
		ref := mustParse(t, tc.ref)
		viaNetURL, err := Normalize(base.ResolveReference(ref).String())
		if err != nil || viaNetURL != tc.want {
			t.Errorf("net/url resolves %q to %q, %v; Resolve gives %q", tc.ref, viaNetURL, err, tc.want)
		}
	}
}

func mustParse(tb testing.TB, s string) *url.URL {
	tb.Helper()
	u, err := url.Parse(s)
	if err != nil {
		tb.Fatalf("url.Parse(%q): %v", s, err)
	}
	return u
}
