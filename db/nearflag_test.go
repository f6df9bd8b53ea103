package db

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/rabin"
)

// TestNearColumn follows a crawl's near-duplicate groups through the ways
// the writer stores a page (new, stored again, revisited with a new body,
// revisited with a 304) and checks, after every batch, that the near-
// duplicate filter lists the pages of the groups with a match and that
// every page's near column says so.
func TestNearColumn(t *testing.T) {
	const a, b, c, e = "http://127.0.0.1/a", "http://127.0.0.1/b", "http://127.0.0.1/c", "http://127.0.0.1/e"
	fp := func(u string) uint64 { return rabin.FingerprintString(u) }
	near := func(url, group, of string) *crawl.Page {
		p := page(url, 1, 1)
		p.NearGroup = fp(group)
		if of != "" {
			p.NearOf, p.NearSimilarity = fp(of), 0.9
		}
		return p
	}
	notModified := func(p *crawl.Page) *crawl.Page {
		p.Status, p.Text, p.Title, p.ContentFP, p.Links = http.StatusNotModified, "", "", 0, nil
		return p
	}
	steps := []struct {
		name  string
		next  bool // begin a new cycle first
		pages []*crawl.Page
		want  []string
	}{
		{"b matches a, c matches nothing", false, []*crawl.Page{near(a, a, ""), near(b, a, a), near(c, c, "")}, []string{a, b}},
		{"a stored again in the same cycle", false, []*crawl.Page{near(a, a, "")}, []string{a, b}},
		{"e matches c in a batch of its own", false, []*crawl.Page{near(e, c, c)}, []string{a, b, c, e}},
		{"b revisited, matching nothing now", true, []*crawl.Page{near(b, b, "")}, []string{c, e}},
		{"a answers 304 and matches c now", false, []*crawl.Page{notModified(near(a, c, c))}, []string{a, c, e}},
		{"e revisited, matching b; c alone", false, []*crawl.Page{near(e, b, b)}, []string{a, b, c, e}},
		{"a answers 304 and keeps its group", false, []*crawl.Page{notModified(page(a, 1, 1))}, []string{a, b, c, e}},
	}
	d := mustOpen(t)
	s := mustCrawl(t, d, "http://127.0.0.1/")
	ctx := context.Background()
	owner := ""
	for _, st := range steps {
		if st.next {
			nextCycle(t, d, s)
			owner = "run"
			if _, err := s.Claim(ctx, owner, 10, crawl.BFS); err != nil {
				t.Fatal(err)
			}
		}
		mustApply(t, s, owner, &crawl.Batch{Pages: st.pages})
		rows, err := d.Pages(ctx, PageQuery{Crawl: s.ID(), NearDuplicates: true, Sort: SortURL})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range rows {
			got = append(got, r.URL)
		}
		if !slices.Equal(got, st.want) {
			t.Errorf("%s: near-duplicates %v, want %v", st.name, got, st.want)
		}
		var wrong int
		err = d.r.QueryRowContext(ctx, `SELECT count(*) FROM pages p WHERE p.crawl_id = ?1 AND p.near <> CASE WHEN
    p.near_group <> 0 AND EXISTS (SELECT 1 FROM pages q WHERE q.crawl_id = ?1 AND q.near_group = p.near_group AND q.near_of <> 0)
    THEN 1 ELSE 0 END`, s.ID()).Scan(&wrong)
		if err != nil || wrong != 0 {
			t.Errorf("%s: %d pages with a wrong near column, %v", st.name, wrong, err)
		}
	}
}

// TestMigrationMarksNear opens a file of schema version 8 with two crawls'
// near-duplicate groups: the migration marks the pages of the groups with
// a match, in their own crawl only.
func TestMigrationMarksNear(t *testing.T) {
	sqliteOnly(t)
	path := filepath.Join(t.TempDir(), "v8.db")
	old := oldSchema(t, path, 8)
	if _, err := old.Exec(`
INSERT INTO crawls (id, name, settings, created_at) VALUES (1, 'one', '{"Seeds":["http://127.0.0.1/"]}', 0),
    (2, 'two', '{"Seeds":["http://127.0.0.1/"]}', 0);`); err != nil {
		t.Fatal(err)
	}
	// Crawl 1: group 10 = pages 0 (first) and 1 (matched it); group 20 =
	// page 2 alone; page 3 in no group. Crawl 2: page 4 alone in group 10.
	for i, g := range []struct{ crawl, group, of int }{{1, 10, 0}, {1, 10, 100}, {1, 20, 0}, {1, 0, 0}, {2, 10, 0}} {
		_, err := old.Exec(`INSERT INTO pages (crawl_id, fp, url, host, depth, status, content_type, fetched_at, near_group, near_of)
VALUES (?, ?, ?, 'h', 0, 200, 'text/html', 0, ?, ?)`, g.crawl, 100+i, fmt.Sprintf("http://h/p%d", i), g.group, g.of)
		if err != nil {
			t.Fatal(err)
		}
	}
	old.Close()

	d := mustOpenPath(t, path)
	for crawlID, want := range map[int64][]string{1: {"http://h/p0", "http://h/p1"}, 2: nil} {
		rows, err := d.Pages(context.Background(), PageQuery{Crawl: crawlID, NearDuplicates: true, Sort: SortURL})
		var got []string
		for _, r := range rows {
			got = append(got, r.URL)
		}
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("crawl %d: near-duplicates %v, %v; want %v", crawlID, got, err, want)
		}
	}
}

// TestQueriesUsePartialIndexes: the statements that read one near-duplicate
// group, or the pages redirecting to a URL, find them in their partial
// index. With the group or the URL a bound parameter, SQLite uses a
// partial index only when the statement itself says what the index's
// condition says; otherwise it reads every page of the crawl.
func TestQueriesUsePartialIndexes(t *testing.T) {
	sqliteOnly(t)
	d := mustOpen(t)
	for _, c := range []struct {
		name, query, want string
		args              []any
	}{
		{"settleNearGroup", settleNearGroup, "SEARCH pages USING INDEX pages_near (", []any{1, 2}},
		{"nearDuplicates", nearDuplicates, "SEARCH p USING INDEX pages_near (", []any{1, 2, 3}},
		{"redirectsTo", redirectsTo, "SEARCH pages USING INDEX pages_redirect_to (", []any{1, "http://h/"}},
	} {
		rows, err := d.w.Query("EXPLAIN QUERY PLAN "+c.query, c.args...)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var plan []string
		for rows.Next() {
			var id, parent, notused int
			var detail string
			if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, detail)
		}
		rows.Close()
		if !strings.Contains(strings.Join(plan, "\n"), c.want) {
			t.Errorf("%s: plan\n%s\nhas no %q", c.name, strings.Join(plan, "\n"), c.want)
		}
	}
}
