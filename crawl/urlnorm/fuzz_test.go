package urlnorm

import (
	"errors"
	"net/url"
	"testing"
)

// FuzzNormalize checks that Normalize never panics, rejects only with a
// *Rejection of a known reason, and returns canonical text: idempotent,
// within the length limit, and read back unchanged by net/url.
func FuzzNormalize(f *testing.F) {
	for _, tc := range normalizeCases {
		f.Add(tc.in)
	}
	for _, tc := range rfcCases {
		f.Add(rfcBase[:len("http://a/b/c/")] + tc.ref)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out, err := Normalize(in)
		if err != nil {
			var r *Rejection
			if !errors.As(err, &r) || r.Reason < ReasonSyntax || r.Reason > ReasonEmpty || out != "" {
				t.Fatalf("Normalize(%q) = %q, %v", in, out, err)
			}
			return
		}
		if len(out) > DefaultMaxLength {
			t.Fatalf("Normalize(%q) = %d bytes", in, len(out))
		}
		checkCanonical(t, out)
	})
}

// FuzzResolve checks the same properties for refs resolved against a page.
func FuzzResolve(f *testing.F) {
	for _, tc := range rfcCases {
		f.Add(tc.ref)
	}
	for _, tc := range resolveCases {
		f.Add(tc.ref)
	}
	base, err := url.Parse("https://example.com/dir/page.html?q=1")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, ref string) {
		out, err := Resolve(base, ref)
		if err != nil {
			var r *Rejection
			if !errors.As(err, &r) || out != "" {
				t.Fatalf("Resolve(%q) = %q, %v", ref, out, err)
			}
			return
		}
		checkCanonical(t, out)
	})
}
