package gui

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/trawler/trawler/gui/internal/fixture"
)

// paragraphs returns twenty paragraphs of pseudo-words from a large
// vocabulary: two calls with different seeds share next to no shingle.
func paragraphs(seed uint64) []string {
	rng := rand.New(rand.NewPCG(seed, 7))
	out := make([]string, 20)
	for i := range out {
		w := make([]string, 15)
		for j := range w {
			w[j] = fmt.Sprintf("w%d", rng.IntN(50000))
		}
		out[i] = strings.Join(w, " ")
	}
	return out
}

// nearServer serves an article, a near-copy of it (one paragraph of twenty
// rewritten) and an unrelated article, all linked from /.
func nearServer(t *testing.T) string {
	a := paragraphs(1)
	copyA := append([]string(nil), a...)
	copyA[5] = paragraphs(99)[5]
	page := func(paras []string) string {
		return "<html><body><p>" + strings.Join(paras, "</p><p>") + "</p></body></html>"
	}
	docs := map[string]string{
		"/":       `<html><body><a href="/a">a</a> <a href="/a-copy">copy</a> <a href="/other">other</a></body></html>`,
		"/a":      page(a),
		"/a-copy": page(copyA),
		"/other":  page(paragraphs(2)),
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := docs[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestNearDuplicatesFilterAndDetail crawls a site with a near-copy: the
// results filter keeps the two similar pages, and the detail pane of one
// lists the other with its similarity.
func TestNearDuplicatesFilterAndDetail(t *testing.T) {
	base := nearServer(t)
	h := newHarness(t, fixture.OpenDB(t))
	h.typeSeeds(base + "/")
	// One thread makes the fetch order, and so which page is the original
	// and which the copy, deterministic.
	h.ui.newCrawl.threads.SetText("1")
	test.Tap(h.ui.newCrawl.start)
	h.crawlDone()
	rs := h.ui.results
	h.until("all 4 pages", func() bool { return rs.count.Text == "4 pages" })
	rs.near.SetChecked(true)
	h.until("the near-duplicates", func() bool { return rs.count.Text == "2 pages" })
	h.until("both rows", func() bool {
		_, ok0 := rs.rows.Row(0)
		_, ok1 := rs.rows.Row(1)
		return ok0 && ok1
	})
	row := -1
	for i := range 2 {
		r, _ := rs.rows.Row(i)
		if r.URL != base+"/a" && r.URL != base+"/a-copy" {
			t.Errorf("near-duplicate filter keeps %s", r.URL)
		}
		if r.URL == base+"/a-copy" {
			row = i
		}
	}
	if row < 0 {
		t.Fatal("the copy is not listed")
	}
	rs.table.Select(widget.TableCellID{Row: row, Col: 0})
	h.until("the detail of the copy", func() bool { return rs.detail.shown != nil && rs.detail.shown.Page.URL == base+"/a-copy" })
	near := rs.detail.shown.Near
	if len(near) != 1 || near[0].URL != base+"/a" {
		t.Fatalf("near-duplicates of the copy: %+v", near)
	}
	self := rs.detail.shown.NearSelf
	if self.Match != base+"/a" || self.Similarity < 0.8 || self.Similarity >= 1 {
		t.Errorf("the copy's own match: %+v", self)
	}
	want := fmt.Sprintf("this page: %.0f%% like %s", self.Similarity*100, base+"/a")
	if !paneSays(rs.detail.body, want) {
		t.Errorf("the detail pane does not show %q", want)
	}
	rs.near.SetChecked(false)
	h.until("all pages again", func() bool { return rs.count.Text == "4 pages" })
}
