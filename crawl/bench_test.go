package crawl_test

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/cputime"
	"github.com/trawler/trawler/crawl/testsite"
	"github.com/trawler/trawler/db"
)

// BenchmarkCrawlPage measures the whole path of one page: fetch over
// loopback, parse, link discovery and the batched store commit. One op is
// one page; the site has b.N pages.
func BenchmarkCrawlPage(b *testing.B) {
	for _, threads := range []int{1, 8} {
		b.Run(map[int]string{1: "threads=1", 8: "threads=8"}[threads], func(b *testing.B) {
			site := &testsite.Site{Pages: max(b.N, 2), OutDegree: 10}
			srv := httptest.NewServer(site)
			defer srv.Close()
			d, err := db.Open(filepath.Join(b.TempDir(), "bench.db"))
			if err != nil {
				b.Fatal(err)
			}
			defer d.Close()
			c := crawl.DefaultConfig()
			c.Seeds, c.Threads, c.Depth = []string{srv.URL + "/"}, threads, 1000
			id, err := d.CreateCrawl(context.Background(), "bench", c)
			if err != nil {
				b.Fatal(err)
			}
			e, err := crawl.New(c, d.Crawl(id))
			if err != nil {
				b.Fatal(err)
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			cpu := cputime.Since()
			b.ResetTimer()
			if err := e.Run(context.Background()); err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			used := cpu()
			runtime.ReadMemStats(&after)
			p := e.Progress()
			if p.Done != int64(site.Pages) {
				b.Fatalf("crawled %d of %d pages", p.Done, site.Pages)
			}
			b.ReportMetric(float64(used.Microseconds())/float64(p.Done), "cpu-µs/page") // server's included
			b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(p.Done), "allocs/page")
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(p.Done), "B/page")
		})
	}
}
