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

func buildBig(d *DB) error {
	ctx := context.Background()
	if n, err := d.CountPages(ctx, PageQuery{Crawl: 1}); err == nil && n == millionPages {
		return nil
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
			u := fmt.Sprintf("http://host%d.test/%x/page%d.html", i%50, rabin.FingerprintString(strconv.Itoa(i))&0xffff, i)
			p := page(u, i%6, 0)
			p.Host = fmt.Sprintf("host%d.test", i%50)
			p.Status = []int{200, 200, 200, 200, 200, 200, 301, 404, 500, 0}[i%10]
			p.Title = fmt.Sprintf("Page %d about %s", i, strings.Repeat("x", i%17))
			p.Length = int64(i % 50_000)
			p.Text = fmt.Sprintf("page %d text words w%d", i, i%1000)
			p.ContentFP = rabin.FingerprintString(p.Text)
			p.FetchedAt = testEpoch.Add(time.Duration(i) * time.Millisecond)
			bt.Pages = append(bt.Pages, p)
		}
		if err := s.Apply(ctx, "bench", bt); err != nil {
			return err
		}
	}
	fmt.Fprintf(os.Stderr, "built %d pages in %v, peak resident memory %d MiB\n",
		millionPages, time.Since(start).Round(time.Second), peakmem.Peak()>>20)
	return nil
}

// BenchmarkBrowseMillion measures the results table's reads on a crawl of a
// million pages: the first screen, a screen at row 900,000 by offset, the
// next screen after a cursor there, and counting.
//
//	TRAWLER_LONG=1 go test -run '^$' -bench BrowseMillion -benchtime 5x -timeout 60m ./db
func BenchmarkBrowseMillion(b *testing.B) {
	d, id := bigCrawl(b)
	ctx := context.Background()
	for _, sort := range []SortKey{SortStored, SortURL, SortStatus, SortTitle, SortFetched} {
		q := PageQuery{Crawl: id, Sort: sort, Limit: 100}
		b.Run("first/"+string(sort), func(b *testing.B) {
			for b.Loop() {
				if rows, err := d.Pages(ctx, q); err != nil || len(rows) != 100 {
					b.Fatal(len(rows), err)
				}
			}
		})
		b.Run("offset900k/"+string(sort), func(b *testing.B) {
			for b.Loop() {
				if rows, err := d.PagesAt(ctx, q, 900_000, 100); err != nil || len(rows) != 100 {
					b.Fatal(len(rows), err)
				}
			}
		})
		rows, err := d.PagesAt(ctx, q, 900_000, 1)
		if err != nil || len(rows) != 1 {
			b.Fatal(err)
		}
		after := q
		after.After = rows[0].Cursor(sort)
		b.Run("after900k/"+string(sort), func(b *testing.B) {
			for b.Loop() {
				if rows, err := d.Pages(ctx, after); err != nil || len(rows) != 100 {
					b.Fatal(len(rows), err)
				}
			}
		})
	}
	for name, q := range map[string]PageQuery{
		// 600,000 matches: the url index is walked, skipping the rest.
		"2xx-by-url": {Crawl: id, StatusClass: 2, Sort: SortURL},
		// 100,000 matches clustered late in url order (five hosts): the
		// slow case of walking the sort index.
		"4xx-by-url": {Crawl: id, StatusClass: 4, Sort: SortURL},
		// 20,000 matches: found through the host index and sorted.
		"host-by-url": {Crawl: id, Host: "host7.test", Sort: SortURL},
		// Every page matches the search: the full-text index drives.
		"search-by-url": {Crawl: id, Search: "text", Sort: SortURL},
	} {
		q.Limit = 100
		b.Run("filtered/"+name, func(b *testing.B) {
			for b.Loop() {
				rows, err := d.Pages(ctx, q)
				if err != nil || len(rows) != 100 {
					b.Fatal(len(rows), err)
				}
				next := q
				next.After = rows[99].Cursor(q.Sort)
				if rows, err := d.Pages(ctx, next); err != nil || len(rows) != 100 {
					b.Fatal(len(rows), err)
				}
			}
		})
	}
	b.Run("count", func(b *testing.B) {
		for b.Loop() {
			if n, err := d.CountPages(ctx, PageQuery{Crawl: id}); err != nil || n != millionPages {
				b.Fatal(n, err)
			}
		}
	})
	b.Run("count4xx", func(b *testing.B) {
		for b.Loop() {
			if _, err := d.CountPages(ctx, PageQuery{Crawl: id, StatusClass: 4}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("crawls", func(b *testing.B) {
		for b.Loop() {
			if _, err := d.Crawls(ctx); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("search", func(b *testing.B) {
		for b.Loop() {
			if rows, err := d.Pages(ctx, PageQuery{Crawl: id, Search: "w123", Sort: SortURL, Limit: 100}); err != nil || len(rows) != 100 {
				b.Fatal(len(rows), err)
			}
		}
	})
	b.Run("hosts", func(b *testing.B) {
		for b.Loop() {
			if f, err := d.Hosts(ctx, id); err != nil || len(f) != 50 {
				b.Fatal(len(f), err)
			}
		}
	})
}
