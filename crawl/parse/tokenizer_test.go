package parse

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// tokenizerCases are inputs that exercise the tokenizer's corners.
var tokenizerCases = []string{
	"", "a", "<", "<a", "</", "</>", "<!", "<!-", "<!--", "<!-->", "<!--->", "<!-- a -- b --!>c",
	"<!--a--!", "<!--a--", "<!--a-", "<?xml version='1.0'?>x", "<!DOCTYPE html>", "<!doctype html public \"-//W3C//DTD HTML 4.01//EN\">",
	"<!DOCTY", "<!DOCTYPE", "<![CDATA[x]]>y", "<![CDATA[x", "<![CDAT", "a<b>c</b>d", "<a href=x>", "<A HREF='X' Title=\"t\">",
	"<a href=x/>", "<br/>", "<br />", "<p a=/>", "<p a='/'/>", "<a b c=d e = 'f' g=\"h\"i>", "<a =x>", "<a ==x>", "<a/b/c>",
	"<a href=x href=y HREF=z>", "<a B=1 b=2>", "<a \x00=1 \x00=2>", "<a\x00b c\x00=d\x00>", "<x y='\r\n'>", "<x y=\"&amp;&lt&gtx&amp=&notit;&#65;&#x41;&#0;&#x110000;&#128;\">",
	"a&amp;b&lt;c&gt&notit;&notin;&ampx&#38;&#x26&#;&#x;&&;&bogus;&hearts;&NotANameAtAll;d", "&fjlig;&nGt;&ThickSpace;",
	"<title>a<b>&amp;</title>c", "<TITLE>x</TiTlE >y", "<textarea>\r\nx</textarea>", "<script>a</script>", "<script>a</scriptx>b</script>",
	"<script><!--<script>x</script>-->y</script>z", "<script><!-- a -- > </script>", "<script><!--<script></script></script>x",
	"<script><!--x", "<script>", "<style>p{}</style>", "<style>", "<iframe><a></iframe>", "<noembed>x</noembed>", "<noframes>x",
	"<noscript><a></noscript>", "<xmp><b></xmp>", "<plaintext><a></plaintext>x", "<a\nhref\n=\nx\n>", "<a href=\"x", "<a href='x",
	"<a href=x", "<a href", "<a ", "</a b=c>", "</a", "</ x>", "</\x00>", "<\x00>", "a\x00b", "a\rb\r\nc\n\rd", "<p\x00>x</p\x00>",
	"<a href=\"\r\n&#13;\">", strings.Repeat("<a b=1 ", 40) + ">", "<a " + strings.Repeat("x=1 X=2 ", 30) + ">",
	"<svg><![CDATA[a<b>]]></svg>", "<math><![CDATA[\x00&amp;]]>", "<table><td>x", "\xff\xfe<p>\x80</p>", "<é>x</é>",
}

// TestTokenizerMatchesXNet compares every token with x/net/html's
// Tokenizer, on the cases above, the golden pages and a benchmark page,
// with the tree builder's two controls (NextIsNotRawText after some start
// tags, CDATA allowed or not) driven the same way on both.
func TestTokenizerMatchesXNet(t *testing.T) {
	inputs := append([]string(nil), tokenizerCases...)
	pages, _ := filepath.Glob("testdata/*.html")
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, string(b))
	}
	inputs = append(inputs, string(benchPage(30)))
	for i, in := range inputs {
		for policy := range 3 {
			if err := compareTokens([]byte(in), policy); err != nil {
				t.Errorf("case %d (%.60q) policy %d: %v", i, in, policy, err)
			}
		}
	}
}

// FuzzTokenizer keeps comparing the two tokenizers on fuzzed input.
func FuzzTokenizer(f *testing.F) {
	for _, s := range tokenizerCases {
		f.Add([]byte(s), uint8(1))
	}
	f.Fuzz(func(t *testing.T, in []byte, policy uint8) {
		if err := compareTokens(in, int(policy)); err != nil {
			t.Fatal(err)
		}
	})
}

// compareTokens tokenizes in with both tokenizers. policy 0 leaves the
// controls alone; otherwise NextIsNotRawText follows some start tags and
// CDATA is allowed on some tokens, chosen from the token's position.
func compareTokens(in []byte, policy int) error {
	x := html.NewTokenizer(bytes.NewReader(in))
	var z tokenizer
	z.reset(in)
	var buf []byte
	for n := 0; ; n++ {
		cdata := policy != 0 && (n*7+policy)%3 == 0
		x.AllowCDATA(cdata)
		z.allowCDATA = cdata
		xt := x.Next()
		zt := z.next()
		if got, want := zt, fromXNet(xt); got != want {
			return fmt.Errorf("token %d: type %d, want %d (raw %q)", n, got, want, x.Raw())
		}
		if got, want := z.in[z.raw:z.pos], x.Raw(); !bytes.Equal(got, want) {
			return fmt.Errorf("token %d: raw %q, want %q", n, got, want)
		}
		if xt == html.ErrorToken {
			return nil
		}
		tok := x.Token()
		if got, want := describe(&z, &buf), describeXNet(tok); got != want {
			return fmt.Errorf("token %d: %s, want %s", n, got, want)
		}
		if policy != 0 && xt == html.StartTagToken && (n+policy)%2 == 0 {
			x.NextIsNotRawText()
			z.notRawText()
		}
	}
}

func fromXNet(tt html.TokenType) tokenType {
	switch tt {
	case html.TextToken:
		return textToken
	case html.StartTagToken:
		return startTagToken
	case html.EndTagToken:
		return endTagToken
	case html.SelfClosingTagToken:
		return selfClosingTagToken
	case html.CommentToken:
		return commentToken
	case html.DoctypeToken:
		return doctypeToken
	}
	return errorToken
}

// describe renders the current token as describeXNet renders x/net's.
func describe(z *tokenizer, buf *[]byte) string {
	switch z.tt {
	case textToken, commentToken, doctypeToken:
		return fmt.Sprintf("data %q", z.text(buf))
	}
	name, a := z.tagName(buf)
	s := fmt.Sprintf("tag %q atom %v", name, a)
	if z.tt == endTagToken {
		return s
	}
	for i := range z.attrs {
		var kb, vb []byte
		s += fmt.Sprintf(" %q=%q", z.attrName(i, &kb), z.attrVal(i, &vb))
	}
	return s
}

func describeXNet(tok html.Token) string {
	switch tok.Type {
	case html.TextToken, html.CommentToken, html.DoctypeToken:
		return fmt.Sprintf("data %q", tok.Data)
	}
	s := fmt.Sprintf("tag %q atom %v", tok.Data, tok.DataAtom)
	if tok.Type == html.EndTagToken {
		return s
	}
	for _, a := range tok.Attr {
		s += fmt.Sprintf(" %q=%q", a.Key, a.Val)
	}
	return s
}

// TestEntities checks each reference this package knows against
// x/net/html, in text and in attributes.
func TestEntities(t *testing.T) {
	for name, r := range entities {
		if got := html.UnescapeString("&" + name); got != string(r) {
			t.Errorf("&%s: x/net/html says %q, entities %q", name, got, r)
		}
	}
	if n := len(entities) - 2*106; n != len(commonNames) {
		t.Errorf("%d names beyond the 106 legacy ones, want %d", n, len(commonNames))
	}
	for c := 0x80; c <= 0x9F; c++ {
		ref := fmt.Sprintf("&#%d;", c)
		if got, want := html.UnescapeString(ref), string(win1252[c-0x80]); got != want {
			t.Errorf("%s: x/net/html says %q, win1252 %q", ref, got, want)
		}
	}
}

// TestLegacyNamesComplete reads x/net/html's entity table from its source
// and checks that the names it knows without a semicolon are exactly this
// package's legacy names, and that every two-rune name has a semicolon:
// decodeReference relies on both to decode those names without it.
func TestLegacyNamesComplete(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "golang.org/x/net").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	src, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "html", "entity.go"))
	if err != nil {
		t.Skip(err)
	}
	key := regexp.MustCompile(`(?m)^\t"([^"]+)":`)
	var legacy []string
	for _, m := range key.FindAllStringSubmatch(string(src), -1) {
		if !strings.HasSuffix(m[1], ";") {
			legacy = append(legacy, m[1])
		}
	}
	var ours []string
	for name := range entities {
		if !strings.HasSuffix(name, ";") {
			ours = append(ours, name)
		}
	}
	slices.Sort(legacy)
	slices.Sort(ours)
	if !slices.Equal(legacy, ours) {
		t.Errorf("x/net/html's names without a semicolon:\n%q\nours:\n%q", legacy, ours)
	}
}
