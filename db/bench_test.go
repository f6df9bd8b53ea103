package db

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/cputime"
	"github.com/trawler/trawler/crawl/rabin"
)

// BenchmarkApplyNew measures admitting new URLs to the frontier, in batches
// of 1,000 as the engine writes them.
//
//	go test -run '^$' -bench ApplyNew -benchmem ./db
func BenchmarkApplyNew(b *testing.B) {
	d := mustOpen(b)
	s := mustCrawl(b, d, "http://127.0.0.1/")
	const batch = 1000
	n := 0
	cpu := cputime.Since()
	b.ResetTimer()
	for b.Loop() {
		bt := &crawl.Batch{New: make([]crawl.Item, batch)}
		for i := range bt.New {
			u := fmt.Sprintf("http://127.0.0.1:8080/section%d/page%d.html", n%97, n)
			bt.New[i] = crawl.Item{URL: u, FP: rabin.FingerprintString(u), Depth: n % 6, Parent: "http://127.0.0.1:8080/"}
			n++
		}
		if err := s.Apply(context.Background(), "run", bt); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "urls/s")
	b.ReportMetric(float64(n)/cpu().Seconds(), "urls/cpu-s")
}

// BenchmarkApplyPages measures storing fetched pages with 20 links and
// about 2 kB of text each, 100 pages a batch.
//
//	go test -run '^$' -bench ApplyPages -benchmem ./db
func BenchmarkApplyPages(b *testing.B) { benchPages(b, false) }

// BenchmarkApplyCrawl is BenchmarkApplyPages with each page's 20 links also
// admitted as new URLs in the same batch, as the engine writes them.
//
//	go test -run '^$' -bench ApplyCrawl -benchmem ./db
func BenchmarkApplyCrawl(b *testing.B) { benchPages(b, true) }

func benchPages(b *testing.B, withNew bool) {
	d := mustOpen(b)
	s := mustCrawl(b, d, "http://127.0.0.1/")
	batch := 100
	if v, err := strconv.Atoi(os.Getenv("TRAWLER_BATCH")); err == nil && v > 0 {
		batch = v
	}
	words := strings.Fields("crawler page link queue frontier depth fingerprint rabin bloom filter host worker thread fetch parse title body text anchor index")
	// The engine's context can be cancelled (Stop, Ctrl-C); so is this one.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := 0
	cpu := cputime.Since()
	b.ResetTimer()
	for b.Loop() {
		bt := &crawl.Batch{}
		for range batch {
			p := page(fmt.Sprintf("http://127.0.0.1:8080/dir%d/page%d.html", n%89, n), n%6, 20)
			var sb strings.Builder
			for w := 0; sb.Len() < 2000; w++ {
				sb.WriteString(words[(w*7+n)%len(words)])
				fmt.Fprintf(&sb, "%d ", w%50)
			}
			p.Text = sb.String()
			p.ContentFP = rabin.FingerprintString(p.Text)
			p.FetchedAt = testEpoch.Add(time.Duration(n) * time.Millisecond)
			if withNew {
				for _, l := range p.Links {
					bt.New = append(bt.New, crawl.Item{URL: l.URL, FP: rabin.FingerprintString(l.URL), Depth: p.Depth + 1, Parent: p.URL})
				}
			}
			bt.Pages = append(bt.Pages, p)
			n++
		}
		if err := s.Apply(ctx, "run", bt); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "pages/s")
	b.ReportMetric(float64(n)/cpu().Seconds(), "pages/cpu-s")
}

// BenchmarkClaim measures leasing waiting URLs in windows of 1,000.
//
//	go test -run '^$' -bench Claim -benchmem ./db
func BenchmarkClaim(b *testing.B) {
	d := mustOpen(b)
	s := mustCrawl(b, d, "http://127.0.0.1/")
	const total = 200_000
	for start := 0; start < total; start += 10_000 {
		bt := &crawl.Batch{}
		for i := start; i < start+10_000; i++ {
			bt.New = append(bt.New, item(fmt.Sprintf("http://127.0.0.1/%d", i), i%5))
		}
		mustApply(b, s, "seed", bt)
	}
	ctx := context.Background()
	n := 0
	b.ResetTimer()
	for b.Loop() {
		items, err := s.Claim(ctx, "run", 1000, crawl.BFS)
		if err != nil {
			b.Fatal(err)
		}
		if len(items) == 0 {
			b.StopTimer()
			if err := s.Release(ctx, "run"); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		n += len(items)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "urls/s")
}

// longEnough skips benchmarks on a million rows unless TRAWLER_LONG=1.
func longEnough(b *testing.B) {
	if os.Getenv("TRAWLER_LONG") != "1" {
		b.Skip("set TRAWLER_LONG=1 to build a 1,000,000-page database")
	}
}
