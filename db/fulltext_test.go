package db

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/rabin"
)

func TestFTSQuery(t *testing.T) {
	tests := []struct{ typed, want string }{
		{"crawler", `"crawler"*`},
		{"craw fing", `"craw"* "fing"*`},
		{`"quick brown"`, `"quick brown"`},
		{"select.select([], [sock], [])", `"select select" "sock"*`},
		{"http://example.com/a?b=c", `"http example com a b c"`},
		{"爬虫", `"爬 虫"`},
		{"网络爬虫 crawler", `"网 络 爬 虫" "crawler"*`},
		{"Go语言", `"Go 语 言"`},
		{`f(x) "a*b" c:d -e`, `"f x" "a b" "c d" "e"*`},
		{"  AND  ", `"AND"*`},
		{"fts: crawler OR spider", `crawler OR spider`},
		{`fts: "爬虫 robot" AND 网络`, `" 爬 虫 robot" AND "网 络"`},
	}
	for _, tt := range tests {
		got, err := ftsQuery(tt.typed)
		if err != nil || got != tt.want {
			t.Errorf("ftsQuery(%q) = %q, %v; want %q", tt.typed, got, err, tt.want)
		}
	}
	for _, empty := range []string{"", "(", "-- ::", "fts:"} {
		if _, err := ftsQuery(empty); !errors.Is(err, ErrBadQuery) || !errors.Is(err, ErrNoWords) {
			t.Errorf("ftsQuery(%q) = %v; want ErrBadQuery, no words", empty, err)
		}
	}
}

func TestFulltext(t *testing.T) {
	z := string(zwsp)
	tests := []struct{ in, want string }{
		{"plain ascii", "plain ascii"},
		{"café", "café"},
		{"网络爬虫", z + "网" + z + "络" + z + "爬" + z + "虫" + z},
		{"Go语言!", "Go" + z + "语" + z + "言" + z + "!"},
		{"a\uE000b\uE001c", "abc"},
	}
	for _, tt := range tests {
		if got := fulltext(tt.in); got != tt.want {
			t.Errorf("fulltext(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got := cleanSnippet(fulltext(tt.in)); !strings.Contains(tt.in, "\uE000") && got != tt.in {
			t.Errorf("cleanSnippet(fulltext(%q)) = %q", tt.in, got)
		}
	}
}

// searchPages stores pages with the given titles and texts in a new crawl.
func searchPages(t *testing.T, d *DB, pages [][2]string) *CrawlStore {
	t.Helper()
	s := mustCrawl(t, d, "http://127.0.0.1/")
	b := &crawl.Batch{}
	for i, p := range pages {
		u := "http://127.0.0.1/" + string(rune('a'+i))
		b.Pages = append(b.Pages, &crawl.Page{URL: u, FP: rabin.FingerprintString(u), Status: 200, Title: p[0],
			Text: p[1], ContentType: "text/html", FetchedAt: time.Unix(1700000000, 0)})
	}
	if err := s.Apply(context.Background(), "t", b); err != nil {
		t.Fatal(err)
	}
	return s
}

func searchURLs(t *testing.T, d *DB, s *CrawlStore, typed string) []string {
	t.Helper()
	rows, err := d.Search(context.Background(), s.ID(), typed, 100)
	if err != nil {
		t.Fatalf("Search(%q): %v", typed, err)
	}
	var out []string
	for _, r := range rows {
		out = append(out, strings.TrimPrefix(r.URL, "http://127.0.0.1/"))
	}
	return out
}

func TestSearchCJKPhrasesAndRanking(t *testing.T) {
	d := mustOpen(t)
	s := searchPages(t, d, [][2]string{
		{"多线程网络爬虫的设计", "本文设计了一个多线程网络爬虫，使用布隆过滤器去重。"},       // a
		{"Notes", "the quick brown fox and a crawler"},    // b
		{"Crawler design", "about robots"},                // c: the word in its title
		{"Other", "brown quick fox, then a crawler once"}, // d
		{"日本語", "ウェブクローラーの設計"},                            // e
	})
	tests := []struct {
		typed string
		want  string
	}{
		{"爬虫", "a"},
		{"网络爬虫", "a"},
		{"布隆过滤器", "a"},
		{"虫网", ""}, // characters of two words, not adjacent in that order
		{"クローラー", "e"},
		{`"quick brown"`, "b"},
		{`"brown quick"`, "d"},
		{"crawler", "c b d"}, // the title match first
	}
	for _, tt := range tests {
		if got := strings.Join(searchURLs(t, d, s, tt.typed), " "); got != tt.want {
			t.Errorf("search %q found %q, want %q", tt.typed, got, tt.want)
		}
	}
	rows, _ := d.Search(context.Background(), s.ID(), "爬虫", 1)
	if len(rows) != 1 || !strings.Contains(rows[0].Snippet, string(MatchStart)+"爬") || strings.ContainsRune(rows[0].Snippet, zwsp) {
		t.Errorf("CJK snippet %+v: want the match marked and no separators", rows)
	}
}

func TestSnippetKeepsBrackets(t *testing.T) {
	d := mustOpen(t)
	s := searchPages(t, d, [][2]string{{"Python", "call f([a], [b]) and select.select([], [sock], [])"}})
	rows, err := d.Search(context.Background(), s.ID(), "sock", 1)
	if err != nil || len(rows) != 1 {
		t.Fatalf("search: %v, %v", rows, err)
	}
	plain := strings.NewReplacer(string(MatchStart), "", string(MatchEnd), "").Replace(rows[0].Snippet)
	if !strings.Contains(plain, "f([a], [b])") || !strings.Contains(plain, "select.select([], [sock], [])") {
		t.Errorf("snippet %q lost the page's brackets", rows[0].Snippet)
	}
}

// TestMigrationReindexesCJK opens a database written by schema 3, whose
// index holds Chinese sentences as single words, and finds their words.
func TestMigrationReindexesCJK(t *testing.T) {
	sqliteOnly(t)
	path := filepath.Join(t.TempDir(), "v3.db")
	old := oldSchema(t, path, 3)
	const setup = `
INSERT INTO crawls (id, name, settings, created_at) VALUES (1, 'old', '{}', 0);
INSERT INTO pages (id, crawl_id, fp, url, depth, status, title, text, fetched_at)
VALUES (1, 1, 1, 'http://127.0.0.1/zh', 0, 200, '网络爬虫', '本文设计了一个多线程网络爬虫。', 0);
INSERT INTO pages_fts (rowid, title, text, url) SELECT id, title, text, url FROM pages;`
	if _, err := old.Exec(setup); err != nil {
		t.Fatal(err)
	}
	var before int
	old.QueryRow(`SELECT count(*) FROM pages_fts WHERE pages_fts MATCH '爬虫'`).Scan(&before)
	old.Close()
	if before != 0 {
		t.Fatalf("schema 3 found %d pages for 爬虫; the test expects none", before)
	}
	d := mustOpenPath(t, path)
	rows, err := d.Search(context.Background(), 1, "爬虫", 10)
	if err != nil || len(rows) != 1 {
		t.Errorf("after the migration: %v, %v; want the page", rows, err)
	}
}

// TestNeedsFulltext: a CJK character or a highlight mark anywhere, after
// any number of ASCII bytes, sends the text through fulltext; anything
// else does not.
func TestNeedsFulltext(t *testing.T) {
	for _, mark := range []string{"", "爬", "é", "\uE000", "\uE001", "ク", "—"} {
		for pad := range 20 {
			for _, tail := range []string{"", "x", "abcdefghijklmnop"} {
				s := strings.Repeat("a", pad) + mark + tail
				want := strings.ContainsFunc(s, func(r rune) bool { return isCJK(r) || r == MatchStart || r == MatchEnd })
				if got := needsFulltext(s); got != want {
					t.Errorf("needsFulltext(%q) = %v, want %v", s, got, want)
				}
			}
		}
	}
}
