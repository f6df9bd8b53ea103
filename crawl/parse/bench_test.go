package parse

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/trawler/trawler/crawl/testsite"
	"golang.org/x/net/html"
)

var words = strings.Fields(`the harbour ship crew tide weather morning market
	council school road bridge river festival north south report season
	museum library station garden storm repair ferry island quay lighthouse
	fishing boat sail cargo port crane dock evening rain wind sun`)

// benchPage builds a deterministic news-like page with about the given
// number of links: a head with meta data, a script and a style sheet, a
// navigation list, paragraphs with inline links and images, a table and a
// footer. benchPage(90) is about 34 KB with 100 references.
func benchPage(links int) []byte {
	rng := rand.New(rand.NewPCG(7, 11))
	sentence := func(b *strings.Builder, n int) {
		for i := range n {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(words[rng.IntN(len(words))])
		}
		b.WriteString(". ")
	}
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<title>Harbour News &mdash; page</title>
<meta name="description" content="Local news, weather &amp; tides.">
<meta name="keywords" content="harbour, news"><meta name="robots" content="index, follow">
<link rel="stylesheet" href="/static/site.css"><link rel="icon" href="/favicon.ico">
<script src="/static/app.js"></script>
<script>window.cfg = {"a": 1, "b": "<p>not text</p>"}; function f(x) { return x * 2 }</script>
<style>body { margin: 0 } .nav li { display: inline } p { line-height: 1.4 }</style>
</head><body>
<header><a href="/"><img src="/static/logo.png" alt="Harbour News"></a><nav><ul>
`)
	nav := links / 5
	for i := range nav {
		fmt.Fprintf(&b, "<li class=\"nav-item nav-item--%d\"><a class=\"nav-link\" href=\"/section/%d/\" title=\"Section %d\" data-track=\"nav-%d\">Section %d</a></li>\n", i, i, i, i, i)
	}
	b.WriteString("</ul></nav></header>\n<main class=\"container\"><div class=\"row\"><article class=\"col-8 story\"><h1 class=\"headline\">Headline of the day</h1>\n")
	for i := range links - nav {
		fmt.Fprintf(&b, "<div class=\"story-card\" id=\"story-%d\" data-id=\"%d\"><div class=\"story-card__body\"><p class=\"summary\">", i, i)
		sentence(&b, 6+rng.IntN(10))
		fmt.Fprintf(&b, `<a class="story-link" href="/story/%d.html" data-track="story-%d">more about the %s</a>&nbsp;here. `, i, i, words[rng.IntN(len(words))])
		sentence(&b, 3+rng.IntN(6))
		b.WriteString("</p><span class=\"meta\"><time datetime=\"2024-05-06T06:00:00Z\">6 May</time></span></div></div>\n")
		if i%10 == 0 {
			fmt.Fprintf(&b, "<figure class=\"photo\"><img src=\"/img/%d.jpg\" alt=\"Photo %d\" width=\"640\" height=\"360\" loading=\"lazy\"><figcaption>Photo %d</figcaption></figure>\n", i, i, i)
		}
	}
	b.WriteString("</article><aside class=\"col-4\"><table class=\"tides\">\n")
	for i := range 10 {
		fmt.Fprintf(&b, "<tr><th>Day %d</th><td>06:%02d</td><td>18:%02d</td></tr>\n", i, i*5, i*3)
	}
	b.WriteString("</table></aside></div></main><footer><p>&copy; Harbour News</p></footer></body></html>\n")
	return []byte(b.String())
}

// benchPages are the pages the HTML benchmarks parse: the crawler
// benchmark's page (about 4 KiB, 10 links, little markup) and news-like
// pages of about 5 KB and 34 KB with many attributes, scripts and tables.
var benchPages = []struct {
	name string
	page []byte
}{
	{"site-4KB", testsite.PeerHTML(7, 5000)},
	{"news-5KB", benchPage(10)},
	{"news-34KB", benchPage(90)},
}

// BenchmarkHTML parses each of benchPages; b.SetBytes makes the output
// report MB/s.
func BenchmarkHTML(b *testing.B) {
	for _, c := range benchPages {
		b.Run(c.name, func(b *testing.B) {
			d, err := HTML(c.page)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(len(d.Refs)), "refs")
			b.SetBytes(int64(len(c.page)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := HTML(c.page); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkTokenize is the floor under BenchmarkHTML: splitting the pages
// into tokens, with their names and text, and nothing else.
func BenchmarkTokenize(b *testing.B) {
	for _, c := range benchPages {
		b.Run(c.name, func(b *testing.B) {
			var z tokenizer
			var buf []byte
			b.SetBytes(int64(len(c.page)))
			b.ReportAllocs()
			for b.Loop() {
				z.reset(c.page)
				for tt := z.next(); tt != errorToken; tt = z.next() {
					switch tt {
					case textToken:
						z.text(&buf)
					case startTagToken, endTagToken, selfClosingTagToken:
						z.tagName(&buf)
					}
				}
			}
		})
	}
}

// BenchmarkTreeOnly is what the tree-builder version of this package
// (reference_test.go) could not go below: building x/net/html's tree for
// the 34 KB page, without the walk.
func BenchmarkTreeOnly(b *testing.B) {
	page := benchPage(90)
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := html.ParseWithOptions(bytes.NewReader(page), html.ParseOptionEnableScripting(false)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNormalizeText measures normalization of page-sized text that
// needs work (runs of mixed white space) and that needs none.
func BenchmarkNormalizeText(b *testing.B) {
	d, err := HTML(benchPage(90))
	if err != nil {
		b.Fatal(err)
	}
	messy := strings.ReplaceAll(d.Text, " ", " \n\t\u00a0")
	for _, c := range []struct{ name, s string }{{"messy", messy}, {"normal", d.Text}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.s)))
			b.ReportAllocs()
			for b.Loop() {
				NormalizeText(c.s)
			}
		})
	}
}
