package neardup

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/trawler/trawler/crawl/parse"
	"github.com/trawler/trawler/crawl/testsite"
)

// peerTexts returns the normalized texts of the peer site's n pages, as
// the engine sketches them.
func peerTexts(tb testing.TB, n int) []string {
	texts := make([]string, n)
	for i := range texts {
		doc, err := parse.HTML(testsite.PeerHTML(i, n))
		if err != nil {
			tb.Fatal(err)
		}
		texts[i] = parse.NormalizeText(doc.Text)
	}
	return texts
}

// variedTexts returns n page texts of about 3.6 KB of varied words: a
// shared header and footer of 60 words around random words of the
// vocabulary, and every tenth page a near-copy of an earlier one.
func variedTexts(n int) []string {
	rng := rand.New(rand.NewPCG(36, 36))
	chrome := randomWords(rng, 60)
	head, foot := strings.Join(chrome[:40], " "), strings.Join(chrome[40:], " ")
	var bodies [][]string
	texts := make([]string, n)
	for i := range texts {
		var body []string
		if i%10 == 9 {
			orig := bodies[rng.IntN(len(bodies))]
			body = editWords(rng, orig, len(orig)/100)
		} else {
			body = strings.Fields(textOfSize(rng, 3100))
		}
		bodies = append(bodies, body)
		texts[i] = head + " " + strings.Join(body, " ") + " " + foot
	}
	return texts
}

// BenchmarkSketchAdd sketches a page and adds it to an index, as the
// engine does for every page of a crawl (default Config, the crawl's
// default window of 10,000 pages), over 5,000 pages of the peer
// benchmark's site and of varied text, taken in order, under each sketch
// version; ns/op is per page.
// Its instruction count per page, which unlike time does not depend on
// the machine's load, is the difference between two runs under callgrind:
//
//	CGO_ENABLED=0 go test -c -o /tmp/x.test ./crawl/neardup
//	GOGC=off GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 valgrind --tool=callgrind \
//	    /tmp/x.test -test.run '^$' -test.bench 'SketchAdd/peer/v=2' -test.benchtime 400x
//
// and again at 200x: (total(400) - total(200)) / 200.
func BenchmarkSketchAdd(b *testing.B) {
	const n = 5000
	for _, tc := range []struct {
		name  string
		texts func() []string
	}{
		{"peer", func() []string { return peerTexts(b, n) }},
		{"varied", func() []string { return variedTexts(n) }},
	} {
		b.Run(tc.name, func(b *testing.B) { benchSketchAdd(b, tc.texts()) })
	}
}

// benchSketchAdd is BenchmarkSketchAdd over texts, under each version.
func benchSketchAdd(b *testing.B, texts []string) {
	for v := Version1; v <= LatestVersion; v++ {
		b.Run(fmt.Sprintf("v=%d", v), func(b *testing.B) {
			c := DefaultConfig()
			c.Version, c.Window = v, 10_000
			x := NewIndex(c)
			matches := 0
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, ok := x.Add(uint64(i), c.Sketch(texts[i%len(texts)])); ok {
					matches++
				}
				i++
			}
			b.ReportMetric(float64(matches)/float64(b.N), "matched/page")
		})
	}
}
