package db

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/csv"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/rabin"
)

// nextCycle marks the crawl done and begins a re-crawl of everything.
func nextCycle(t *testing.T, d *DB, s *CrawlStore) int {
	t.Helper()
	ctx := context.Background()
	if err := d.SetState(ctx, s.ID(), StateDone); err != nil {
		t.Fatal(err)
	}
	cycle, _, err := d.BeginRecrawl(ctx, s.ID(), false, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return cycle
}

// version returns page(url) with its text and fingerprint set to text.
func version(url, text string) *crawl.Page {
	p := page(url, 1, 2)
	p.Text, p.ContentFP = text, rabin.FingerprintString(text)
	p.ETag = `"` + text[:3] + `"`
	return p
}

// TestHistoryAndVersions stores five visits of one page over five cycles:
// new, changed, 304, changed again, a server error. The history has one
// row each, classified; two texts are kept (KeepVersions 2); the 304 and
// the error keep the stored text and links.
func TestHistoryAndVersions(t *testing.T) {
	d := mustOpen(t)
	ctx := context.Background()
	cfg := crawl.DefaultConfig()
	cfg.Seeds, cfg.KeepVersions = []string{"http://127.0.0.1/"}, 2
	id, err := d.CreateCrawl(ctx, "", cfg)
	if err != nil {
		t.Fatal(err)
	}
	s := d.Crawl(id)
	const url = "http://127.0.0.1:8080/doc"
	mustApply(t, s, "", &crawl.Batch{Pages: []*crawl.Page{version(url, "one two three four")}})

	nextCycle(t, d, s)
	items, err := s.Claim(ctx, "run", 10, crawl.BFS)
	if err != nil || len(items) != 1 || items[0].Validators == nil || items[0].Validators.ETag != `"one"` {
		t.Fatalf("claimed %+v, %v; want the page with its ETag", items, err)
	}
	mustApply(t, s, "run", &crawl.Batch{Pages: []*crawl.Page{version(url, "one two five four")}})

	nextCycle(t, d, s)
	notModified := &crawl.Page{URL: url, FP: rabin.FingerprintString(url), Status: 304, FetchedAt: time.Now()}
	mustApply(t, s, "", &crawl.Batch{Pages: []*crawl.Page{notModified}})

	nextCycle(t, d, s)
	mustApply(t, s, "", &crawl.Batch{Pages: []*crawl.Page{version(url, "six two five four seven")}})

	nextCycle(t, d, s)
	failed := &crawl.Page{URL: url, FP: rabin.FingerprintString(url), Status: 503, FetchedAt: time.Now()}
	mustApply(t, s, "", &crawl.Batch{Pages: []*crawl.Page{failed}})

	hist, err := d.History(ctx, id, url)
	if err != nil {
		t.Fatal(err)
	}
	wantChanges := []crawl.Change{crawl.ChangeNew, crawl.ChangeChanged, crawl.ChangeUnchanged, crawl.ChangeChanged, crawl.ChangeError}
	if len(hist) != len(wantChanges) {
		t.Fatalf("history %+v", hist)
	}
	for i, v := range hist {
		if v.Cycle != i || v.Change != wantChanges[i] {
			t.Errorf("visit %d: %+v, want cycle %d %s", i, v, i, wantChanges[i])
		}
	}
	reports := []struct {
		cycle int
		check func(Report) bool
	}{
		{1, func(r Report) bool { return r.Changed == 1 && r.Failed == 0 }},
		{2, func(r Report) bool { return r.Unchanged == 1 && r.NotModified == 1 && r.Failed == 0 }},
		{4, func(r Report) bool { return r.Errors == 1 && r.Failed == 1 && r.StillBroken == 0 }},
	}
	for _, rc := range reports {
		if r, err := d.ChangeReport(ctx, id, rc.cycle); err != nil || !rc.check(r) {
			t.Errorf("change report of cycle %d: %+v, %v", rc.cycle, r, err)
		}
	}
	if h := hist[1]; h.WordsAdded != 1 || h.WordsRemoved != 1 || !h.Changed {
		t.Errorf("first change: %+v; want one word in, one out", h)
	}
	if h := hist[3]; h.WordsAdded != 2 || h.WordsRemoved != 1 {
		t.Errorf("second change: %+v; want two words in, one out", h)
	}
	if h := hist[2]; h.Length != 0 || h.Status != 304 || h.ContentFP != hist[1].ContentFP {
		t.Errorf("304 visit: %+v; want no body and the stored fingerprint", h)
	}
	vers, err := d.Versions(ctx, id, url)
	if err != nil {
		t.Fatal(err)
	}
	if len(vers) != 2 || vers[0].Text != "six two five four seven" || vers[1].Text != "one two five four" || !vers[0].Current {
		t.Errorf("versions %+v; want the current text and the one before", vers)
	}
	pid, _ := d.PageID(ctx, id, url)
	p, err := d.Page(ctx, id, pid)
	if err != nil {
		t.Fatal(err)
	}
	if p.Status != 503 || p.Text != "six two five four seven" || len(p.Links) != 2 {
		t.Errorf("after a failed revisit the page is %d %q with %d links; want 503 with the last text and links", p.Status, p.Text, len(p.Links))
	}
	if c := mustCounts(t, s); c.Error != 1 {
		t.Errorf("counts %+v; want the URL in error", c)
	}

	nextCycle(t, d, s)
	mustApply(t, s, "", &crawl.Batch{Pages: []*crawl.Page{notModified}})
	if p, _ := d.Page(ctx, id, pid); p.Status != 200 || p.Err != "" || p.Text != "six two five four seven" {
		t.Errorf("a 304 after the failure leaves the page %d %q %q; want it ok again", p.Status, p.Err, p.Text)
	}
	if c := mustCounts(t, s); c.Done != 1 {
		t.Errorf("counts %+v; want the URL done", c)
	}
}

func TestClassify(t *testing.T) {
	ok := &priorVisit{status: 200, contentFP: 7, change: crawl.ChangeNew}
	gone := &priorVisit{status: 404, change: crawl.ChangeGone}
	tests := []struct {
		name    string
		p       crawl.Page
		prev    *priorVisit
		want    crawl.Change
		changed bool
	}{
		{"first visit", crawl.Page{Status: 200, ContentFP: 7}, nil, crawl.ChangeNew, false},
		{"first visit fails", crawl.Page{Status: 404}, nil, crawl.ChangeError, false},
		{"304", crawl.Page{Status: 304}, ok, crawl.ChangeUnchanged, false},
		{"same text", crawl.Page{Status: 200, ContentFP: 7}, ok, crawl.ChangeUnchanged, false},
		{"other text", crawl.Page{Status: 200, ContentFP: 8}, ok, crawl.ChangeChanged, true},
		{"404", crawl.Page{Status: 404}, ok, crawl.ChangeGone, true},
		{"410", crawl.Page{Status: 410}, ok, crawl.ChangeGone, true},
		{"still 404: still broken", crawl.Page{Status: 404}, gone, crawl.ChangeUnchanged, false},
		{"back from gone", crawl.Page{Status: 200}, gone, crawl.ChangeChanged, true},
		{"server error", crawl.Page{Status: 500}, ok, crawl.ChangeError, false},
		{"network error", crawl.Page{Err: "connection refused"}, ok, crawl.ChangeError, false},
		{"still 500: still broken", crawl.Page{Status: 500}, &priorVisit{status: 500, change: crawl.ChangeError}, crawl.ChangeUnchanged, false},
		{"404 after a 500", crawl.Page{Status: 404}, &priorVisit{status: 500, change: crawl.ChangeError}, crawl.ChangeUnchanged, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := classify(&tt.p, tt.prev)
			if v.change != tt.want || v.changed != tt.changed {
				t.Errorf("classify = %s, changed %v; want %s, %v", v.change, v.changed, tt.want, tt.changed)
			}
		})
	}
}

func TestBeginRecrawlRefuses(t *testing.T) {
	d := mustOpen(t)
	s := mustCrawl(t, d, "http://127.0.0.1/")
	_, _, err := d.BeginRecrawl(context.Background(), s.ID(), false, time.Now())
	if !errors.Is(err, ErrUnfinished) || IsStorageError(err) {
		t.Errorf("re-crawl of a stopped crawl: %v; want ErrUnfinished", err)
	}
	_, _, err = d.BeginRecrawl(context.Background(), 99, false, time.Now())
	if !errors.Is(err, ErrNotFound) {
		t.Errorf("re-crawl of a missing crawl: %v; want ErrNotFound", err)
	}
}

func TestExportChangesCSV(t *testing.T) {
	d := mustOpen(t)
	s := mustCrawl(t, d, "http://127.0.0.1/")
	a, b := version("http://h/a", "alpha beta"), version("http://h/b", "gamma delta")
	mustApply(t, s, "", &crawl.Batch{Pages: []*crawl.Page{a, b}})
	nextCycle(t, d, s)
	b2 := version("http://h/b", "gamma epsilon")
	b2.Title = "=HYPERLINK(1)"
	mustApply(t, s, "", &crawl.Batch{Pages: []*crawl.Page{version("http://h/a", "alpha beta"), b2, version("http://h/c", "new one")}})
	var buf bytes.Buffer
	n, err := d.ExportChangesCSV(context.Background(), &buf, ChangeQuery{Crawl: s.ID(), Cycle: 1})
	if err != nil || n != 2 {
		t.Fatalf("exported %d rows, %v; want 2 (unchanged left out)", n, err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		ChangesCSVHeader,
		{"http://h/c", "new", "200", recs[1][3], "1234", "0", "0", "Title of http://h/c"},
		{"http://h/b", "changed", "200", recs[2][3], "1234", "1", "1", "'=HYPERLINK(1)"},
	}
	for i := range want {
		if strings.Join(recs[i], "|") != strings.Join(want[i], "|") {
			t.Errorf("row %d: %q, want %q", i, recs[i], want[i])
		}
	}
}

// TestMigrateFromVersion1 opens a database written by schema version 1:
// its crawl becomes cycle 0, each page with one visit.
func TestMigrateFromVersion1(t *testing.T) {
	sqliteOnly(t)
	path := filepath.Join(t.TempDir(), "old.db")
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	v1, err := migrations.ReadFile("migrations/0001_init.sql")
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		string(v1),
		`PRAGMA user_version = 1`, `PRAGMA application_id = 1414682444`,
		`INSERT INTO crawls (id, name, settings, state, created_at, started_at, finished_at) VALUES (1, 'old', '{"seeds":["http://h/"]}', 'done', 1, 2, 3)`,
		`INSERT INTO pages (crawl_id, fp, url, depth, status, text, content_fp, fetched_at, length) VALUES (1, 11, 'http://h/', 0, 200, 'home', 5, 100, 4)`,
		`INSERT INTO pages (crawl_id, fp, url, depth, status, fetched_at, err) VALUES (1, 12, 'http://h/x', 1, 0, 101, 'refused')`,
	} {
		if _, err := raw.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	raw.Close()
	d := mustOpenPath(t, path)
	r, err := d.ChangeReport(context.Background(), 1, 0)
	if err != nil || r.New != 1 || r.Errors != 1 || r.FinishedAt.IsZero() {
		t.Errorf("report of a migrated crawl: %+v, %v", r, err)
	}
	cycles, err := d.Cycles(context.Background(), 1)
	if err != nil || len(cycles) != 1 || cycles[0].Cycle != 0 {
		t.Errorf("cycles %+v, %v", cycles, err)
	}
}

// TestVanishedBehindGonePage: a link counts only on a page that is not
// gone. /b is gone (404) but kept its link to /c, the only one; finishing
// the cycle finds /c vanished, and keeps /d, which a live page links to.
func TestVanishedBehindGonePage(t *testing.T) {
	d := mustOpen(t)
	s := mustCrawl(t, d, "http://h/")
	ctx := context.Background()
	linked := func(url, parent string, status int, to ...string) *crawl.Page {
		p := page(url, 1, 0)
		p.Parent, p.Status = parent, status
		for _, u := range to {
			p.Links = append(p.Links, crawl.Link{URL: u, Kind: crawl.LinkA})
		}
		return p
	}
	mustApply(t, s, "", &crawl.Batch{Pages: []*crawl.Page{linked("http://h/", "", 200, "http://h/b", "http://h/d"),
		linked("http://h/b", "http://h/", 200, "http://h/c"), linked("http://h/c", "http://h/b", 200),
		linked("http://h/d", "http://h/", 200)}})
	nextCycle(t, d, s)
	mustApply(t, s, "", &crawl.Batch{Pages: []*crawl.Page{linked("http://h/", "", 200, "http://h/b", "http://h/d"),
		linked("http://h/b", "http://h/", 404, "http://h/c")}})
	if err := s.FinishCycle(ctx); err != nil {
		t.Fatal(err)
	}
	rows, err := d.Changes(ctx, ChangeQuery{Crawl: s.ID(), Cycle: 1, Changes: []crawl.Change{crawl.ChangeGone}})
	var gone []string
	for _, r := range rows {
		gone = append(gone, r.URL)
	}
	slices.Sort(gone)
	if err != nil || strings.Join(gone, " ") != "http://h/b http://h/c" {
		t.Errorf("gone pages %q, %v; want /b (404) and /c (only /b linked to it)", gone, err)
	}
}
