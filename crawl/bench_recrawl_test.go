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
// the first crawl (recrawl/first at or under 1).
//
//	go test -run '^$' -bench Recrawl -benchtime 3x ./crawl
func BenchmarkRecrawl(b *testing.B) {
	for _, changed := range []bool{true, false} {
		for _, latency := range []time.Duration{0, 5 * time.Millisecond} {
			b.Run(fmt.Sprintf("changed=%v/latency=%v", changed, latency), func(b *testing.B) {
				for b.Loop() {
					recrawlOnce(b, latency, changed)
				}
			})
		}
	}
}

func recrawlOnce(b *testing.B, latency time.Duration, changed bool) {
	b.StopTimer()
	site := &testsite.Changing{Pages: 5000, Latency: latency}
	site.SetCycle(0)
	srv := httptest.NewServer(site)
	defer srv.Close()
	h := benchHarness(b, srv.URL+"/", true)
	b.StartTimer()
	start := time.Now()
	h.run(b)
	first, firstBytes := time.Since(start), site.TotalSent()
	site.SetCycle(map[bool]int{true: 1, false: 0}[changed])
	ctx := context.Background()
	if err := h.db.SetState(ctx, h.id, db.StateDone); err != nil {
		b.Fatal(err)
	}
	if _, _, err := h.db.BeginRecrawl(ctx, h.id, false, time.Now()); err != nil {
		b.Fatal(err)
	}
	start = time.Now()
	h.run(b)
	again, againBytes := time.Since(start), site.TotalSent()
	b.StopTimer()
	r, err := h.db.ChangeReport(ctx, h.id, 1)
	want := [3]int64{500, 250, 250}
	if !changed {
		want = [3]int64{}
	}
	if err != nil || [3]int64{r.Changed, r.New, r.Gone} != want {
		b.Fatalf("report %+v, %v", r, err)
	}
	b.ReportMetric(first.Seconds(), "first-s")
	b.ReportMetric(float64(firstBytes)/1e6, "first-MB")
	b.ReportMetric(again.Seconds(), "recrawl-s")
	b.ReportMetric(float64(againBytes)/1e6, "recrawl-MB")
	b.ReportMetric(float64(r.NotModified), "not-modified")
	b.ReportMetric(again.Seconds()/first.Seconds(), "recrawl/first")
	b.StartTimer()
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
