package db

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/peakmem"
	"github.com/trawler/trawler/crawl/rabin"
)

// millionPages is the size of the database the long benchmarks browse.
const millionPages = 1_000_000

// bigCrawl returns crawl 1 of a database holding a million pages, built
// through Apply (a couple of minutes). TRAWLER_BENCH_DB names a file to
// keep it in and reuse; otherwise it is built in a temporary folder.
func bigCrawl(b *testing.B) (*DB, int64) {
	longEnough(b)
	path := os.Getenv("TRAWLER_BENCH_DB")
	if path == "" {
		path = filepath.Join(b.TempDir(), "big.db")
	}
	d := mustOpenPath(b, path)
	if err := buildBig(d); err != nil {
		b.Fatal(err)
	}
	return d, 1
}

// bigURL is the URL of page i of the big crawl: 50 hosts in turn, so that
// in URL order each host's pages are a block of their own.
func bigURL(i int) string {
	return fmt.Sprintf("http://host%d.test/%x/page%d.html", i%50, rabin.FingerprintString(strconv.Itoa(i))&0xffff, i)
}

// buildBig stores the big crawl. Page i (id i+1) is on host i%50 at depth
// i%6; its status follows i%10 (six in ten 200, then 301, 404, 500 and no
// answer), so each status class other than 2xx lives on five hosts, late
// in URL order; every page's text has "text" and one of a thousand words
// w0…w999. Every page is the first of its own near-duplicate group but
// every 40th, which joins the page before it; the pages the word lists
// may judge (2xx and 3xx) have verdicts (see judgeBig).
func buildBig(d *DB) error {
	ctx := context.Background()
	if n, err := d.CountPages(ctx, PageQuery{Crawl: 1}); err == nil && n == millionPages {
		return judgeBig(ctx, d)
	}
	cfg := crawl.DefaultConfig()
	cfg.Seeds = []string{"http://127.0.0.1/"}
	id, err := d.CreateCrawl(ctx, "big", cfg)
	if err != nil || id != 1 {
		return fmt.Errorf("create crawl %d: %v (use an empty TRAWLER_BENCH_DB)", id, err)
	}
	s := d.Crawl(id)
	start := time.Now()
	for i := 0; i < millionPages; {
		bt := &crawl.Batch{}
		for end := i + 1000; i < end; i++ {
			p := page(bigURL(i), i%6, 0)
			p.Host = fmt.Sprintf("host%d.test", i%50)
			p.Status = []int{200, 200, 200, 200, 200, 200, 301, 404, 500, 0}[i%10]
			p.Title = fmt.Sprintf("Page %d about %s", i, strings.Repeat("x", i%17))
			p.Length = int64(i % 50_000)
			p.Text = fmt.Sprintf("page %d text words w%d", i, i%1000)
			p.ContentFP = rabin.FingerprintString(p.Text)
			p.FetchedAt = testEpoch.Add(time.Duration(i) * time.Millisecond)
			p.NearGroup = p.FP
			if i%40 == 1 {
				p.NearGroup = rabin.FingerprintString(bigURL(i - 1))
				p.NearOf, p.NearSimilarity = p.NearGroup, 0.9
			}
			bt.Pages = append(bt.Pages, p)
		}
		if err := s.Apply(ctx, "bench", bt); err != nil {
			return err
		}
	}
	fmt.Fprintf(os.Stderr, "built %d pages in %v, peak resident memory %d MiB\n",
		millionPages, time.Since(start).Round(time.Second), peakmem.Peak()>>20)
	return judgeBig(ctx, d)
}

// judgeBig gives the big crawl's judgeable pages verdicts as the scorer
// leaves them, unless they have some: black for 1 in 100 pages, grey for
// 1 in 10, white for the rest (590,000).
func judgeBig(ctx context.Context, d *DB) error {
	var n int
	if err := d.r.QueryRowContext(ctx, `SELECT count(*) FROM (SELECT 1 FROM verdicts WHERE crawl_id = 1 LIMIT 1) AS v`).Scan(&n); err != nil || n > 0 {
		return err
	}
	_, err := d.w.ExecContext(ctx, `INSERT INTO verdicts (page_id, crawl_id, pending, verdict, score, scored_at)
SELECT id, crawl_id, 0, CASE WHEN id % 100 = 6 THEN 'black' WHEN id % 10 = 3 THEN 'grey' ELSE 'white' END, 1, 0
FROM pages WHERE crawl_id = 1 AND `+scorable)
	return err
}
