package crawl_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/cputime"
	"github.com/trawler/trawler/crawl/fetch"
	"github.com/trawler/trawler/crawl/neardup"
	"github.com/trawler/trawler/crawl/parse"
	"github.com/trawler/trawler/crawl/peakmem"
	"github.com/trawler/trawler/crawl/testsite"
	"github.com/trawler/trawler/db"
)

// benchPages is the size of the near-duplicate benchmarks' site.
const benchPages = 10_000

// BenchmarkNearDupShare measures, page by page over a 10,000-page site
// whose pages have a template's markup (testsite.Changing.Chrome, about
// 16 KB of HTML and 3 KB of text), what the crawler spends to fetch and
// parse a page (with the text normalized, as the engine does for its
// fingerprint) and what near-duplicate detection adds to it (the sketch
// and the index lookup), and reports the second as a share of the first.
// Fetching is over loopback from a server in the same process, so its
// time includes the server's. One op is the whole site.
func BenchmarkNearDupShare(b *testing.B) {
	site := &testsite.Changing{Pages: benchPages, Chrome: true}
	site.SetCycle(0)
	srv := httptest.NewServer(site)
	defer srv.Close()
	f, err := fetch.New(fetch.Config{UserAgent: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	cfg := neardup.DefaultConfig()
	texts := make([]string, benchPages)
	var fetchParse, sketch time.Duration
	for b.Loop() {
		start := time.Now()
		for i := range benchPages {
			r, err := f.Fetch(context.Background(), srv.URL+testsite.URLPath(i), false)
			if err != nil {
				b.Fatal(err)
			}
			doc, err := parse.HTML(r.Body)
			if err != nil {
				b.Fatal(err)
			}
			texts[i] = parse.NormalizeText(doc.Text)
		}
		fetchParse += time.Since(start)
		start = time.Now()
		idx := neardup.NewIndex(cfg)
		for i, t := range texts {
			idx.Add(uint64(i), cfg.Sketch(t))
		}
		sketch += time.Since(start)
	}
	n := float64(b.N * benchPages)
	b.ReportMetric(float64(fetchParse.Microseconds())/n, "fetch+parse-µs/page")
	b.ReportMetric(float64(sketch.Microseconds())/n, "sketch+index-µs/page")
	b.ReportMetric(100*sketch.Seconds()/fetchParse.Seconds(), "sketch-%")
}

// BenchmarkCrawlNearDup crawls the 10,000-page site (with Chrome) into SQLite with
// near-duplicate detection on and off, and reports the process's CPU time
// and peak resident memory (Linux) per crawl.
func BenchmarkCrawlNearDup(b *testing.B) {
	for _, on := range []bool{false, true} {
		b.Run("near="+strconv.FormatBool(on), func(b *testing.B) {
			var cpu time.Duration
			var rss int64
			for b.Loop() {
				b.StopTimer()
				site := &testsite.Changing{Pages: benchPages, Chrome: true}
				site.SetCycle(0)
				srv := httptest.NewServer(site)
				h := benchHarness(b, srv.URL+"/", on)
				peakmem.Reset()
				before := cputime.Self()
				b.StartTimer()
				p := h.run(b)
				b.StopTimer()
				cpu += cputime.Self() - before
				rss = max(rss, peakmem.Peak())
				srv.Close()
				if p.Done != benchPages {
					b.Fatalf("crawled %d pages", p.Done)
				}
				b.StartTimer()
			}
			b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/crawl")
			b.ReportMetric(float64(rss)/(1<<20), "peak-RSS-MiB")
		})
	}
}

// BenchmarkRecrawl crawls a 5,000-page site, changes 10 % of its pages
// (and drops 5 %, adds 5 %), and re-crawls it: seconds and body bytes the
// server sent, for the first crawl and for the re-crawl, with the server
// answering at once and after 5 ms (a near network). The unchanged cases
// re-crawl the site as it was, where a re-crawl should cost no more than
// the first crawl (recrawl/first at or under 1). recrawl/first-cpu is the
// same ratio of the process's CPU time (the test server's included), which
// a busy machine disturbs less than the wall time. The figures are sums
// over the iterations (-benchtime 3x: three sites, each crawled twice).
//
//	go test -run '^$' -bench Recrawl -benchtime 3x ./crawl
func BenchmarkRecrawl(b *testing.B) {
	for _, changed := range []bool{true, false} {
		for _, latency := range []time.Duration{0, 5 * time.Millisecond} {
			b.Run(fmt.Sprintf("changed=%v/latency=%v", changed, latency), func(b *testing.B) {
				var sum recrawlFigures
				for b.Loop() {
					sum.add(recrawlOnce(b, latency, changed))
				}
				sum.report(b)
			})
		}
	}
}

// recrawlFigures are one or more crawls and re-crawls of a site: wall
// and CPU time, bytes of bodies, pages the server said had not changed.
type recrawlFigures struct {
	first, again, firstCPU, againCPU time.Duration
	firstBytes, againBytes           int64
	notModified                      int64
}

func (f *recrawlFigures) add(g recrawlFigures) {
	f.first, f.again, f.firstCPU, f.againCPU = f.first+g.first, f.again+g.again, f.firstCPU+g.firstCPU, f.againCPU+g.againCPU
	f.firstBytes, f.againBytes, f.notModified = f.firstBytes+g.firstBytes, f.againBytes+g.againBytes, f.notModified+g.notModified
}

func (f *recrawlFigures) report(b *testing.B) {
	n := float64(b.N)
	b.ReportMetric(f.first.Seconds()/n, "first-s")
	b.ReportMetric(float64(f.firstBytes)/1e6/n, "first-MB")
	b.ReportMetric(f.again.Seconds()/n, "recrawl-s")
	b.ReportMetric(float64(f.againBytes)/1e6/n, "recrawl-MB")
	b.ReportMetric(float64(f.notModified)/n, "not-modified")
	b.ReportMetric(f.again.Seconds()/f.first.Seconds(), "recrawl/first")
	b.ReportMetric(f.againCPU.Seconds()/f.firstCPU.Seconds(), "recrawl/first-cpu")
}

func recrawlOnce(b *testing.B, latency time.Duration, changed bool) recrawlFigures {
	b.StopTimer()
	defer b.StartTimer()
	site := &testsite.Changing{Pages: 5000, Latency: latency}
	site.SetCycle(0)
	srv := httptest.NewServer(site)
	defer srv.Close()
	h := benchHarness(b, srv.URL+"/", true)
	var f recrawlFigures
	b.StartTimer()
	start, cpu := time.Now(), cputime.Self()
	h.run(b)
	f.first, f.firstCPU, f.firstBytes = time.Since(start), cputime.Self()-cpu, site.TotalSent()
	site.SetCycle(map[bool]int{true: 1, false: 0}[changed])
	ctx := context.Background()
	if err := h.db.SetState(ctx, h.id, db.StateDone); err != nil {
		b.Fatal(err)
	}
	if _, _, err := h.db.BeginRecrawl(ctx, h.id, false, time.Now()); err != nil {
		b.Fatal(err)
	}
	start, cpu = time.Now(), cputime.Self()
	h.run(b)
	f.again, f.againCPU, f.againBytes = time.Since(start), cputime.Self()-cpu, site.TotalSent()
	b.StopTimer()
	r, err := h.db.ChangeReport(ctx, h.id, 1)
	want := [3]int64{500, 250, 250}
	if !changed {
		want = [3]int64{}
	}
	if err != nil || [3]int64{r.Changed, r.New, r.Gone} != want {
		b.Fatalf("report %+v, %v", r, err)
	}
	f.notModified = r.NotModified
	return f
}

type benchCrawl struct {
	db  *db.DB
	id  int64
	cfg crawl.Config
}

func benchHarness(b *testing.B, seed string, near bool) *benchCrawl {
	b.Helper()
	d, err := db.Open(filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { d.Close() })
	c := crawl.DefaultConfig()
	c.Seeds, c.Threads, c.Depth, c.Robots = []string{seed}, 8, 100, false
	if !near {
		c.NearThreshold = 0
	}
	id, err := d.CreateCrawl(context.Background(), "bench", c)
	if err != nil {
		b.Fatal(err)
	}
	return &benchCrawl{db: d, id: id, cfg: c}
}

func (h *benchCrawl) run(b *testing.B) crawl.Progress {
	e, err := crawl.New(h.cfg, h.db.Crawl(h.id))
	if err != nil {
		b.Fatal(err)
	}
	if err := e.Run(context.Background()); err != nil {
		b.Fatal(err)
	}
	return e.Progress()
}
