package db

import (
	"context"
	"testing"
)

// bigFilter is a choice of the Results window's filters on the big crawl
// (see buildBig), with how many pages it keeps.
type bigFilter struct {
	name string
	q    PageQuery
	n    int
}

func bigFilters() []bigFilter {
	one, two, three := 1, 2, 3
	return []bigFilter{
		{"all", PageQuery{}, millionPages},
		{"2xx", PageQuery{StatusClass: 2}, 600_000},
		{"3xx", PageQuery{StatusClass: 3}, 100_000},
		{"4xx", PageQuery{StatusClass: 4}, 100_000},
		{"5xx", PageQuery{StatusClass: 5}, 100_000},
		{"noanswer", PageQuery{StatusClass: -1}, 100_000},
		{"host", PageQuery{Host: "host7.test"}, 20_000},
		{"type", PageQuery{ContentType: "text/html"}, millionPages},
		{"depth", PageQuery{Depth: &three}, 166_667},
		{"black", PageQuery{Verdict: "black"}, 10_000},
		{"grey", PageQuery{Verdict: "grey"}, 100_000},
		{"white", PageQuery{Verdict: "white"}, 590_000},
		{"near", PageQuery{NearDuplicates: true}, 50_000},
		{"search", PageQuery{Search: "text"}, millionPages},
		{"search-rare", PageQuery{Search: "w123"}, 1000},
		{"search-4xx", PageQuery{Search: "text", StatusClass: 4}, 100_000},
		{"search-host", PageQuery{Search: "text", Host: "host7.test"}, 20_000},
		{"2xx-host", PageQuery{StatusClass: 2, Host: "host3.test"}, 20_000},
		{"4xx-depth", PageQuery{StatusClass: 4, Depth: &one}, 33_334},
		{"grey-2xx-depth", PageQuery{Verdict: "grey", StatusClass: 2, Depth: &two}, 33_334},
		{"near-host", PageQuery{NearDuplicates: true, Host: "host0.test"}, 5000},
		{"black-host", PageQuery{Verdict: "black", Host: "host5.test"}, 10_000},
		{"search-black", PageQuery{Search: "text", Verdict: "black"}, 10_000},
		{"search-near", PageQuery{Search: "text", NearDuplicates: true}, 50_000},
	}
}

// BenchmarkBrowseMillion measures the Results window's reads on a crawl
// of a million pages: every filter of bigFilters with every sort (the
// first screen, read by offset as the window does, and the next one after
// its cursor), the count the window shows for each, screens deep into a
// listing by offset and after a cursor, the filters' drop-downs, the
// crawls list, and the reads of the detail pane for a page in a
// near-duplicate group.
//
//	TRAWLER_LONG=1 go test -run '^$' -bench BrowseMillion -benchtime 1x -timeout 60m ./db
func BenchmarkBrowseMillion(b *testing.B) {
	d, id := bigCrawl(b)
	ctx := context.Background()
	sorts := []SortKey{SortStored, SortURL, SortStatus, SortTitle, SortDepth, SortType, SortSize, SortFetched}
	for _, f := range bigFilters() {
		f.q.Crawl = id
		for _, sort := range append(sorts, SortRelevance) {
			if sort == SortRelevance && f.q.Search == "" {
				continue
			}
			for _, desc := range []bool{false, true} {
				if desc && sort != SortURL && sort != SortTitle {
					continue
				}
				q := f.q
				q.Sort, q.Desc = sort, desc
				name := "list/" + f.name + "/" + sortName(sort, desc)
				b.Run(name, func(b *testing.B) {
					for b.Loop() {
						forgetRankings(d)
						benchScreens(b, d, q, min(f.n, 200))
					}
				})
			}
		}
		b.Run("count/"+f.name, func(b *testing.B) {
			for b.Loop() {
				if n, err := d.CountPages(ctx, f.q); err != nil || n != f.n {
					b.Fatalf("%d pages, %v; want %d", n, err, f.n)
				}
			}
		})
	}
	for _, sort := range sorts {
		q := PageQuery{Crawl: id, Sort: sort}
		b.Run("offset900k/"+sortName(sort, false), func(b *testing.B) {
			for b.Loop() {
				if rows, err := d.PagesAt(ctx, q, 900_000, 100); err != nil || len(rows) != 100 {
					b.Fatal(len(rows), err)
				}
			}
		})
		rows, err := d.PagesAt(ctx, q, 900_000, 1)
		if err != nil || len(rows) != 1 {
			b.Fatal(len(rows), err)
		}
		after := q
		after.After, after.Limit = rows[0].Cursor(sort), 100
		b.Run("after900k/"+sortName(sort, false), func(b *testing.B) {
			for b.Loop() {
				if rows, err := d.Pages(ctx, after); err != nil || len(rows) != 100 {
					b.Fatal(len(rows), err)
				}
			}
		})
	}
	for _, c := range []struct {
		filter string
		sort   SortKey
		offset int
	}{{"2xx", SortURL, 300_000}, {"4xx", SortTitle, 50_000}, {"depth", SortFetched, 80_000}, {"grey", SortURL, 50_000},
		{"host", SortStored, 10_000}, {"search", SortURL, 500_000}} {
		q := bigQuery(id, c.filter)
		q.Sort = c.sort
		b.Run("offset/"+c.filter+"/"+sortName(c.sort, false), func(b *testing.B) {
			for b.Loop() {
				if rows, err := d.PagesAt(ctx, q, c.offset, 100); err != nil || len(rows) != 100 {
					b.Fatal(len(rows), err)
				}
			}
		})
	}
	b.Run("facets/hosts", func(b *testing.B) {
		for b.Loop() {
			if f, err := d.Hosts(ctx, id); err != nil || len(f) != 50 {
				b.Fatal(len(f), err)
			}
		}
	})
	b.Run("facets/types", func(b *testing.B) {
		for b.Loop() {
			if f, err := d.ContentTypes(ctx, id); err != nil || len(f) != 1 {
				b.Fatal(len(f), err)
			}
		}
	})
	b.Run("detail", func(b *testing.B) {
		near, err := d.PagesAt(ctx, PageQuery{Crawl: id, NearDuplicates: true}, 0, 1)
		if err != nil || len(near) != 1 {
			b.Fatal(near, err)
		}
		p := near[0]
		for b.Loop() {
			benchDetail(b, d, id, p)
		}
	})
	b.Run("crawls", func(b *testing.B) {
		for b.Loop() {
			if c, err := d.Crawls(ctx); err != nil || len(c) != 1 || c[0].Pages != millionPages {
				b.Fatal(c, err)
			}
		}
	})
}

// benchDetail makes the reads of the Results window's detail pane (see
// gui/browse.LoadDetail) for page p of crawl id.
func benchDetail(b *testing.B, d *DB, id int64, p PageRow) {
	ctx := context.Background()
	page, err := d.Page(ctx, id, p.ID)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := d.History(ctx, id, p.URL); err != nil {
		b.Fatal(err)
	}
	if _, _, err := d.Verdict(ctx, p.ID); err != nil {
		b.Fatal(err)
	}
	if _, err := d.RedirectChain(ctx, id, p.URL); err != nil {
		b.Fatal(err)
	}
	if _, err := d.CountInlinks(ctx, id, p.URL); err != nil {
		b.Fatal(err)
	}
	if _, err := d.InlinkSources(ctx, id, p.URL, 0, 50); err != nil {
		b.Fatal(err)
	}
	if _, err := d.Duplicates(ctx, id, page.ContentFP, 50); err != nil {
		b.Fatal(err)
	}
	if near, err := d.NearDuplicates(ctx, id, p.ID, 50); err != nil || len(near) < 2 {
		b.Fatal(len(near), err)
	}
}

// forgetRankings drops the rankings of searches the store keeps (see
// rankings), and its answers to whether a search matches every page (see
// keepsAll): each listing then ranks and counts its search afresh, as a
// new search does, rather than reuse another filter's.
func forgetRankings(d *DB) {
	d.rankings.mu.Lock()
	defer d.rankings.mu.Unlock()
	d.rankings.list = nil
	d.keepsAll.mu.Lock()
	defer d.keepsAll.mu.Unlock()
	d.keepsAll.list = nil
}

// benchScreens reads the first screen of q as the window does (by
// offset), then the next one after its last row: want rows in all.
func benchScreens(b *testing.B, d *DB, q PageQuery, want int) {
	ctx := context.Background()
	rows, err := d.PagesAt(ctx, q, 0, 100)
	if err != nil || len(rows) != min(want, 100) {
		b.Fatalf("first screen: %d rows, %v", len(rows), err)
	}
	next := q
	next.After, next.Limit = rows[len(rows)-1].Cursor(q.Sort), 100
	if rows, err = d.Pages(ctx, next); err != nil || len(rows) != want-100 {
		b.Fatalf("next screen: %d rows, %v", len(rows), err)
	}
}

func bigQuery(id int64, filter string) PageQuery {
	for _, f := range bigFilters() {
		if f.name == filter {
			f.q.Crawl = id
			return f.q
		}
	}
	panic("no filter " + filter)
}

func sortName(s SortKey, desc bool) string {
	name := string(s)
	if s == SortStored {
		name = "stored"
	}
	if desc {
		name += "-desc"
	}
	return name
}
