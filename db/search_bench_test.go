package db

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/rabin"
)

// BenchmarkSearch answers a search over 20,000 pages, half English, half
// Chinese, as the command line asks it (best 20 matches with snippets).
//
//	go test -run '^$' -bench Search -benchmem ./db/
func BenchmarkSearch(b *testing.B) {
	d := mustOpen(b)
	s := mustCrawl(b, d, "http://127.0.0.1/")
	en := strings.Fields("crawler page link queue frontier depth fingerprint rabin bloom filter host worker thread fetch parse")
	zh := []string{"网络", "爬虫", "布隆", "过滤器", "指纹", "队列", "深度", "增量", "采集", "系统"}
	for start := 0; start < 20000; start += 1000 {
		bt := &crawl.Batch{}
		for i := start; i < start+1000; i++ {
			u := fmt.Sprintf("http://127.0.0.1/p%d", i)
			var sb strings.Builder
			for w := range 200 {
				if i%2 == 0 {
					sb.WriteString(en[(w+i)%len(en)] + " ")
				} else {
					sb.WriteString(zh[(w+i)%len(zh)])
				}
			}
			bt.Pages = append(bt.Pages, &crawl.Page{URL: u, FP: rabin.FingerprintString(u), Status: 200,
				Title: fmt.Sprintf("page %d", i), Text: sb.String(), FetchedAt: time.Unix(1700000000, 0)})
		}
		if err := s.Apply(context.Background(), "b", bt); err != nil {
			b.Fatal(err)
		}
	}
	for _, q := range []string{"fingerprint", `"bloom filter"`, "爬虫", "网络爬虫"} {
		b.Run(q, func(b *testing.B) {
			for b.Loop() {
				rows, err := d.Search(context.Background(), s.ID(), q, 20)
				if err != nil || len(rows) == 0 {
					b.Fatalf("%q: %d rows, %v", q, len(rows), err)
				}
			}
		})
	}
}
