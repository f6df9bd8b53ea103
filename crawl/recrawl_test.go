package crawl_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/testsite"
	"github.com/trawler/trawler/crawl/textdiff"
	"github.com/trawler/trawler/db"
)

// recrawl marks the harness's crawl done, begins a re-crawl and runs it.
func (h *harness) recrawl(dueOnly bool, now time.Time) (cycle int, queued int64) {
	h.t.Helper()
	ctx := context.Background()
	if err := h.db.SetState(ctx, h.id, db.StateDone); err != nil {
		h.t.Fatal(err)
	}
	cycle, queued, err := h.db.BeginRecrawl(ctx, h.id, dueOnly, now)
	if err != nil {
		h.t.Fatal(err)
	}
	h.run()
	return cycle, queued
}

func (h *harness) report(cycle int) db.Report {
	h.t.Helper()
	r, err := h.db.ChangeReport(context.Background(), h.id, cycle)
	if err != nil {
		h.t.Fatal(err)
	}
	return r
}

// TestRecrawl crawls a site, changes it (10 % of pages changed, 5 % gone
// while still linked, 5 % new pages linked from changed ones) and
// re-crawls it: the change report counts exactly those pages, unchanged
// pages with validators cost no body bytes, the history and the kept
// versions show the change, and the diff finds the rewritten words.
func TestRecrawl(t *testing.T) {
	site := &testsite.Changing{Pages: 200}
	srv := httptest.NewServer(site)
	defer srv.Close()
	c := config(srv.URL + "/")
	c.Depth, c.Threads = 50, 4
	h := newHarness(t, c)
	site.SetCycle(0)
	if p := h.run(); p.Done != 200 || p.Errors != 0 {
		t.Fatalf("first crawl: %d done, %d errors", p.Done, p.Errors)
	}
	if r := h.report(0); r.New != 200 || r.Visits() != 200 || r.FinishedAt.IsZero() {
		t.Fatalf("report of the first crawl: %+v", r)
	}
	firstBytes := site.TotalSent()

	site.SetCycle(1)
	cycle, queued := h.recrawl(false, time.Now())
	if cycle != 1 || queued != 200 {
		t.Fatalf("re-crawl: cycle %d, %d queued", cycle, queued)
	}
	changed, gone, added := site.Changed(), site.Gone(), site.New()
	r := h.report(1)
	unchanged := 200 - len(changed) - len(gone)
	withValidators := 0
	for i := range 200 {
		if i%3 != 2 && !slices.Contains(changed, i) && !slices.Contains(gone, i) {
			withValidators++
		}
	}
	want := db.Report{CycleInfo: r.CycleInfo, New: int64(len(added)), Changed: int64(len(changed)),
		Unchanged: int64(unchanged), Gone: int64(len(gone)), NotModified: int64(withValidators), Bytes: r.Bytes,
		Failed: int64(len(gone))}
	if r != want || len(changed) != 20 || len(gone) != 10 || len(added) != 10 {
		t.Errorf("report\n got %+v\nwant %+v", r, want)
	}
	if r.FinishedAt.IsZero() || r.Queued != 200 || r.DueOnly {
		t.Errorf("cycle info %+v", r.CycleInfo)
	}

	sent, hits := site.Sent(), site.Hits()
	for i := range 200 {
		path := testsite.URLPath(i)
		if hits[path] != 1 {
			t.Errorf("%s requested %d times in the re-crawl", path, hits[path])
		}
		if i%3 != 2 && !slices.Contains(changed, i) && !slices.Contains(gone, i) && sent[path] != 0 {
			t.Errorf("unchanged %s with validators cost %d body bytes", path, sent[path])
		}
	}
	t.Logf("first crawl %d body bytes, re-crawl %d (%d pages answered 304)", firstBytes, site.TotalSent(), r.NotModified)

	checkChanges(t, h, srv.URL, site)
	checkGone(t, h, srv.URL, gone)
}

// checkChanges looks at the change list, the history and the versions of
// the changed pages.
func checkChanges(t *testing.T, h *harness, base string, site *testsite.Changing) {
	t.Helper()
	ctx := context.Background()
	rows, err := h.db.Changes(ctx, db.ChangeQuery{Crawl: h.id, Cycle: 1, Changes: []crawl.Change{crawl.ChangeChanged}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(site.Changed()) {
		t.Fatalf("%d changed rows, want %d", len(rows), len(site.Changed()))
	}
	for _, row := range rows {
		n, _ := strconv.Atoi(strings.TrimPrefix(row.URL, base+"/p/"))
		links := 2 * len(site.NewLinks(n)) // "page N" for each new link
		if row.WordsAdded == 0 || row.WordsAdded > 15+links || row.WordsRemoved == 0 || row.WordsRemoved > 15 || row.PageID == 0 {
			t.Errorf("change of %s: %+v; want 1 to 15 words out and in (one paragraph), plus %d of new links", row.URL, row, links)
		}
	}
	i := site.Changed()[0]
	url := base + testsite.URLPath(i)
	hist, err := h.db.History(ctx, h.id, url)
	if err != nil {
		t.Fatal(err)
	}
	if len(hist) != 2 || hist[0].Change != crawl.ChangeNew || hist[1].Change != crawl.ChangeChanged ||
		!hist[1].Changed || hist[0].ContentFP == hist[1].ContentFP {
		t.Errorf("history of %s: %+v", url, hist)
	}
	vers, err := h.db.Versions(ctx, h.id, url)
	if err != nil {
		t.Fatal(err)
	}
	if len(vers) != 2 || !vers[0].Current || vers[1].Current || vers[0].Cycle != 1 || vers[1].Cycle != 0 {
		t.Fatalf("versions of %s: %d, %+v", url, len(vers), vers)
	}
	oldPara, newPara := site.Text(i, 0)[7], site.Text(i, 1)[7]
	for _, n := range site.NewLinks(i) {
		newPara += " page " + strconv.Itoa(n)
	}
	var removed, added []string
	for _, s := range textdiff.Words(vers[1].Text, vers[0].Text) {
		switch s.Op {
		case textdiff.Delete:
			removed = append(removed, strings.Fields(s.Text)...)
		case textdiff.Insert:
			added = append(added, strings.Fields(s.Text)...)
		}
	}
	for _, w := range removed {
		if !strings.Contains(oldPara, w) {
			t.Errorf("diff removes %q, not in the rewritten paragraph %q", w, oldPara)
		}
	}
	for _, w := range added {
		if !strings.Contains(newPara, w) {
			t.Errorf("diff adds %q, not in the new paragraph %q", w, newPara)
		}
	}
	if len(added) == 0 || len(removed) == 0 {
		t.Errorf("diff of %s shows no change", url)
	}
}

// checkGone looks at the pages that answered 404: in error, with a history
// saying gone, their last text kept.
func checkGone(t *testing.T, h *harness, base string, gone []int) {
	t.Helper()
	ctx := context.Background()
	url := base + testsite.URLPath(gone[0])
	hist, err := h.db.History(ctx, h.id, url)
	if err != nil {
		t.Fatal(err)
	}
	if len(hist) != 2 || hist[1].Change != crawl.ChangeGone || hist[1].Status != 404 {
		t.Errorf("history of %s: %+v", url, hist)
	}
	vers, err := h.db.Versions(ctx, h.id, url)
	if err != nil {
		t.Fatal(err)
	}
	if len(vers) != 1 || vers[0].Current || vers[0].Cycle != 0 {
		t.Errorf("versions of a gone page: %+v", vers)
	}
}

// TestRecrawlDueOnly re-crawls only what the revisit schedule says is due:
// right after a re-crawl, only the pages visited once (the new ones); two
// hours later, everything (the schedule's shortest interval is an hour).
func TestRecrawlDueOnly(t *testing.T) {
	site := &testsite.Changing{Pages: 100}
	srv := httptest.NewServer(site)
	defer srv.Close()
	c := config(srv.URL + "/")
	c.Depth = 50
	h := newHarness(t, c)
	site.SetCycle(0)
	h.run()
	site.SetCycle(1)
	h.recrawl(false, time.Now())
	cycle, queued := h.recrawl(true, time.Now())
	if want := int64(len(site.New())); cycle != 2 || queued != want {
		t.Errorf("due-only re-crawl: cycle %d queued %d, want %d (the new pages)", cycle, queued, want)
	}
	if r := h.report(2); r.Unchanged != queued || r.Visits() != queued || !r.DueOnly {
		t.Errorf("report of the due-only cycle: %+v", r)
	}
	due, ok, err := h.db.NextDue(context.Background(), h.id)
	if err != nil || !ok || due.Before(time.Now()) || due.After(time.Now().Add(2*time.Hour)) {
		t.Errorf("next due %v, %v, %v; want within the next two hours", due, ok, err)
	}
	_, queued = h.recrawl(true, time.Now().Add(2*time.Hour))
	if want := int64(100 + len(site.New())); queued != want {
		t.Errorf("two hours later %d queued, want all %d", queued, want)
	}
}

// TestVanishedPages drops links between two crawls: a page no stored page
// links to any more is gone; one still linked from elsewhere is not.
func TestVanishedPages(t *testing.T) {
	var docs sync.Map
	set := func(m map[string]string) {
		for k, v := range m {
			docs.Store(k, v)
		}
	}
	set(map[string]string{
		"/":       `<a href="/a">a</a><a href="/both">both</a><a href="/dead">dead</a>`,
		"/a":      `<a href="/lone">lone</a><a href="/both">both</a><a href="/a">self</a>`,
		"/lone":   `<a href="/lone">only itself</a>`,
		"/both":   `text`,
		"/dead":   `<a href="/orphan">orphan</a>`,
		"/orphan": `text`,
	})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d, ok := docs.Load(r.URL.Path)
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(d.(string)))
	}))
	defer srv.Close()
	h := newHarness(t, config(srv.URL+"/"))
	h.run()
	set(map[string]string{"/a": `<a href="/a">self</a>`, "/": `<a href="/a">a</a><a href="/both">both</a><a href="/dead">dead</a> changed`})
	docs.Delete("/dead") // 404: gone, and /orphan with it
	h.recrawl(false, time.Now())
	r := h.report(1)
	if r.Gone != 3 || r.Changed != 2 || r.Unchanged != 1 || r.Visits() != 6 {
		t.Errorf("report %+v; want /lone, /dead and /orphan gone, / and /a changed, /both unchanged", r)
	}
	rows, err := h.db.Changes(context.Background(), db.ChangeQuery{Crawl: h.id, Cycle: 1, Changes: []crawl.Change{crawl.ChangeGone}})
	var gone []string
	for _, r := range rows {
		gone = append(gone, strings.TrimPrefix(r.URL, srv.URL))
	}
	slices.Sort(gone)
	if err != nil || strings.Join(gone, " ") != "/dead /lone /orphan" {
		t.Errorf("gone pages %q, %v; want /dead /lone /orphan", gone, err)
	}
	again, err := h.db.ChangeReport(context.Background(), h.id, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.db.Crawl(h.id).FinishCycle(context.Background()); err != nil {
		t.Fatal(err)
	}
	if after := h.report(1); after.Gone != again.Gone || after.Visits() != again.Visits() {
		t.Errorf("finishing the cycle twice changed the report: %+v, then %+v", again, after)
	}
}
