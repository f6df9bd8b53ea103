package db

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/rabin"
)

// fullPage has every field of crawl.Page set to something distinct.
func fullPage() *crawl.Page {
	p := &crawl.Page{
		URL: "http://127.0.0.1:8080/a", FP: rabin.FingerprintString("http://127.0.0.1:8080/a"),
		Host: "127.0.0.1:8080", IP: "127.0.0.1", Depth: 2, Parent: "http://127.0.0.1:8080/",
		Status: 200, FinalURL: "http://127.0.0.1:8080/a/", ContentType: "text/html", Charset: "gbk",
		ContentEncoding: "gzip", ContentLength: 321, Length: 987,
		LastModified: time.Date(2003, 4, 5, 6, 7, 8, 0, time.UTC),
		Expires:      time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC),
		ETag:         `"abc"`, Title: "网络机器人", Description: "desc", Keywords: "k1, k2", Author: "Yang",
		Robots: "noindex", Text: "分布式 可控 robots text", ContentFP: 0xfedcba9876543210,
		FetchedAt: time.Date(2024, 5, 1, 12, 0, 0, 123456789, time.UTC), Duration: 1500 * time.Millisecond,
		Redirects: []crawl.Hop{{URL: "http://127.0.0.1:8080/old", Status: 301}, {URL: "http://127.0.0.1:8080/a", Status: 302}},
		Links: []crawl.Link{
			{URL: "http://127.0.0.1:8080/b", Kind: crawl.LinkA, Text: "B"},
			{URL: "http://127.0.0.1:8080/i.png", Kind: crawl.LinkImg, Text: "alt"},
			{URL: "http://127.0.0.1:8080/b", Kind: crawl.LinkArea},
		},
	}
	return p
}

func TestPageRoundTrip(t *testing.T) {
	d := mustOpen(t)
	s := mustCrawl(t, d, "http://127.0.0.1:8080/")
	ctx := context.Background()
	want := fullPage()
	mustApply(t, s, "run", &crawl.Batch{Pages: []*crawl.Page{want}})
	id, err := d.PageID(ctx, s.ID(), want.URL)
	if err != nil {
		t.Fatal(err)
	}
	got, err := d.Page(ctx, s.ID(), id)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Page round trip\n got %+v\nwant %+v", got, want)
	}
	if _, err := d.Page(ctx, s.ID()+1, id); !errors.Is(err, ErrNotFound) {
		t.Errorf("page of another crawl: %v; want ErrNotFound", err)
	}
	if _, err := d.PageID(ctx, s.ID(), "http://nowhere/"); !errors.Is(err, ErrNotFound) {
		t.Errorf("PageID of an unknown URL: %v", err)
	}

	// Stored again (a re-fetch), the page replaces the old one.
	again := fullPage()
	again.Title, again.Links = "second", again.Links[:1]
	mustApply(t, s, "run", &crawl.Batch{Pages: []*crawl.Page{again}})
	if n, _ := d.CountPages(ctx, PageQuery{Crawl: s.ID()}); n != 1 {
		t.Fatalf("%d pages after storing one URL twice", n)
	}
	id, _ = d.PageID(ctx, s.ID(), want.URL)
	if got, err := d.Page(ctx, s.ID(), id); err != nil || got.Title != "second" || len(got.Links) != 1 {
		t.Errorf("replaced page = %+v, %v", got, err)
	}
	if rows, err := d.Search(ctx, s.ID(), "网络机器人", 10); err != nil || len(rows) != 0 {
		t.Errorf("old title still found: %v, %v", rows, err)
	}
	if rows, err := d.Search(ctx, s.ID(), "second", 10); err != nil || len(rows) != 1 {
		t.Errorf("new title not found: %v, %v", rows, err)
	}
}

func TestSameURLTwiceInOneBatch(t *testing.T) {
	d := mustOpen(t)
	s := mustCrawl(t, d, "http://127.0.0.1/")
	first, second := page("http://127.0.0.1/x", 0, 1), page("http://127.0.0.1/x", 0, 2)
	first.Title, second.Title = "alpha", "beta"
	mustApply(t, s, "run", &crawl.Batch{Pages: []*crawl.Page{first, second}})
	ctx := context.Background()
	for query, n := range map[string]int{"alpha": 0, "beta": 1} {
		if rows, err := d.Search(ctx, s.ID(), query, 10); err != nil || len(rows) != n {
			t.Errorf("Search(%s) = %d rows, %v; want %d", query, len(rows), err, n)
		}
	}
	if out, err := d.Outlinks(ctx, s.ID(), "http://127.0.0.1/x", 0); err != nil || len(out) != 2 {
		t.Errorf("links left: %d, %v; want the second page's 2", len(out), err)
	}
	checkIndex(t, d)
}

func TestLinksBothWays(t *testing.T) {
	d := mustOpen(t)
	s := mustCrawl(t, d, "http://127.0.0.1:8080/")
	other := mustCrawl(t, d, "http://127.0.0.1:8080/")
	ctx := context.Background()
	a := fullPage()
	c := page("http://127.0.0.1:8080/c", 1, 0)
	c.Links = []crawl.Link{{URL: "http://127.0.0.1:8080/b", Kind: crawl.LinkFrame, Text: "from c"}}
	mustApply(t, s, "run", &crawl.Batch{Pages: []*crawl.Page{a, c}})
	mustApply(t, other, "run", &crawl.Batch{Pages: []*crawl.Page{fullPage()}})

	in, err := d.Inlinks(ctx, s.ID(), "http://127.0.0.1:8080/b", 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []LinkRow{
		{From: a.URL, To: "http://127.0.0.1:8080/b", Kind: crawl.LinkA, Text: "B"},
		{From: a.URL, To: "http://127.0.0.1:8080/b", Kind: crawl.LinkArea},
		{From: c.URL, To: "http://127.0.0.1:8080/b", Kind: crawl.LinkFrame, Text: "from c"},
	}
	if !slices.Equal(in, want) {
		t.Errorf("Inlinks = %+v\nwant %+v", in, want)
	}
	if in, _ := d.Inlinks(ctx, s.ID(), "http://127.0.0.1:8080/b", 1); len(in) != 1 {
		t.Errorf("Inlinks limit 1 gave %d", len(in))
	}
	out, err := d.Outlinks(ctx, s.ID(), a.URL, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 3 || out[1].To != "http://127.0.0.1:8080/i.png" || out[1].Kind != crawl.LinkImg || out[1].From != a.URL {
		t.Errorf("Outlinks = %+v", out)
	}
}

func TestDuplicates(t *testing.T) {
	d := mustOpen(t)
	s := mustCrawl(t, d, "http://127.0.0.1/")
	other := mustCrawl(t, d, "http://127.0.0.1/")
	ctx := context.Background()
	same := func(url string) *crawl.Page {
		p := page(url, 1, 0)
		p.Text = "identical body"
		p.ContentFP = rabin.FingerprintString(p.Text)
		return p
	}
	empty := page("http://127.0.0.1/empty1", 1, 0)
	empty2 := page("http://127.0.0.1/empty2", 1, 0)
	empty.ContentFP, empty2.ContentFP = 0, 0
	mustApply(t, other, "run", &crawl.Batch{Pages: []*crawl.Page{same("http://127.0.0.1/elsewhere")}})
	mustApply(t, s, "run", &crawl.Batch{Pages: []*crawl.Page{same("http://127.0.0.1/1"), empty, same("http://127.0.0.1/2")}})
	mustApply(t, s, "run", &crawl.Batch{Pages: []*crawl.Page{same("http://127.0.0.1/3"), empty2}})

	dups, err := d.Duplicates(ctx, s.ID(), rabin.FingerprintString("identical body"), 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range dups {
		got = append(got, r.URL+" <- "+r.DuplicateOf)
	}
	want := []string{
		"http://127.0.0.1/1 <- ",
		"http://127.0.0.1/2 <- http://127.0.0.1/1",
		"http://127.0.0.1/3 <- http://127.0.0.1/1",
	}
	if !slices.Equal(got, want) {
		t.Errorf("duplicates %q, want %q", got, want)
	}
	id, _ := d.PageID(ctx, s.ID(), "http://127.0.0.1/empty2")
	if p, err := d.Page(ctx, s.ID(), id); err != nil || p.DuplicateOf != "" {
		t.Errorf("page without text marked duplicate of %q (%v)", p.DuplicateOf, err)
	}
}

func TestFacetsAndErrors(t *testing.T) {
	d := mustOpen(t)
	s := mustCrawl(t, d, "http://127.0.0.1/")
	fill(t, s, 10)
	ctx := context.Background()
	hosts, err := d.Hosts(ctx, s.ID())
	if err != nil {
		t.Fatal(err)
	}
	if want := []Facet{{"127.0.0.1:8080", 5}, {"127.0.0.1:8081", 5}}; !slices.Equal(hosts, want) {
		t.Errorf("Hosts = %v, want %v", hosts, want)
	}
	types, err := d.ContentTypes(ctx, s.ID())
	if err != nil {
		t.Fatal(err)
	}
	if want := []Facet{{"image/png", 3}, {"text/html", 4}, {"text/plain", 3}}; !slices.Equal(types, want) {
		t.Errorf("ContentTypes = %v, want %v", types, want)
	}
	errs, err := d.Errors(ctx, s.ID(), 0)
	if err != nil {
		t.Fatal(err)
	}
	// fill gives statuses 200 301 404 500 0 200 301 404 500 0: six failures.
	if len(errs) != 6 {
		t.Fatalf("%d errors logged, want 6: %+v", len(errs), errs)
	}
	if e := errs[0]; e.Status != 0 || e.Message != "connection refused" || e.At.IsZero() {
		t.Errorf("newest error %+v", e)
	}
	if e := errs[1]; e.Status != 500 || e.Message != "HTTP 500 Internal Server Error" {
		t.Errorf("second newest error %+v", e)
	}
	if c := mustCounts(t, s); c.Done != 4 || c.Error != 6 {
		t.Errorf("counts %+v; want 4 done, 6 error", c)
	}
}
