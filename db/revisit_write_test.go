package db

import (
	"context"
	"slices"
	"testing"

	"github.com/trawler/trawler/crawl"
)

// TestRevisitSameText re-crawls a page whose text stays the same while its
// links or indexed columns change, or nothing does: the stored page, its
// links (with inlinks) and what browsing by status finds must follow the
// revisit exactly, whichever way the writer takes to store it.
func TestRevisitSameText(t *testing.T) {
	const url = "http://127.0.0.1:8080/doc"
	for _, tc := range []struct {
		name   string
		change func(p *crawl.Page)
	}{
		{"nothing", func(p *crawl.Page) {}},
		{"a link's target", func(p *crawl.Page) { p.Links[1].URL = url + "/moved" }},
		{"a link's text", func(p *crawl.Page) { p.Links[0].Text = "renamed" }},
		{"nofollow", func(p *crawl.Page) { p.Links[2].NoFollow = true }},
		{"a link more", func(p *crawl.Page) {
			p.Links = append(p.Links, crawl.Link{URL: url + "/extra", Kind: crawl.LinkImg, Text: "extra"})
		}},
		{"a link less", func(p *crawl.Page) { p.Links = p.Links[:2] }},
		{"no links", func(p *crawl.Page) { p.Links = nil }},
		{"status", func(p *crawl.Page) { p.Status = 203 }},
		{"depth", func(p *crawl.Page) { p.Depth = 3 }},
		{"content type", func(p *crawl.Page) { p.ContentType = "application/xhtml+xml" }},
		{"length", func(p *crawl.Page) { p.Length = 99 }},
		{"description", func(p *crawl.Page) { p.Description = "new description" }},
		{"near-duplicate", func(p *crawl.Page) { p.NearGroup, p.NearOf, p.NearSimilarity = 7, 9, 0.95 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := mustOpen(t)
			s := mustCrawl(t, d, "http://127.0.0.1/")
			ctx := context.Background()
			mustApply(t, s, "", &crawl.Batch{Pages: []*crawl.Page{page(url, 1, 3)}})
			nextCycle(t, d, s)
			again := page(url, 1, 3)
			tc.change(again)
			if _, err := s.Claim(ctx, "run", 10, crawl.BFS); err != nil {
				t.Fatal(err)
			}
			mustApply(t, s, "run", &crawl.Batch{Pages: []*crawl.Page{again}})

			id, err := d.PageID(ctx, s.ID(), url)
			if err != nil {
				t.Fatal(err)
			}
			got, err := d.Page(ctx, s.ID(), id)
			if err != nil {
				t.Fatal(err)
			}
			if got.Status != again.Status || got.Depth != again.Depth || got.ContentType != again.ContentType ||
				got.Length != again.Length || got.Description != again.Description || got.Text != again.Text ||
				got.NearGroup != again.NearGroup || got.NearOf != again.NearOf || got.NearSimilarity != again.NearSimilarity {
				t.Errorf("stored %+v\nwant the revisit %+v", got, again)
			}
			out, err := d.Outlinks(ctx, s.ID(), url, 0)
			if err != nil {
				t.Fatal(err)
			}
			var want []LinkRow
			for _, l := range again.Links {
				want = append(want, LinkRow{From: url, To: l.URL, Kind: l.Kind, Text: l.Text, NoFollow: l.NoFollow})
			}
			if !slices.Equal(out, want) {
				t.Errorf("outlinks %+v\nwant %+v", out, want)
			}
			for _, l := range page(url, 1, 3).Links {
				in, err := d.Inlinks(ctx, s.ID(), l.URL, 0)
				if err != nil {
					t.Fatal(err)
				}
				if linked := slices.ContainsFunc(again.Links, func(m crawl.Link) bool { return m.URL == l.URL }); linked != (len(in) == 1) {
					t.Errorf("inlinks of %s: %+v, want linked %v", l.URL, in, linked)
				}
			}
			rows, err := d.Pages(ctx, PageQuery{Crawl: s.ID(), StatusClass: again.Status / 100, Sort: SortStatus})
			if err != nil || len(rows) != 1 || rows[0].Status != again.Status {
				t.Errorf("browsing status %d: %+v, %v", again.Status/100, rows, err)
			}
			checkIndex(t, d)
		})
	}
}
