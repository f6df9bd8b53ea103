package db

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/trawler/trawler/crawl"
)

// TestTotals checks what Totals reads without the pages (page_counts in the
// first cycle, nothing at a re-crawl's start) against a count of the
// current cycle's pages, at each point a run can start: during the first
// cycle, at the start of a re-crawl, and half-way through one whose pages
// come back changed, unchanged (304) and failed.
func TestTotals(t *testing.T) {
	d := mustOpen(t)
	s := mustCrawl(t, d, "http://127.0.0.1:8080/")
	ctx := context.Background()
	check := func(when string, wantPages int64) {
		t.Helper()
		got, err := s.Totals(ctx)
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		want := recountTotals(t, d, s.id)
		if fmt.Sprint(got.ByDepth, got.ByStatus, got.Bytes) != fmt.Sprint(want.ByDepth, want.ByStatus, want.Bytes) {
			t.Errorf("%s: totals %v %v %d, the pages count %v %v %d", when, got.ByDepth, got.ByStatus, got.Bytes,
				want.ByDepth, want.ByStatus, want.Bytes)
		}
		var n int64
		for _, c := range got.ByStatus {
			n += c
		}
		if n != wantPages {
			t.Errorf("%s: %d pages in the totals, want %d", when, n, wantPages)
		}
	}
	fill(t, s, 60)
	check("first cycle", 60)
	nextCycle(t, d, s)
	check("re-crawl, nothing visited yet", 0)

	rows, err := d.Pages(ctx, PageQuery{Crawl: s.id, Limit: 12})
	if err != nil {
		t.Fatal(err)
	}
	b := &crawl.Batch{}
	for i, r := range rows {
		p := page(r.URL, r.Depth, 1)
		p.Host = r.Host
		switch i % 3 {
		case 0:
			p.Text += " changed"
		case 1:
			p.Status = http.StatusNotModified
		case 2:
			p.Status, p.Err = 0, "connection reset"
		}
		b.Pages = append(b.Pages, p)
	}
	mustApply(t, s, "", b)
	check("re-crawl half-way", int64(len(rows)))
}

// recountTotals counts the current cycle's pages, as Totals did before it
// read page_counts.
func recountTotals(t *testing.T, d *DB, id int64) crawl.Totals {
	t.Helper()
	var tot crawl.Totals
	if err := sumTotals(context.Background(), d.r, totalsOfCycle, id, &tot); err != nil {
		t.Fatal(err)
	}
	return tot
}
