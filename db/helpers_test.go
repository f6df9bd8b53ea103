package db

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/rabin"
	"github.com/trawler/trawler/db/pgtest"
)

// mustOpen opens a fresh database, closed at the end of the test: a file
// in a temporary folder, or an empty PostgreSQL schema when the suite runs
// against PostgreSQL (see testDB).
func mustOpen(tb testing.TB) *DB {
	tb.Helper()
	return mustOpenPath(tb, testDB(tb))
}

// onPostgres is set when this run of the suite is against PostgreSQL.
var onPostgres = os.Getenv("TRAWLER_TEST_BACKEND") == "postgres"

// testDB names a fresh database for a test: a SQLite file, or a
// PostgreSQL schema of its own.
func testDB(tb testing.TB) string {
	tb.Helper()
	if onPostgres {
		return pgtest.URL(tb)
	}
	return filepath.Join(tb.TempDir(), "trawler.db")
}

// sqliteOnly skips a test of what only the SQLite store has (its file).
func sqliteOnly(tb testing.TB) {
	if onPostgres {
		tb.Skip("SQLite only")
	}
}

func mustOpenPath(tb testing.TB, path string) *DB {
	tb.Helper()
	d, err := Open(path)
	if err != nil {
		tb.Fatalf("Open(%s): %v", path, err)
	}
	tb.Cleanup(func() { d.Close() })
	return d
}

// mustCrawl creates a crawl seeded with seed and returns its store.
func mustCrawl(tb testing.TB, d *DB, seed string) *CrawlStore {
	tb.Helper()
	cfg := crawl.DefaultConfig()
	cfg.Seeds = []string{seed}
	id, err := d.CreateCrawl(context.Background(), "", cfg)
	if err != nil {
		tb.Fatalf("CreateCrawl: %v", err)
	}
	return d.Crawl(id)
}

func mustApply(tb testing.TB, s *CrawlStore, owner string, b *crawl.Batch) {
	tb.Helper()
	if err := s.Apply(context.Background(), owner, b); err != nil {
		tb.Fatalf("Apply: %v", err)
	}
}

func item(url string, depth int) crawl.Item {
	return crawl.Item{URL: url, FP: rabin.FingerprintString(url), Depth: depth}
}

// testEpoch is the fetch time of page 0 in generated crawls; page i is
// fetched i seconds later.
var testEpoch = time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)

// page builds a successful HTML page with n links and some body text.
func page(url string, depth, n int) *crawl.Page {
	p := &crawl.Page{
		URL: url, FP: rabin.FingerprintString(url), Host: "127.0.0.1:8080", IP: "127.0.0.1",
		Depth: depth, Status: 200, FinalURL: url, ContentType: "text/html", Charset: "utf-8",
		ContentLength: 1234, Length: 1234, Title: "Title of " + url,
		Text:      "The quick brown fox jumps over the lazy dog at " + url,
		FetchedAt: testEpoch, Duration: 15 * time.Millisecond,
	}
	p.ContentFP = rabin.FingerprintString(p.Text)
	for i := range n {
		p.Links = append(p.Links, crawl.Link{URL: fmt.Sprintf("%s/link%d", url, i), Kind: crawl.LinkA, Text: fmt.Sprintf("link %d", i)})
	}
	return p
}

// fill stores n generated pages in s with varied columns, so that every sort
// column has ties and distinct values: status cycles 200/301/404/500/0,
// depth cycles 0..3, two hosts, three content types.
func fill(tb testing.TB, s *CrawlStore, n int) {
	tb.Helper()
	b := &crawl.Batch{}
	for i := range n {
		p := page(fmt.Sprintf("http://127.0.0.1:%d/p%04d", 8080+i%2, (i*37)%n), i%4, 2)
		p.Host = fmt.Sprintf("127.0.0.1:%d", 8080+i%2)
		p.Status = []int{200, 301, 404, 500, 0}[i%5]
		if p.Status == 0 {
			p.Err = "connection refused"
		}
		p.ContentType = []string{"text/html", "text/plain", "image/png"}[i%3]
		p.Title = fmt.Sprintf("title %02d", i%13)
		p.Length = int64(i % 7 * 100)
		p.FetchedAt = testEpoch.Add(time.Duration(i%11) * time.Second)
		p.Text = fmt.Sprintf("body %d word%d shared", i, i)
		p.ContentFP = rabin.FingerprintString(p.Text)
		b.Pages = append(b.Pages, p)
	}
	mustApply(tb, s, "", b)
}

// checkIndex fails the test when SQLite's full-text index is out of step
// with the pages; PostgreSQL's is a column of the pages themselves.
func checkIndex(tb testing.TB, d *DB) {
	tb.Helper()
	if d.pg {
		return
	}
	if _, err := d.w.Exec(`INSERT INTO pages_fts (pages_fts, rank) VALUES ('integrity-check', 1)`); err != nil {
		tb.Errorf("full-text index out of step: %v", err)
	}
	checkLinkTargets(tb, d)
}

// checkLinkTargets checks that link_targets holds exactly the targets of
// every stored page's links: one word per link, for the page's crawl.
func checkLinkTargets(tb testing.TB, d *DB) {
	tb.Helper()
	want := map[string]int{} // "doc word" → uses
	rows, err := d.r.Query(`SELECT id, crawl_id, links FROM pages WHERE links IS NOT NULL`)
	if err != nil {
		tb.Fatal(err)
	}
	for rows.Next() {
		var id, crawlID int64
		var stored string
		if err := rows.Scan(&id, &crawlID, &stored); err != nil {
			tb.Fatal(err)
		}
		links, err := decodeLinks(stored)
		if err != nil {
			tb.Fatal(err)
		}
		for _, w := range strings.Fields(targetWords(crawlID, links)) {
			want[fmt.Sprint(id, " ", w)]++
		}
	}
	rows.Close()
	got := map[string]int{}
	rows, err = d.r.Query(`SELECT doc, term FROM link_target_uses`)
	if err != nil {
		tb.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var doc int64
		var term string
		if err := rows.Scan(&doc, &term); err != nil {
			tb.Fatal(err)
		}
		got[fmt.Sprint(doc, " ", term)]++
	}
	if !maps.Equal(got, want) {
		tb.Errorf("link_targets out of step with pages.links:\n got %v\nwant %v", got, want)
	}
	if _, err := d.w.Exec(`INSERT INTO link_targets (link_targets, rank) VALUES ('integrity-check', 1)`); err != nil {
		tb.Errorf("link_targets: %v", err)
	}
}

// oldSchema creates a SQLite file at path holding the schema of the given
// version, as a Trawler of that version left it, and returns it open, for
// tests of the migrations after it.
func oldSchema(t *testing.T, path string, version int) *sql.DB {
	t.Helper()
	old, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	steps, err := migrationFiles()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range steps[:version] {
		body, _ := migrations.ReadFile(f)
		if _, err := old.Exec(string(body)); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
	if _, err := old.Exec(fmt.Sprintf(`PRAGMA user_version = %d; PRAGMA application_id = %d`, version, appID)); err != nil {
		t.Fatal(err)
	}
	return old
}
