package db

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/cputime"
	"github.com/trawler/trawler/crawl/neardup"
	"github.com/trawler/trawler/crawl/rabin"
	"github.com/trawler/trawler/crawl/testsite"
)

// BenchmarkApplySite measures the writer on the batches a crawl of the peer
// benchmark's site hands it (bench/peers): pages of about 3.6 kB of text
// with a 1 kB near-duplicate sketch and 10 links, each page bringing one
// new URL (the site has as many URLs as pages), 500 pages a batch. It is the writer's share of `make
// bench-peers`, without the fetching and parsing.
//
//	go test -run '^$' -bench ApplySite -benchmem ./db
func BenchmarkApplySite(b *testing.B) {
	d := mustOpen(b)
	s := mustCrawl(b, d, "http://127.0.0.1:8080/")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const batch = 500
	g := newSiteGen()
	n := 0
	var cpu time.Duration // the writer's alone, not the generator's
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		bt := &crawl.Batch{}
		for range batch {
			g.add(bt, n)
			n++
		}
		b.StartTimer()
		used := cputime.Since()
		if err := s.Apply(ctx, "run", bt); err != nil {
			b.Fatal(err)
		}
		cpu += used()
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "pages/s")
	b.ReportMetric(float64(n)/cpu.Seconds(), "pages/cpu-s")
	b.ReportMetric(float64(len(g.seen))/float64(n), "new/page")
}

// siteGen makes the pages of the peer benchmark's site in crawl order.
type siteGen struct {
	near  neardup.Config
	index *neardup.Index
	seen  map[int]bool
}

func newSiteGen() *siteGen {
	c := neardup.DefaultConfig()
	return &siteGen{near: c, index: neardup.NewIndex(c), seen: map[int]bool{0: true}}
}

// add appends page i, as the engine would hand it over, to bt.
func (g *siteGen) add(bt *crawl.Batch, i int) {
	u := siteURL(i)
	p := &crawl.Page{
		URL: u, FP: rabin.FingerprintString(u), Host: "127.0.0.1:8080", Depth: 1 + i%5, Parent: siteURL(i / 10),
		Status: 200, FinalURL: u, ContentType: "text/html", Charset: "utf-8", ContentLength: -1,
		Length: 4000, Title: fmt.Sprintf("Page %d", i), FetchedAt: testEpoch.Add(time.Duration(i) * time.Millisecond),
		Duration: time.Millisecond,
	}
	var text strings.Builder
	fmt.Fprintf(&text, "Page %d ", i)
	testsite.AppendPeerText(&text, i, 3600)
	p.Text = strings.TrimSpace(text.String())
	p.ContentFP = rabin.FingerprintString(p.Text)
	p.Sketch = g.near.Sketch(p.Text)
	if m, ok := g.index.Add(p.FP, p.Sketch); ok {
		p.NearGroup, p.NearOf, p.NearSimilarity = m.Group, m.ID, m.Similarity
	} else {
		p.NearGroup = m.Group
	}
	for j := range 10 {
		t := i + 1 // the one new URL; the others are known
		if j > 0 {
			t = (i*7919 + j*104729) % (i + 1)
		}
		l := siteURL(t)
		p.Links = append(p.Links, crawl.Link{URL: l, Kind: crawl.LinkA, Text: fmt.Sprintf("page %d", t)})
		if !g.seen[t] {
			g.seen[t] = true
			bt.New = append(bt.New, crawl.Item{URL: l, FP: rabin.FingerprintString(l), Depth: p.Depth + 1, Parent: u})
			bt.Held = append(bt.Held, false)
		}
	}
	bt.Pages = append(bt.Pages, p)
}

func siteURL(i int) string {
	if i == 0 {
		return "http://127.0.0.1:8080/"
	}
	return fmt.Sprintf("http://127.0.0.1:8080/p/%d", i)
}
