package db

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/rabin"
)

func TestInlinkTotalsAndSources(t *testing.T) {
	d := mustOpen(t)
	s := mustCrawl(t, d, "http://127.0.0.1/")
	const target = "http://127.0.0.1/target"
	b := &crawl.Batch{}
	wantLinks := 0
	for i := range 21 {
		u := fmt.Sprintf("http://127.0.0.1/p%d", i)
		p := &crawl.Page{URL: u, FP: rabin.FingerprintString(u), Status: 200, FetchedAt: time.Unix(1700000000, 0)}
		for j := 0; j <= i%5; j++ { // 1 to 5 links each
			p.Links = append(p.Links, crawl.Link{URL: target, Kind: crawl.LinkA, Text: fmt.Sprintf("anchor %d", j)})
			wantLinks++
		}
		p.Links = append(p.Links, crawl.Link{URL: "http://127.0.0.1/other", Kind: crawl.LinkA})
		b.Pages = append(b.Pages, p)
	}
	if err := s.Apply(context.Background(), "t", b); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	c, err := d.CountInlinks(ctx, s.ID(), target)
	if err != nil || c.Links != int64(wantLinks) || c.Pages != 21 {
		t.Fatalf("CountInlinks = %+v, %v; want %d links from 21 pages", c, err, wantLinks)
	}
	var all []InlinkSource
	for after := int64(0); ; {
		page, err := d.InlinkSources(ctx, s.ID(), target, after, 8)
		if err != nil {
			t.Fatal(err)
		}
		if len(page) == 0 {
			break
		}
		if len(page) > 8 {
			t.Fatalf("a page of %d sources, want at most 8", len(page))
		}
		all = append(all, page...)
		after = page[len(page)-1].PageID
	}
	if len(all) != 21 {
		t.Fatalf("paging reached %d sources, want 21", len(all))
	}
	links := 0
	for i, src := range all {
		if want := fmt.Sprintf("http://127.0.0.1/p%d", i); src.URL != want || len(src.Anchors) != i%5+1 {
			t.Errorf("source %d: %s with %d anchors, want %s with %d", i, src.URL, len(src.Anchors), want, i%5+1)
		}
		links += len(src.Anchors)
	}
	if links != wantLinks {
		t.Errorf("anchors add up to %d, want %d", links, wantLinks)
	}
}
