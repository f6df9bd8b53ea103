package db

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/rabin"
)

// checkCounts fails the test unless page_counts holds what counting the
// crawl's pages gives, and the reads made from it agree with counts of
// the pages themselves.
func checkCounts(t *testing.T, d *DB, crawlID int64) {
	t.Helper()
	ctx := context.Background()
	kept := countRows(t, d, `SELECT host, content_type, status, depth, pages, bytes FROM page_counts
WHERE crawl_id = ? AND pages <> 0`, crawlID)
	counted := countRows(t, d, `SELECT host, content_type, status, depth, count(*), coalesce(sum(length), 0) FROM pages
WHERE crawl_id = ? GROUP BY host, content_type, status, depth`, crawlID)
	if !maps.Equal(kept, counted) {
		t.Fatalf("crawl %d: page_counts\n%v\nwant\n%v", crawlID, kept, counted)
	}
	var pages, bytes int64
	for _, s := range counted {
		pages, bytes = pages+s.pages, bytes+s.bytes
	}
	if pages > 0 {
		c, err := d.CrawlInfo(ctx, crawlID)
		if err != nil || c.Pages != pages || c.Bytes != bytes {
			t.Errorf("CrawlInfo = %d pages, %d bytes, %v; want %d, %d", c.Pages, c.Bytes, err, pages, bytes)
		}
	}
	for _, col := range []string{"host", "content_type"} {
		got, err := d.facets(ctx, col, crawlID)
		if err != nil {
			t.Fatal(err)
		}
		var want []Facet
		rows, err := d.r.Query(`SELECT `+col+`, count(*) FROM pages WHERE crawl_id = ? GROUP BY `+col+` ORDER BY `+col, crawlID)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var f Facet
			if err := rows.Scan(&f.Value, &f.Count); err != nil {
				t.Fatal(err)
			}
			want = append(want, f)
		}
		rows.Close()
		if !slices.Equal(got, want) {
			t.Errorf("%s values = %v, want %v", col, got, want)
		}
	}
}

func countRows(t *testing.T, d *DB, query string, args ...any) map[countKey]countSum {
	t.Helper()
	rows, err := d.r.Query(query, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	m := map[countKey]countSum{}
	for rows.Next() {
		var k countKey
		var s countSum
		if err := rows.Scan(&k.host, &k.ctype, &k.status, &k.depth, &s.pages, &s.bytes); err != nil {
			t.Fatal(err)
		}
		m[k] = s
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestKeptCounts follows the counts through everything that stores,
// replaces, rewrites, keeps or deletes pages.
func TestKeptCounts(t *testing.T) {
	d := mustOpen(t)
	ctx := context.Background()
	s := mustCrawl(t, d, "http://127.0.0.1/")
	other := mustCrawl(t, d, "http://127.0.0.2/")
	fill(t, s, 40)
	fill(t, other, 15)
	checkCounts(t, d, s.ID())
	checkCounts(t, d, other.ID())

	// Stored again in the same cycle: the page is replaced, on another
	// host, with another status and size; a batch may hold a URL twice.
	again := page("http://127.0.0.1:8080/p0001", 3, 1)
	again.Host, again.Status, again.Length, again.ContentType = "elsewhere:80", 404, 99, "text/plain"
	twice := page("http://127.0.0.1:8080/p0002", 1, 0)
	twice2 := page("http://127.0.0.1:8080/p0002", 2, 0)
	twice2.Length = 7
	mustApply(t, s, "", &crawl.Batch{Pages: []*crawl.Page{again, twice, twice2, page("http://127.0.0.1:9/new", 0, 0)}})
	checkCounts(t, d, s.ID())

	// A re-crawl: a page rewritten with other values, a 304 and a failed
	// revisit that keep the stored page (a 304 after an error is ok again).
	nextCycle(t, d, s)
	changed := page("http://127.0.0.1:8080/p0003", 2, 0)
	changed.Host, changed.Status, changed.Length, changed.Text = "moved:80", 200, 5555, "new text"
	notModified := &crawl.Page{URL: "http://127.0.0.1:8081/p0004", FP: rabin.FingerprintString("http://127.0.0.1:8081/p0004"),
		Status: 304, FetchedAt: time.Now()}
	failed := &crawl.Page{URL: "http://127.0.0.1:8080/p0001", FP: rabin.FingerprintString("http://127.0.0.1:8080/p0001"),
		Status: 503, FetchedAt: time.Now()}
	mustApply(t, s, "", &crawl.Batch{Pages: []*crawl.Page{changed, notModified, failed}})
	checkCounts(t, d, s.ID())
	nextCycle(t, d, s)
	back := &crawl.Page{URL: failed.URL, FP: failed.FP, Status: 304, FetchedAt: time.Now()}
	mustApply(t, s, "", &crawl.Batch{Pages: []*crawl.Page{back}})
	if err := s.FinishCycle(ctx); err != nil {
		t.Fatal(err)
	}
	checkCounts(t, d, s.ID())
	checkCounts(t, d, other.ID())

	if err := d.DeleteCrawl(ctx, s.ID()); err != nil {
		t.Fatal(err)
	}
	var left int
	if err := d.r.QueryRow(`SELECT count(*) FROM page_counts WHERE crawl_id = ?`, s.ID()).Scan(&left); err != nil || left != 0 {
		t.Errorf("%d rows of page_counts left for a deleted crawl, %v", left, err)
	}
	checkCounts(t, d, other.ID())
}

// TestKeptCountsCountListings compares CountPages, which reads the kept
// counts for filters on status class, type, host and depth, with the
// pages themselves.
func TestKeptCountsCountListings(t *testing.T) {
	d := mustOpen(t)
	s := mustCrawl(t, d, "http://127.0.0.1/")
	fill(t, s, 61)
	raw := rawRows(t, d, s.ID())
	zero, two := 0, 2
	for _, q := range []PageQuery{{}, {StatusClass: 2}, {StatusClass: 4}, {StatusClass: -1}, {ContentType: "image/png"},
		{Host: "127.0.0.1:8081"}, {Depth: &two}, {Depth: &zero, StatusClass: 3, Host: "127.0.0.1:8080"},
		{ContentType: "text/plain", StatusClass: 5}, {Host: "nowhere"}} {
		want := 0
		for _, r := range raw {
			if keeps(q, r) {
				want++
			}
		}
		q.Crawl = s.ID()
		if n, err := d.CountPages(context.Background(), q); err != nil || n != want {
			t.Errorf("CountPages(%+v) = %d, %v; want %d", q, n, err, want)
		}
	}
}

// keeps reports whether raw row r passes q's status class, type, host and
// depth filters.
func keeps(q PageQuery, r rawRow) bool {
	switch c := int64(q.StatusClass); {
	case c == -1 && r.status != 0, c > 0 && r.status/100 != c:
		return false
	}
	return (q.ContentType == "" || r.ctype == q.ContentType) && (q.Host == "" || r.host == q.Host) &&
		(q.Depth == nil || r.depth == int64(*q.Depth))
}

// TestMigrationKeepsCounts opens a file of schema version 6 holding pages:
// the migration counts them, and the counts then follow new batches.
func TestMigrationKeepsCounts(t *testing.T) {
	sqliteOnly(t)
	path := filepath.Join(t.TempDir(), "v6.db")
	old := oldSchema(t, path, 6)
	if _, err := old.Exec(`
INSERT INTO crawls (id, name, settings, created_at) VALUES (1, 'old', '{"Seeds":["http://127.0.0.1/"]}', 0);`); err != nil {
		t.Fatal(err)
	}
	for i := range 30 {
		_, err := old.Exec(`INSERT INTO pages (crawl_id, fp, url, host, depth, status, content_type, length, fetched_at)
VALUES (1, ?, ?, ?, ?, ?, 'text/html', ?, 0)`, i, fmt.Sprintf("http://h%d/p%d", i%3, i), fmt.Sprintf("h%d:80", i%3), i%4,
			[]int{200, 404, 0}[i%3], i*10)
		if err != nil {
			t.Fatal(err)
		}
	}
	old.Close()

	d := mustOpenPath(t, path)
	checkCounts(t, d, 1)
	var cols int
	if err := d.r.QueryRow(`SELECT count(*) FROM pragma_index_info('pages_stored')`).Scan(&cols); err != nil || cols != 4 {
		t.Errorf("pages_stored has %d columns, %v; want the reshaped index", cols, err)
	}
	mustApply(t, d.Crawl(1), "", &crawl.Batch{Pages: []*crawl.Page{page("http://h0/p0", 1, 0), page("http://h9/new", 2, 0)}})
	checkCounts(t, d, 1)
	// The migrated file lists, filters and searches with the new indexes.
	for _, q := range []PageQuery{{Sort: SortURL, StatusClass: 4}, {Host: "h1:80", Sort: SortTitle}, {Search: "quick", Sort: SortURL}} {
		q.Crawl = 1
		rows, err := d.Pages(context.Background(), q)
		n, cerr := d.CountPages(context.Background(), q)
		if err != nil || cerr != nil || len(rows) != n || n == 0 {
			t.Errorf("Pages(%+v) = %d rows, %v; CountPages = %d, %v", q, len(rows), err, n, cerr)
		}
	}
}
