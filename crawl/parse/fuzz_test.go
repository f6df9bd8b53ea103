package parse

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzHTML checks that no input panics and that every text field comes out
// normalized: valid UTF-8, no doubled, leading or trailing spaces, and
// reference texts within MaxRefText.
func FuzzHTML(f *testing.F) {
	pages, _ := filepath.Glob("testdata/*.html")
	for _, p := range pages {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{
		"", "<", "<a href", "<a href=x>", "<p>a<p>b", "<title>t", "<!--",
		"<script>", "<noscript><a href=/n>n</a>", "<template><a href=t>", "<svg><a href=s><title>x",
		"<applet code=c codebase=/>", "<img srcset=', , x 1x'>", "<meta http-equiv=refresh content='0;url=\"a'>",
		"<meta name=robots content='none'>", "a\u00a0\u00a0b", "\xff\xfe<p>\x00",
		strings.Repeat("<div>", 600), strings.Repeat("<a href=x><b>", 300),
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		d, err := HTML(body)
		if err != nil {
			return
		}
		for name, s := range map[string]string{
			"Title": d.Title, "Description": d.Description, "Keywords": d.Keywords,
			"Author": d.Author, "Text": d.Text,
		} {
			if NormalizeText(s) != s || !utf8.ValidString(s) || strings.Contains(s, "  ") {
				t.Errorf("%s not normalized: %q", name, s)
			}
		}
		for _, r := range d.Refs {
			if r.Href == "" || trim(r.Href) != r.Href {
				t.Errorf("bad Href %q", r.Href)
			}
			if len(r.Text) > MaxRefText || NormalizeText(r.Text) != r.Text || !utf8.ValidString(r.Text) {
				t.Errorf("bad ref text %q", r.Text)
			}
		}
	})
}
