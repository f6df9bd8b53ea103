package cli

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/peakmem"
	"github.com/trawler/trawler/crawl/testsite"
	"github.com/trawler/trawler/db"
)

func init() {
	register("bench", "crawl a local synthetic site and print a speed table (paper 004, Table 3)", runBench)
}

// benchRow is one line of the bench table.
type benchRow struct {
	threads        int
	seconds        float64
	visited, pages int64
	allocsPerPage  float64
	peakRSS        int64 // bytes, 0 when unknown
}

func runBench(args []string, s IO) int {
	if len(args) > 0 && args[0] == "urlfilter" {
		return runBenchURLFilter(args[1:], s)
	}
	if len(args) > 0 && args[0] == "robots" {
		return runBenchRobots(args[1:], s)
	}
	fs := newFlagSet("bench", s, `Usage: trawler bench [flags]
       trawler bench urlfilter [--entries N] [--buckets N] [--lookups N]
       trawler bench robots --db postgres://… [--robots 1,2,3]

Serves a synthetic site with a deterministic link graph on 127.0.0.1 and
crawls it once per thread count into a temporary database, printing seconds,
URLs visited (fetched), pages downloaded (2xx), pages/s, allocations per page
and the peak resident memory of the process.

"trawler bench urlfilter" re-runs paper 002's URL-filter experiment instead
(see "trawler bench urlfilter --help"), and "trawler bench robots" crawls
with several robot processes on PostgreSQL (paper 003).`)
	pages := fs.Int("pages", 5000, "pages in the synthetic site")
	degree := fs.Int("out-degree", 10, "links per page")
	latency := fs.Duration("latency", 20*time.Millisecond, "delay before every response")
	depth := fs.Int("depth", 3, "crawl depth")
	threads := fs.String("threads", "1,10,50", "comma-separated thread counts, one run each")
	memURLs := fs.Int("memory-urls", 0, "waiting URLs kept in memory (0 = default)")
	keep := fs.String("db", "", "keep the databases under this directory instead of a temporary one")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	if fs.NArg() > 0 {
		return fail(s, "bench", usagef("unexpected argument %q", fs.Arg(0)))
	}
	counts, err := parseInts(*threads)
	if err != nil || *pages < 1 || *degree < 0 || *depth < 0 || *latency < 0 {
		return fail(s, "bench", usagef("bad flags: pages ≥ 1, out-degree ≥ 0, depth ≥ 0, threads like 1,10,50"))
	}
	dir := *keep
	if dir == "" {
		tmp, err := os.MkdirTemp("", "trawler-bench-")
		if err != nil {
			return fail(s, "bench", &storageError{err})
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	fmt.Fprintf(s.Out, "synthetic site: %d pages, %d links each, %s latency; depth %d\n", *pages, *degree, *latency, *depth)
	const row = "%7s %9s %13s %17s %9s %12s %9s\n"
	fmt.Fprintf(s.Out, row, "threads", "seconds", "URLs visited", "pages downloaded", "pages/s", "allocs/page", "peak RSS")
	for _, n := range counts {
		site := &testsite.Site{Pages: *pages, OutDegree: *degree, Latency: *latency}
		r, err := benchOnce(site, n, *depth, *memURLs, filepath.Join(dir, fmt.Sprintf("bench-%d.db", n)))
		if err != nil {
			return fail(s, "bench", err)
		}
		fmt.Fprintf(s.Out, row, strconv.Itoa(r.threads), fmt.Sprintf("%.2f", r.seconds), strconv.FormatInt(r.visited, 10),
			strconv.FormatInt(r.pages, 10), fmt.Sprintf("%.0f", float64(r.pages)/r.seconds),
			fmt.Sprintf("%.0f", r.allocsPerPage), rssText(r.peakRSS))
	}
	return ExitOK
}

func benchOnce(site *testsite.Site, threads, depth, memURLs int, path string) (benchRow, error) {
	srv := httptest.NewUnstartedServer(site)
	srv.Config.SetKeepAlivesEnabled(true)
	srv.Config.MaxHeaderBytes = http.DefaultMaxHeaderBytes
	srv.Start()
	defer srv.Close()
	d, err := db.Open(path)
	if err != nil {
		return benchRow{}, &storageError{err}
	}
	defer d.Close()
	c := crawl.DefaultConfig()
	c.Seeds, c.Threads, c.Depth, c.MemoryURLs = []string{srv.URL + "/"}, threads, depth, memURLs
	c.ExpectedURLs = max(site.Pages, 1000)
	id, err := d.CreateCrawl(context.Background(), "bench", c)
	if err != nil {
		return benchRow{}, &storageError{err}
	}
	e, err := crawl.New(c, d.Crawl(id))
	if err != nil {
		return benchRow{}, err
	}
	peakmem.Reset()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	stopWatch := benchWatch(threads)
	start := time.Now()
	err = e.Run(context.Background())
	secs := time.Since(start).Seconds()
	stopWatch()
	if err != nil {
		return benchRow{}, err
	}
	runtime.ReadMemStats(&after)
	p := e.Progress()
	row := benchRow{threads: threads, seconds: secs, visited: p.Fetched(), pages: p.ByStatus[2], peakRSS: peakmem.Peak()}
	if p.Fetched() > 0 {
		row.allocsPerPage = float64(after.Mallocs-before.Mallocs) / float64(p.Fetched())
	}
	return row, nil
}

func parseInts(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > crawl.MaxThreads {
			return nil, fmt.Errorf("bad thread count %q", f)
		}
		out = append(out, n)
	}
	return out, nil
}

func rssText(n int64) string {
	if n == 0 {
		return "n/a"
	}
	return humanBytes(n)
}
