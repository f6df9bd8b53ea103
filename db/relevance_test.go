package db

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/rabin"
)

// rankPages stores n pages in s, numbered from base, whose matches rank
// apart: page i's text holds "crawler" 1+i%3 times among i%7 other words
// (and 爬虫 when i%4 is 0), its title holds it when i%9 is 0; status,
// host and depth vary as fill's do.
func rankPages(tb testing.TB, s *CrawlStore, n, base int) {
	tb.Helper()
	b := &crawl.Batch{}
	for i := range n {
		u := fmt.Sprintf("http://127.0.0.1:%d/r%04d", 8080+i%2, base+i)
		p := page(u, i%4, 0)
		p.Host = fmt.Sprintf("127.0.0.1:%d", 8080+i%2)
		p.Status = []int{200, 301, 404, 500, 0}[i%5]
		p.Title = fmt.Sprintf("page %d", base+i)
		if i%9 == 0 {
			p.Title += " crawler"
		}
		p.Text = strings.Repeat("crawler ", 1+i%3) + strings.Repeat("filler ", i%7) + fmt.Sprintf("shared w%d", i%4)
		if i%4 == 0 {
			p.Text += " 爬虫"
		}
		p.ContentFP = rabin.FingerprintString(p.Text)
		b.Pages = append(b.Pages, p)
	}
	mustApply(tb, s, "", b)
}

// ftsRanks returns every match of an FTS5 query in the index with FTS5's
// rank (bm25 over the whole index), in id order.
func ftsRanks(t *testing.T, d *DB, match string) []scored {
	t.Helper()
	rows, err := d.r.Query(`SELECT rowid, rank FROM pages_fts WHERE pages_fts MATCH ? ORDER BY rowid`, match)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var all []scored
	for rows.Next() {
		var s scored
		if err := rows.Scan(&s.id, &s.rank); err != nil {
			t.Fatal(err)
		}
		all = append(all, s)
	}
	return all
}

// wantRelevance works out the listing relevance promises from FTS5's
// ranks of every match: the first window matches among the ids from lo
// to last ranked best first, then the later ones in stored order; keep
// says which pages are the crawl's and pass the filters.
func wantRelevance(all []scored, lo, last int64, window int, keep func(int64) bool) (list []scored, ranked int) {
	var in []scored
	for _, s := range all {
		if s.id >= lo && s.id <= last {
			in = append(in, s)
		}
	}
	win, rest := in[:min(window, len(in))], in[min(window, len(in)):]
	for _, s := range win {
		if keep(s.id) {
			list = append(list, s)
		}
	}
	slices.SortFunc(list, func(a, b scored) int { return cmp.Or(cmp.Compare(a.rank, b.rank), cmp.Compare(a.id, b.id)) })
	ranked = len(list)
	for _, s := range rest {
		if keep(s.id) {
			list = append(list, scored{id: s.id})
		}
	}
	return list, ranked
}

// TestRelevanceWindow lists searches best first on SQLite with windows
// smaller and larger than their matches, with filters, both ways, by
// cursor and by offset: the window's matches come first, in FTS5's bm25
// order and with its ranks, then the others in stored order with rank 0;
// a window holding every match lists them all in bm25's order.
func TestRelevanceWindow(t *testing.T) {
	sqliteOnly(t)
	d := mustOpen(t)
	s, other := mustCrawl(t, d, "http://127.0.0.1/"), mustCrawl(t, d, "http://127.0.0.2/")
	rankPages(t, s, 40, 0)
	rankPages(t, other, 15, 100) // stored between the crawl's pages: never listed
	rankPages(t, s, 40, 200)
	raw := map[int64]rawRow{}
	var lo, last int64 = math.MaxInt64, 0
	for _, r := range rawRows(t, d, s.ID()) {
		raw[r.id], lo, last = r, min(lo, r.id), max(last, r.id)
	}
	one := 1
	tests := []struct {
		typed string
		q     PageQuery
		keep  func(rawRow) bool
	}{
		{"crawler", PageQuery{}, func(rawRow) bool { return true }},
		{"crawler", PageQuery{StatusClass: 4}, func(r rawRow) bool { return r.status/100 == 4 }},
		{"crawler", PageQuery{Host: "127.0.0.1:8081"}, func(r rawRow) bool { return r.host == "127.0.0.1:8081" }},
		{"crawl shared", PageQuery{Depth: &one}, func(r rawRow) bool { return r.depth == 1 }},
		{"爬虫", PageQuery{}, func(rawRow) bool { return true }},
		{"fts: crawler OR w3", PageQuery{}, func(rawRow) bool { return true }},
	}
	defer func(w int) { rankWindow = w }(rankWindow)
	for _, window := range []int{1, 5, 17, 1000} {
		rankWindow = window
		for _, tt := range tests {
			match, err := ftsQuery(tt.typed)
			if err != nil {
				t.Fatal(err)
			}
			keep := func(id int64) bool { r, ok := raw[id]; return ok && tt.keep(r) }
			want, ranked := wantRelevance(ftsRanks(t, d, match), lo, last, window, keep)
			if window == 1000 && ranked != len(want) {
				t.Fatalf("%q: a window of 1000 ranked %d of %d matches", tt.typed, ranked, len(want))
			}
			for _, desc := range []bool{false, true} {
				t.Run(fmt.Sprintf("window%d/%s/%+v/desc=%v", window, tt.typed, tt.q, desc), func(t *testing.T) {
					q := tt.q
					q.Crawl, q.Search, q.Sort, q.Desc, q.Limit = s.ID(), tt.typed, SortRelevance, desc, 4
					checkRelevance(t, d, q, want, desc)
				})
			}
		}
	}
}

// checkRelevance lists q by cursor, by offset and whole, and compares
// each with want (best first; desc lists it backwards).
func checkRelevance(t *testing.T, d *DB, q PageQuery, want []scored, desc bool) {
	t.Helper()
	ctx := context.Background()
	if desc {
		want = slices.Clone(want)
		slices.Reverse(want)
	}
	var byCursor, byOffset []PageRow
	for calls := 0; calls <= len(want)/q.Limit+1; calls++ {
		rows, err := d.Pages(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		byCursor = append(byCursor, rows...)
		if len(rows) < q.Limit {
			break
		}
		q.After = rows[len(rows)-1].Cursor(SortRelevance)
	}
	for offset := 0; offset <= len(want); offset += q.Limit {
		rows, err := d.PagesAt(ctx, q, offset, q.Limit)
		if err != nil {
			t.Fatal(err)
		}
		byOffset = append(byOffset, rows...)
	}
	whole, err := d.PagesAt(ctx, q, 0, len(want)+10)
	if err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string][]PageRow{"by cursor": byCursor, "by offset": byOffset, "whole": whole} {
		if len(got) != len(want) {
			t.Errorf("%s: %d rows, want %d", name, len(got), len(want))
			continue
		}
		for i, r := range got {
			if r.ID != want[i].id || r.Rank != want[i].rank || r.Snippet == "" {
				t.Errorf("%s: row %d is page %d ranked %v (snippet %q), want page %d ranked %v",
					name, i, r.ID, r.Rank, r.Snippet, want[i].id, want[i].rank)
				break
			}
		}
	}
}

// TestRelevanceFirstScreenExact checks what the window guarantees a broad
// search: its first screen is bm25's first screen over every match when
// the best matches are among the first the window ranks. Here every page
// holds the word once, and the ten pages with it in the title as well,
// the best, were stored first, as a crawl's home and section pages are.
func TestRelevanceFirstScreenExact(t *testing.T) {
	sqliteOnly(t)
	d := mustOpen(t)
	s := mustCrawl(t, d, "http://127.0.0.1/")
	b := &crawl.Batch{}
	for i := range 300 {
		u := fmt.Sprintf("http://127.0.0.1/p%d", i)
		p := page(u, 1, 0)
		p.Title, p.Text = fmt.Sprintf("Page %d", i), fmt.Sprintf("a text of %s words", strings.Repeat("many ", i%13))
		if i < 10 {
			p.Title += " about text"
		}
		b.Pages = append(b.Pages, p)
	}
	mustApply(t, s, "", b)
	defer func(w int) { rankWindow = w }(rankWindow)
	rankWindow = 50
	all := ftsRanks(t, d, `"text"`)
	slices.SortFunc(all, func(a, b scored) int { return cmp.Or(cmp.Compare(a.rank, b.rank), cmp.Compare(a.id, b.id)) })
	rows, err := d.PagesAt(context.Background(), PageQuery{Crawl: s.ID(), Search: "text", Sort: SortRelevance}, 0, 10)
	if err != nil || len(rows) != 10 {
		t.Fatalf("first screen: %d rows, %v", len(rows), err)
	}
	for i, r := range rows {
		if r.ID != all[i].id || r.Rank != all[i].rank {
			t.Errorf("row %d is page %d ranked %v; bm25 over all %d matches has page %d ranked %v",
				i, r.ID, r.Rank, len(all), all[i].id, all[i].rank)
		}
	}
}

// TestRankingKept checks that a ranking serves the listings after it
// while the full-text index is unchanged, and no longer once a page is
// stored: the new page is listed.
func TestRankingKept(t *testing.T) {
	sqliteOnly(t)
	d := mustOpen(t)
	s := mustCrawl(t, d, "http://127.0.0.1/")
	rankPages(t, s, 20, 0)
	ctx := context.Background()
	first, err := d.rank(ctx, s.ID(), "crawler")
	if err != nil {
		t.Fatal(err)
	}
	if again, err := d.rank(ctx, s.ID(), "crawler"); err != nil || again != first {
		t.Errorf("the index unchanged, the search was ranked again (%v)", err)
	}
	rankPages(t, s, 1, 500)
	after, err := d.rank(ctx, s.ID(), "crawler")
	if err != nil || after == first || len(after.ids) != len(first.ids)+1 {
		t.Fatalf("after a page was stored: a ranking of %d pages (the kept one: %v), %v; want %d",
			len(after.ids), after == first, err, len(first.ids)+1)
	}
}

// TestRelevanceBadQueryEmptyCrawl checks that a search FTS5 cannot read
// is refused even where the crawl has no page to rank.
func TestRelevanceBadQueryEmptyCrawl(t *testing.T) {
	d := mustOpen(t)
	s := mustCrawl(t, d, "http://127.0.0.1/")
	bad := `fts: "unbalanced`
	if d.pg {
		bad = `fts: word12 |`
	}
	if _, err := d.Search(context.Background(), s.ID(), bad, 10); !errors.Is(err, ErrBadQuery) {
		t.Errorf("Search(%q) in an empty crawl = %v; want ErrBadQuery", bad, err)
	}
}
