package neardup

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/trawler/trawler/crawl/cputime"
	"github.com/trawler/trawler/crawl/parse"
)

var sinkSketch Sketch

// textOfSize returns page text of about n bytes.
func textOfSize(rng *rand.Rand, n int) string {
	var b strings.Builder
	for b.Len() < n {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(vocab[rng.IntN(len(vocab))])
	}
	return b.String()
}

// BenchmarkSketch sketches typical 10 KB page texts (about 1,650 words),
// 1 KB ones and a three-word one that is all densification. It cycles
// through 64 different texts: on one text repeated, the branch predictor
// learns the word lengths and the figure is about a third too good.
func BenchmarkSketch(b *testing.B) {
	rng := rand.New(rand.NewPCG(10, 10))
	for _, tc := range []struct {
		name string
		size int
	}{{"10KB", 10_000}, {"1KB", 1_000}, {"3words", 0}} {
		texts := make([]string, 64)
		for i := range texts {
			texts[i] = textOfSize(rng, tc.size)
		}
		if tc.size == 0 {
			texts = []string{"page not found"}
		}
		b.Run(tc.name, func(b *testing.B) {
			c := DefaultConfig()
			b.SetBytes(int64(len(texts[0])))
			b.ReportAllocs()
			i, cpu := 0, cputime.Since()
			for b.Loop() {
				sinkSketch = c.Sketch(texts[i%len(texts)])
				i++
			}
			b.ReportMetric(float64(cpu().Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}

// articlePage returns a text-heavy article page of about 30 KB, half of it
// text: a head with meta data, scripts and styles, a navigation bar of 40
// links, 22 paragraphs with inline links and images, a related-articles
// list and a footer.
func articlePage(rng *rand.Rand) []byte {
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<title>An article &mdash; Example News</title><meta name="description" content="A news article.">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/css/site.css"><link rel="icon" href="/favicon.ico">
<script src="/js/app.js" defer></script><script>window.dataLayer=[];function gtag(){dataLayer.push(arguments)}</script>
<style>body{font:16px/1.5 serif;margin:0}.nav a{padding:0 8px}article p{max-width:40em}</style>
</head><body><header class="site-header"><nav class="nav"><ul>`)
	for i := range 40 {
		fmt.Fprintf(&b, `<li class="nav-item"><a class="nav-link" href="/section/%d/">%s</a></li>`+"\n", i, vocab[i])
	}
	b.WriteString(`</ul></nav></header><main><article class="story"><h1>` + textOfSize(rng, 60) + "</h1>\n")
	for i := range 22 {
		b.WriteString(`<p class="para">`)
		for range 5 {
			fmt.Fprintf(&b, `%s <a href="/story/%d-%d.html" class="inline">%s</a> `, textOfSize(rng, 90), i, rng.IntN(1000), textOfSize(rng, 15))
		}
		b.WriteString("</p>\n")
		if i%3 == 0 {
			fmt.Fprintf(&b, `<figure><img src="/img/%d.jpg" alt="%s" width="800" height="450" loading="lazy"><figcaption>%s</figcaption></figure>`+"\n",
				i, textOfSize(rng, 30), textOfSize(rng, 50))
		}
	}
	b.WriteString(`</article><aside class="related"><h2>Related</h2><ul>`)
	for i := range 30 {
		fmt.Fprintf(&b, `<li><a href="/story/related-%d.html" title="%s">%s</a> <span class="date">2024-05-%02d</span></li>`+"\n",
			i, textOfSize(rng, 30), textOfSize(rng, 40), 1+i%28)
	}
	b.WriteString(`</ul></aside></main><footer class="site-footer"><p>` + textOfSize(rng, 200) +
		`</p><p><a href="/about">About</a> <a href="/contact">Contact</a> <a href="/privacy">Privacy</a></p></footer></body></html>`)
	return []byte(b.String())
}

// portalPage returns a markup-heavy front page of about 30 KB, a quarter of
// it text: navigation with icons, 36 story cards (image with srcset,
// title, summary, date, tracking attributes) and a footer of links.
func portalPage(rng *rand.Rand) []byte {
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Example Portal</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="stylesheet" href="/css/portal.css">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"WebSite","name":"Example","url":"https://example.com/"}</script>
</head><body class="home"><header class="hdr"><nav class="hdr__nav" aria-label="Main"><ul class="hdr__list">`)
	for i := range 24 {
		fmt.Fprintf(&b, `<li class="hdr__item"><a class="hdr__link" href="/s/%d/" data-track="nav-%d"><svg class="icon" width="16" height="16" viewBox="0 0 16 16" aria-hidden="true"><path d="M2 2h12v12H2z"/></svg><span>%s</span></a></li>`+"\n", i, i, vocab[i])
	}
	b.WriteString(`</ul></nav></header><main class="grid">`)
	for i := range 36 {
		fmt.Fprintf(&b, `<div class="card card--story" data-id="%d" data-track="card-%d"><a class="card__media" href="/story/%d.html"><img class="card__img" src="/img/%d-400.jpg" srcset="/img/%d-800.jpg 2x" alt="%s" width="400" height="225" loading="lazy"></a>`+
			`<div class="card__body"><h3 class="card__title"><a href="/story/%d.html">%s</a></h3><p class="card__summary">%s</p><time class="card__date" datetime="2024-05-06">6 May</time></div></div>`+"\n",
			i, i, i, i, i, textOfSize(rng, 20), i, textOfSize(rng, 40), textOfSize(rng, 110))
	}
	b.WriteString(`</main><footer class="ftr"><ul class="ftr__links">`)
	for i := range 30 {
		fmt.Fprintf(&b, `<li class="ftr__item"><a class="ftr__link" href="/page/%d">%s</a></li>`, i, vocab[100+i])
	}
	b.WriteString(`</ul><p class="ftr__legal">` + textOfSize(rng, 300) + `</p></footer></body></html>`)
	return []byte(b.String())
}

// BenchmarkParseVsSketch sets sketching a page's text against parsing the
// page with crawl/parse, the engine's other CPU cost per page besides
// fetching, for two kinds of 30 KB page, 16 different pages of each in
// turn. Each case parses and sketches every page, as the engine does,
// timing the two apart (ns-parse, ns-sketch per page), and reports sketch
// time as a percentage of parse time (sketch-%).
func BenchmarkParseVsSketch(b *testing.B) {
	for _, kind := range []struct {
		name string
		page func(*rand.Rand) []byte
	}{{"article", articlePage}, {"portal", portalPage}} {
		rng := rand.New(rand.NewPCG(30, 30))
		pages := make([][]byte, 16)
		size, text := 0, 0
		for i := range pages {
			pages[i] = kind.page(rng)
			doc, err := parse.HTML(pages[i])
			if err != nil {
				b.Fatal(err)
			}
			size += len(pages[i])
			text += len(doc.Text)
		}
		b.Run(kind.name, func(b *testing.B) {
			c := DefaultConfig()
			var parsing, sketching time.Duration
			i := 0
			for b.Loop() {
				t0 := time.Now()
				d, err := parse.HTML(pages[i%len(pages)])
				t1 := time.Now()
				if err != nil {
					b.Fatal(err)
				}
				sinkSketch = c.Sketch(d.Text)
				parsing += t1.Sub(t0)
				sketching += time.Since(t1)
				i++
			}
			n := float64(b.N)
			b.ReportMetric(float64(size/len(pages)), "page-B")
			b.ReportMetric(float64(text/len(pages)), "text-B")
			b.ReportMetric(float64(parsing.Nanoseconds())/n, "ns-parse")
			b.ReportMetric(float64(sketching.Nanoseconds())/n, "ns-sketch")
			b.ReportMetric(100*float64(sketching)/float64(parsing), "sketch-%")
		})
	}
}

// siteCorpus returns the texts of n pages of one site: a shared header and
// footer of 120 words, 200 to 1,500 words of content, and every tenth
// page a near-copy of an earlier one (one tenth of its words rewritten
// at random would be too many; one in a hundred is).
func siteCorpus(n int) []string {
	rng := rand.New(rand.NewPCG(77, 77))
	chrome := randomWords(rng, 120)
	head, foot := strings.Join(chrome[:80], " "), strings.Join(chrome[80:], " ")
	bodies := make([][]string, 0, n)
	texts := make([]string, 0, n)
	for i := range n {
		var body []string
		if i%10 == 9 {
			orig := bodies[rng.IntN(len(bodies))]
			body = editWords(rng, orig, len(orig)/100)
		} else {
			body = randomWords(rng, 200+rng.IntN(1300))
		}
		bodies = append(bodies, body)
		texts = append(texts, head+" "+strings.Join(body, " ")+" "+foot)
	}
	return texts
}

// templateCorpus returns n pages that are mostly one template: 800 words
// shared by all and 200 of their own, so any two have a Similarity of
// about 0.8, just under the threshold, and share a band half the time.
func templateCorpus(n int) []string {
	rng := rand.New(rand.NewPCG(88, 88))
	shared := strings.Join(randomWords(rng, 800), " ")
	texts := make([]string, n)
	for i := range texts {
		texts[i] = shared + " " + strings.Join(randomWords(rng, 200), " ")
	}
	return texts
}

// BenchmarkIndexAdd adds 10,000 sketched pages to a new index per
// operation and reports the time per page (ns/page), the matches found
// and the heap the index holds per page (B/page).
func BenchmarkIndexAdd(b *testing.B) {
	const n = 10_000
	c := DefaultConfig()
	for _, tc := range []struct {
		name   string
		corpus func(int) []string
	}{{"site", siteCorpus}, {"template", templateCorpus}} {
		b.Run(tc.name, func(b *testing.B) {
			sketches := make([]Sketch, n)
			for i, text := range tc.corpus(n) {
				sketches[i] = c.Sketch(text)
			}
			matches := 0
			build := func() *Index {
				x := NewIndex(c)
				matches = 0
				for i, s := range sketches {
					if _, ok := x.Add(uint64(i), s); ok {
						matches++
					}
				}
				return x
			}
			perPage := heapOf(build) / n
			cpu := cputime.Since()
			for b.Loop() {
				build()
			}
			b.ReportMetric(float64(cpu().Nanoseconds())/float64(b.N*n), "cpu-ns/page")
			b.ReportMetric(float64(perPage), "B/page")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/page")
			b.ReportMetric(float64(matches), "matches")
		})
	}
}

// heapOf returns the bytes of heap that what build returns keeps alive.
func heapOf[T any](build func() T) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	x := build()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(x)
	return after.HeapAlloc - before.HeapAlloc
}
