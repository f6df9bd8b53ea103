package db

import (
	"context"
	"database/sql"
	"path/filepath"
	"slices"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/rabin"
	"github.com/trawler/trawler/db/pgtest"
)

// oldLinks are the links rows a store of the schema before pages.links
// holds: the pages of two crawls, one without links, and links with
// quotes, control characters, non-ASCII text, nofollow and a target
// linked twice from one page.
var oldLinks = map[string][]crawl.Link{
	"http://127.0.0.1/a": {
		{URL: "http://127.0.0.1/b", Kind: crawl.LinkA, Text: `say "hi" \ back`},
		{URL: "http://127.0.0.1/c", Kind: crawl.LinkImg, Text: "tab\there\x01", NoFollow: true},
		{URL: "http://127.0.0.1/b", Kind: crawl.LinkA, Text: "网络爬虫 é"},
	},
	"http://127.0.0.1/b": {{URL: "http://127.0.0.1/a", Kind: crawl.LinkRedirect}},
	"http://127.0.0.1/c": nil,
}

// fillOldLinks writes two crawls' pages and their links rows through db,
// which holds the schema before pages.links; q rewrites placeholders.
func fillOldLinks(t *testing.T, db *sql.DB, q func(string) string) {
	t.Helper()
	for c := int64(1); c <= 2; c++ {
		if _, err := db.Exec(q(`INSERT INTO crawls (id, name, settings, created_at) VALUES (?, 'old', '{}', 0)`), c); err != nil {
			t.Fatal(err)
		}
		for u, links := range oldLinks {
			var id int64
			err := db.QueryRow(q(`INSERT INTO pages (crawl_id, fp, url, host, depth, parent, status, fetched_at)
VALUES (?, ?, ?, '127.0.0.1:80', 1, 'http://127.0.0.1/', 200, 0) RETURNING id`), c, int64(rabin.FingerprintString(u)), u).Scan(&id)
			if err != nil {
				t.Fatal(err)
			}
			for seq, l := range links {
				_, err := db.Exec(q(`INSERT INTO links (page_id, seq, crawl_id, to_url, to_fp, kind, text, nofollow)
VALUES (?, ?, ?, ?, ?, ?, ?, ?)`), id, seq, c, l.URL, int64(rabin.FingerprintString(l.URL)), string(l.Kind), l.Text, map[bool]int{true: 1}[l.NoFollow])
				if err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// checkMovedLinks checks that a migrated store reads every page's links
// as they were, finds them from their targets, and keeps storing pages.
func checkMovedLinks(t *testing.T, d *DB) {
	t.Helper()
	ctx := context.Background()
	for c := int64(1); c <= 2; c++ {
		for u, want := range oldLinks {
			id, err := d.PageID(ctx, c, u)
			if err != nil {
				t.Fatal(err)
			}
			p, err := d.Page(ctx, c, id)
			if err != nil || !slices.Equal(p.Links, want) {
				t.Errorf("crawl %d, %s: links %+v, %v; want %+v", c, u, p.Links, err, want)
			}
		}
		for _, tt := range []struct {
			to           string
			links, pages int64
		}{{"http://127.0.0.1/b", 2, 1}, {"http://127.0.0.1/a", 1, 1}, {"http://127.0.0.1/c", 1, 1}, {"http://127.0.0.1/z", 0, 0}} {
			n, err := d.CountInlinks(ctx, c, tt.to)
			if err != nil || n.Links != tt.links || n.Pages != tt.pages {
				t.Errorf("crawl %d: CountInlinks(%s) = %+v, %v; want %d links from %d pages", c, tt.to, n, err, tt.links, tt.pages)
			}
		}
		in, err := d.Inlinks(ctx, c, "http://127.0.0.1/b", 0)
		if err != nil || len(in) != 2 || in[1].Text != "网络爬虫 é" || in[0].From != "http://127.0.0.1/a" {
			t.Errorf("crawl %d: Inlinks(b) = %+v, %v", c, in, err)
		}
	}
	mustApply(t, d.Crawl(1), "", &crawl.Batch{Pages: []*crawl.Page{page("http://127.0.0.1/a", 1, 2), page("http://127.0.0.1/new", 2, 3)}})
	if n, err := d.CountInlinks(ctx, 1, "http://127.0.0.1/b"); err != nil || n.Links != 0 {
		t.Errorf("after /a was stored again without its links to /b: %+v, %v", n, err)
	}
	if err := d.DeleteCrawl(ctx, 2); err != nil {
		t.Fatal(err)
	}
	checkIndex(t, d)
}

func TestMigrationMovesLinks(t *testing.T) {
	sqliteOnly(t)
	path := filepath.Join(t.TempDir(), "v7.db")
	old := oldSchema(t, path, 7)
	fillOldLinks(t, old, func(s string) string { return s })
	if _, err := old.Exec(`INSERT INTO pages_fts (pages_fts) VALUES ('rebuild')`); err != nil { // as a crawl would have
		t.Fatal(err)
	}
	old.Close()
	checkMovedLinks(t, mustOpenPath(t, path))
}

func TestPostgresMigrationMovesLinks(t *testing.T) {
	pgOnly(t)
	url := pgtest.URL(t)
	old, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	steps, err := pgMigrations.ReadDir("pgmigrations")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range steps[:4] {
		body, _ := pgMigrations.ReadFile("pgmigrations/" + f.Name())
		if _, err := old.Exec(string(body)); err != nil {
			t.Fatalf("%s: %v", f.Name(), err)
		}
	}
	if _, err := old.Exec(`UPDATE trawler_schema SET version = 4`); err != nil {
		t.Fatal(err)
	}
	fillOldLinks(t, old, rebind)
	old.Close()
	checkMovedLinks(t, mustOpenPath(t, url))
}
