package db

import (
	"context"
	"fmt"
	"testing"

	"github.com/trawler/trawler/crawl"
)

// TestSearchKeepsAllForgets checks that a kept answer to whether a search
// matches every page (see keepsAll) serves only while the full-text index
// is unchanged: counts and listings with a filter follow a page stored or
// rewritten without the word.
func TestSearchKeepsAllForgets(t *testing.T) {
	d := mustOpen(t)
	s := mustCrawl(t, d, "http://127.0.0.1/")
	ctx := context.Background()
	var pages []*crawl.Page
	for i := range 6 {
		pages = append(pages, page(fmt.Sprintf("http://127.0.0.1:8080/p%d", i), 1, 0))
	}
	mustApply(t, s, "", &crawl.Batch{Pages: pages})
	without := func(url string) *crawl.Page {
		p := page(url, 1, 0)
		p.Text, p.Title = "nothing here", "none"
		return p
	}
	for _, tt := range []struct {
		name     string
		store    *crawl.Page
		want, of int // the pages the search and filter keep, of the crawl's
	}{
		{"every page", nil, 6, 6},
		{"a page added without the word", without("http://127.0.0.1:8080/new"), 6, 7},
		{"a page rewritten without the word", without("http://127.0.0.1:8080/p0"), 5, 7},
	} {
		if tt.store != nil {
			mustApply(t, s, "", &crawl.Batch{Pages: []*crawl.Page{tt.store}})
		}
		for range 2 { // the second asks the kept answer
			q := PageQuery{Crawl: s.ID(), Search: "quick", StatusClass: 2}
			if n, err := d.CountPages(ctx, q); err != nil || n != tt.want {
				t.Errorf("%s: CountPages = %d, %v; want %d", tt.name, n, err, tt.want)
			}
			if d.pg {
				continue // PostgreSQL's planner needs no such answer
			}
			if all, err := d.searchKeepsAll(ctx, s.ID(), `"quick"`, float64(tt.of)); err != nil || all != (tt.want == tt.of) {
				t.Errorf("%s: searchKeepsAll = %v, %v", tt.name, all, err)
			}
		}
	}
}
