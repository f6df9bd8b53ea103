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
	"time"
)

// rawRow is a page as read straight from the table, to check listings
// against an order and filter computed in Go.
type rawRow struct {
	id, status, depth, length, fetched int64
	url, title, ctype, host, text      string
}

func rawRows(t *testing.T, d *DB, crawlID int64) []rawRow {
	t.Helper()
	rows, err := d.r.Query(`SELECT id, status, depth, length, fetched_at, url, title, content_type, host, text
FROM pages WHERE crawl_id = ?`, crawlID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var list []rawRow
	for rows.Next() {
		var r rawRow
		if err := rows.Scan(&r.id, &r.status, &r.depth, &r.length, &r.fetched, &r.url, &r.title, &r.ctype, &r.host, &r.text); err != nil {
			t.Fatal(err)
		}
		list = append(list, r)
	}
	return list
}

// sortKeyOf returns r's value in the column of s, as the SQL compares it.
func sortKeyOf(r rawRow, s SortKey) any {
	switch s {
	case SortURL:
		return r.url
	case SortStatus:
		return r.status
	case SortTitle:
		return r.title
	case SortDepth:
		return r.depth
	case SortType:
		return r.ctype
	case SortSize:
		return r.length
	case SortFetched:
		return r.fetched
	}
	return int64(0)
}

func compareKeys(a, b any) int {
	switch a := a.(type) {
	case string:
		return strings.Compare(a, b.(string))
	case int64:
		return cmp.Compare(a, b.(int64))
	}
	panic("unknown key type")
}

// expected filters and sorts raw rows the way q asks, in Go.
func expected(raw []rawRow, q PageQuery, keep func(rawRow) bool) []int64 {
	var sel []rawRow
	for _, r := range raw {
		if keep == nil || keep(r) {
			sel = append(sel, r)
		}
	}
	slices.SortFunc(sel, func(a, b rawRow) int {
		c := compareKeys(sortKeyOf(a, q.Sort), sortKeyOf(b, q.Sort))
		if c == 0 {
			c = cmp.Compare(a.id, b.id)
		}
		if q.Desc {
			c = -c
		}
		return c
	})
	ids := make([]int64, len(sel))
	for i, r := range sel {
		ids[i] = r.id
	}
	return ids
}

// pageThrough lists q to the end with keyset paging, Limit rows at a time.
func pageThrough(t *testing.T, d *DB, q PageQuery) []int64 {
	t.Helper()
	var ids []int64
	for calls := 0; ; calls++ {
		rows, err := d.Pages(context.Background(), q)
		if err != nil {
			t.Fatalf("Pages(%+v): %v", q, err)
		}
		if len(rows) > q.Limit || calls > 1000 {
			t.Fatalf("Pages returned %d rows for limit %d (call %d)", len(rows), q.Limit, calls)
		}
		for _, r := range rows {
			ids = append(ids, r.ID)
		}
		if len(rows) < q.Limit {
			return ids
		}
		q.After = rows[len(rows)-1].Cursor(q.Sort)
	}
}

// checkPagesAt checks the n rows of q from offset off (as the window reads
// a screen) against want, the whole listing's ids.
func checkPagesAt(t *testing.T, d *DB, q PageQuery, want []int64, off, n int) {
	t.Helper()
	rows, err := d.PagesAt(context.Background(), q, off, n)
	if err != nil {
		t.Fatal(err)
	}
	var at []int64
	for _, r := range rows {
		at = append(at, r.ID)
	}
	if wantAt := want[min(off, len(want)):min(off+n, len(want))]; !slices.Equal(at, wantAt) {
		t.Errorf("PagesAt(%d, %d) = %v, want %v", off, n, at, wantAt)
	}
}

// judgedCrawl stores a crawl of 61 pages filled by fill, with verdicts
// and near-duplicate groups (see judgeAndGroup), and returns its rows.
func judgedCrawl(t *testing.T) (*DB, *CrawlStore, []rawRow) {
	t.Helper()
	d := mustOpen(t)
	s := mustCrawl(t, d, "http://127.0.0.1/")
	fill(t, s, 61)
	judgeAndGroup(t, d, s.ID())
	return d, s, rawRows(t, d, s.ID())
}

func TestKeysetPagingEverySort(t *testing.T) {
	d := mustOpen(t)
	s := mustCrawl(t, d, "http://127.0.0.1/")
	fill(t, s, 103)
	fill(t, mustCrawl(t, d, "http://127.0.0.2/"), 20) // another crawl, never listed
	raw := rawRows(t, d, s.ID())
	for _, sort := range []SortKey{SortStored, SortURL, SortStatus, SortTitle, SortDepth, SortType, SortSize, SortFetched} {
		for _, desc := range []bool{false, true} {
			q := PageQuery{Crawl: s.ID(), Sort: sort, Desc: desc, Limit: 10}
			t.Run(fmt.Sprintf("%s desc=%v", sort, desc), func(t *testing.T) {
				want := expected(raw, q, nil)
				got := pageThrough(t, d, q)
				if !slices.Equal(got, want) {
					t.Errorf("paged ids\n got %v\nwant %v", got, want)
				}
				for _, off := range []int{0, 1, 37, 99, 103, 200} {
					checkPagesAt(t, d, q, want, off, 5)
				}
			})
		}
	}
}

func TestPageFilters(t *testing.T) {
	d, s, raw := judgedCrawl(t)
	two := 2
	tests := []struct {
		name string
		q    PageQuery
		keep func(rawRow) bool
	}{
		{"2xx", PageQuery{StatusClass: 2}, func(r rawRow) bool { return r.status/100 == 2 }},
		{"4xx", PageQuery{StatusClass: 4}, func(r rawRow) bool { return r.status/100 == 4 }},
		{"network errors", PageQuery{StatusClass: -1}, func(r rawRow) bool { return r.status == 0 }},
		{"content type", PageQuery{ContentType: "text/plain"}, func(r rawRow) bool { return r.ctype == "text/plain" }},
		{"host", PageQuery{Host: "127.0.0.1:8081"}, func(r rawRow) bool { return r.host == "127.0.0.1:8081" }},
		{"depth", PageQuery{Depth: &two}, func(r rawRow) bool { return r.depth == 2 }},
		{"search", PageQuery{Search: "word7"}, func(r rawRow) bool { return strings.Contains(r.text+" ", "word7 ") }},
		{"search and filters", PageQuery{Search: "shared", StatusClass: 5},
			func(r rawRow) bool { return r.status/100 == 5 }},
		{"nothing", PageQuery{Host: "nowhere"}, func(r rawRow) bool { return false }},
		{"black", PageQuery{Verdict: "black"}, func(r rawRow) bool { return verdictOf(r) == "black" }},
		{"grey and 2xx", PageQuery{Verdict: "grey", StatusClass: 2},
			func(r rawRow) bool { return verdictOf(r) == "grey" && r.status/100 == 2 }},
		{"near", PageQuery{NearDuplicates: true}, nearDuplicate},
		{"near and host", PageQuery{NearDuplicates: true, Host: "127.0.0.1:8080"},
			func(r rawRow) bool { return nearDuplicate(r) && r.host == "127.0.0.1:8080" }},
		{"search and verdict", PageQuery{Search: "shared", Verdict: "white"},
			func(r rawRow) bool { return verdictOf(r) == "white" }},
		{"search, depth and type", PageQuery{Search: "shared", Depth: &two, ContentType: "text/html"},
			func(r rawRow) bool { return r.depth == 2 && r.ctype == "text/html" }},
	}
	defer func(budget time.Duration, scale, match float64, deep, sample int) {
		forcePlan, minBudget, budgetScale, costMatch, deepOffset, searchSample = nil, budget, scale, match, deep, sample
	}(minBudget, budgetScale, costMatch, deepOffset, searchSample)
	// Few matches are found through the filters' indexes and sorted; many
	// are found by walking the sort column's index, checking the filters
	// row by row or against sets. Take every way (see candidates); the
	// fifth stops every walk but the last at its first entry (see bounds);
	// the others take every way again, each walk bounded but long enough.
	// The tenth is the fifth, but counts a search's matches only when a
	// walk stops short, and then always (see planned).
	for way := range 10 {
		forcePlan = func(c []listPlan) listPlan { return c[min(way, len(c)-1)] }
		if way > 4 && way < 9 {
			forcePlan = func(c []listPlan) listPlan {
				p := c[min(way-5, len(c)-1)]
				if !p.gather {
					p.bound = 1 << 20
				}
				return p
			}
		}
		if way == 4 {
			forcePlan, minBudget, budgetScale, deepOffset, searchSample = nil, 0, 0, 0, 5
		}
		if way == 9 {
			forcePlan, deepOffset, costMatch = nil, math.MaxInt32, 0
		}
		for _, tt := range tests {
			for _, sort := range []SortKey{SortStored, SortURL, SortStatus, SortTitle} {
				t.Run(fmt.Sprintf("%s/%s/plan%d", tt.name, sort, way), func(t *testing.T) {
					q := tt.q
					q.Crawl, q.Limit, q.Sort, q.Desc = s.ID(), 4, sort, sort == SortStatus
					want := expected(raw, q, tt.keep)
					if len(want) == 0 && tt.name != "nothing" {
						t.Fatal("the filter selects nothing: the test data is wrong")
					}
					if got := pageThrough(t, d, q); !slices.Equal(got, want) {
						t.Errorf("ids %v, want %v", got, want)
					}
					checkPagesAt(t, d, q, want, 3, 5)
					n, err := d.CountPages(context.Background(), q)
					if err != nil || n != len(want) {
						t.Errorf("CountPages = %d, %v; want %d", n, err, len(want))
					}
				})
			}
		}
	}
}

func TestSearchSnippetsAndErrors(t *testing.T) {
	d := mustOpen(t)
	s := mustCrawl(t, d, "http://127.0.0.1/")
	fill(t, s, 30)
	ctx := context.Background()

	rows, err := d.Pages(ctx, PageQuery{Crawl: s.ID(), Search: "word12"})
	if err != nil {
		t.Fatal(err)
	}
	marked := string(MatchStart) + "word12" + string(MatchEnd)
	if len(rows) != 1 || !strings.Contains(rows[0].Snippet, marked) {
		t.Fatalf("Pages with search word12 = %+v; want one row with a marked snippet", rows)
	}
	// After fts: the database's own syntax: FTS5's on SQLite, tsquery's
	// on PostgreSQL.
	or, bads := "fts: word12 OR word13", []string{`fts: "unbalanced`, `fts: AND`, `fts: word12 OR`, `fts: nocolumn:word`}
	if d.pg {
		or, bads = "fts: word12 | word13", []string{`fts: word12 |`, `fts: (word12`, `fts: & word12`, `fts: word12 <->`}
	}
	found, err := d.Search(ctx, s.ID(), or, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(found) != 2 || !strings.Contains(found[0].Snippet, string(MatchStart)+"word1") {
		t.Errorf("Search = %+v", found)
	}
	if none, err := d.Search(ctx, s.ID()+1, "word12", 10); err != nil || len(none) != 0 {
		t.Errorf("Search of another crawl = %v, %v; want nothing", none, err)
	}
	// Plain text never fails: punctuation, quotes, operators and URLs are
	// words and phrases.
	for _, typed := range []string{`"unbalanced`, `AND`, `word12 OR`, `nocolumn:word`, `(word12`, `word12*`,
		`-word12`, `http://127.0.0.1:8080/p0024?x=1`, `f([a], [b])`, `NEAR(a b)`} {
		if _, err := d.Search(ctx, s.ID(), typed, 10); err != nil {
			t.Errorf("Search(%q) = %v; plain text must search", typed, err)
		}
		if _, err := d.CountPages(ctx, PageQuery{Crawl: s.ID(), Search: typed}); err != nil {
			t.Errorf("CountPages with search %q = %v", typed, err)
		}
	}
	if got, _ := d.Search(ctx, s.ID(), "http://127.0.0.1:8080/p0024", 10); len(got) != 1 {
		t.Errorf("a pasted URL found %d pages, want 1", len(got))
	}
	for _, bad := range append(bads, `fts: (`, `((`) {
		_, err := d.Search(ctx, s.ID(), bad, 10)
		if !errors.Is(err, ErrBadQuery) || IsStorageError(err) {
			t.Errorf("Search(%q) = %v; want ErrBadQuery, not a storage error", bad, err)
		}
		if err != nil && strings.Contains(err.Error(), "SQL logic error") {
			t.Errorf("Search(%q) = %v; want no raw SQL error", bad, err)
		}
		_, err = d.Pages(ctx, PageQuery{Crawl: s.ID(), Search: bad})
		if !errors.Is(err, ErrBadQuery) {
			t.Errorf("Pages with search %q = %v; want ErrBadQuery", bad, err)
		}
		if _, err := d.CountPages(ctx, PageQuery{Crawl: s.ID(), Search: bad}); !errors.Is(err, ErrBadQuery) {
			t.Errorf("CountPages with search %q = %v; want ErrBadQuery", bad, err)
		}
	}
	if _, err := d.Pages(ctx, PageQuery{Crawl: s.ID(), Sort: "colour"}); err == nil {
		t.Error("unknown sort column accepted")
	}
	if _, err := d.Pages(ctx, PageQuery{Crawl: s.ID(), StatusClass: 7}); err == nil {
		t.Error("status class 7 accepted")
	}
}

// judgeAndGroup gives pages of a crawl filled by fill verdicts and near-
// duplicate groups, by id (see verdictOf and nearDuplicate).
func judgeAndGroup(t *testing.T, d *DB, crawlID int64) {
	t.Helper()
	for _, q := range []string{
		`INSERT INTO verdicts (page_id, crawl_id, pending, verdict)
SELECT id, crawl_id, 0, CASE id % 3 WHEN 0 THEN 'black' WHEN 1 THEN 'grey' ELSE 'white' END FROM pages
WHERE crawl_id = ? AND id % 4 <> 0`,
		`UPDATE pages SET near_group = fp WHERE crawl_id = ?`,
		`UPDATE pages SET near_group = (SELECT q.fp FROM pages q WHERE q.id = pages.id - 1), near_similarity = 0.9,
    near_of = (SELECT q.fp FROM pages q WHERE q.id = pages.id - 1)
WHERE crawl_id = ? AND id % 7 = 1 AND id > 1`,
		// What the writer keeps for the pages it stores (db/nearflag.go).
		`UPDATE pages SET near = 1 WHERE crawl_id = ?1 AND near_group IN (
    SELECT near_group FROM pages WHERE crawl_id = ?1 AND near_of <> 0)`,
	} {
		if _, err := d.w.Exec(q, crawlID); err != nil {
			t.Fatal(err)
		}
	}
}

// verdictOf is the verdict judgeAndGroup gave a page.
func verdictOf(r rawRow) string {
	if r.id%4 == 0 {
		return ""
	}
	return []string{"black", "grey", "white"}[r.id%3]
}

// nearDuplicate reports whether judgeAndGroup put a page in a group with
// a match: the pages that matched (id 8, 15, …) and their matches.
func nearDuplicate(r rawRow) bool {
	return (r.id%7 == 1 && r.id > 1) || r.id%7 == 0
}

// TestRelevanceWithFilters lists searches best first with other filters:
// every match the filters keep, once, ranks in order, on both stores.
func TestRelevanceWithFilters(t *testing.T) {
	d, s, raw := judgedCrawl(t)
	fill(t, mustCrawl(t, d, "http://127.0.0.2/"), 20) // another crawl's matches, never listed
	for _, tt := range []struct {
		q    PageQuery
		keep func(rawRow) bool
	}{
		{PageQuery{Search: "shared"}, nil},
		{PageQuery{Search: "shared", StatusClass: 4}, func(r rawRow) bool { return r.status/100 == 4 }},
		{PageQuery{Search: "shared", Verdict: "grey", Host: "127.0.0.1:8080"},
			func(r rawRow) bool { return verdictOf(r) == "grey" && r.host == "127.0.0.1:8080" }},
		{PageQuery{Search: "body", NearDuplicates: true}, nearDuplicate},
	} {
		q := tt.q
		q.Crawl, q.Sort, q.Limit = s.ID(), SortRelevance, 4
		want := expected(raw, PageQuery{}, tt.keep)
		var got []int64
		var last *PageRow
		for calls := 0; calls < 100; calls++ {
			rows, err := d.Pages(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range rows {
				if last != nil && (r.Rank < last.Rank || (r.Rank == last.Rank && r.ID <= last.ID)) {
					t.Errorf("%+v: row %d (rank %v) after row %d (rank %v)", tt.q, r.ID, r.Rank, last.ID, last.Rank)
				}
				got, last = append(got, r.ID), &rows[i]
				if r.Snippet == "" {
					t.Errorf("%+v: row %d has no snippet", tt.q, r.ID)
				}
			}
			if len(rows) < q.Limit {
				break
			}
			q.After = rows[len(rows)-1].Cursor(SortRelevance)
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%+v: listed %v, want %v", tt.q, got, want)
		}
		if n, err := d.CountPages(context.Background(), q); err != nil || n != len(want) {
			t.Errorf("%+v: CountPages = %d, %v; want %d", tt.q, n, err, len(want))
		}
	}
}
