package gui

import (
	"bytes"
	"context"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/testsite"
	"github.com/trawler/trawler/db"
	"github.com/trawler/trawler/gui/internal/fixture"
	"github.com/trawler/trawler/gui/runner"
)

// TestRecrawlShowsChanges crawls a site, changes it, re-crawls it from the
// Crawls list and reads the Changes tab: the report counts the changed
// pages, the list has them, and a changed page's diff shows the new words.
func TestRecrawlShowsChanges(t *testing.T) {
	d := fixture.OpenDB(t)
	site := &testsite.Changing{Pages: 40}
	srv := httptest.NewServer(site)
	t.Cleanup(srv.Close)
	h := newHarness(t, d)
	h.typeSeeds(srv.URL + "/")
	h.ui.newCrawl.depth.SetText("20")
	test.Tap(h.ui.newCrawl.start)
	h.crawlDone()
	site.SetCycle(1)

	cs := h.ui.crawls
	h.until("the finished crawl in the list", func() bool { return len(cs.list) == 1 && cs.list[0].State == db.StateDone })
	h.selectCrawl(cs.list[0].Name)
	if cs.recrawl.Disabled() {
		t.Fatal("Re-crawl is off for a finished crawl")
	}
	test.Tap(cs.recrawl)
	h.press("Re-crawl")
	if h.ui.session == nil {
		t.Fatal("the re-crawl did not start")
	}
	h.crawlDone()

	ch := h.ui.changes
	h.until("the changes of cycle 1", func() bool { return ch.cycle == 1 && len(ch.rows) > 0 })
	changed := site.Changed()
	if want := "changed"; !strings.Contains(ch.report.Text, itoa(len(changed))+" "+want) {
		t.Errorf("report %q, want %d changed", ch.report.Text, len(changed))
	}
	// Live ends the re-crawl with the same summary.
	h.until("the summary on Live", func() bool { return h.ui.live.changes.Visible() })
	if lv := h.ui.live.changes.Text; !strings.HasPrefix(lv, "Re-crawl 1: ") || !strings.HasSuffix(ch.report.Text, strings.TrimPrefix(lv, "Re-crawl 1: ")) {
		t.Errorf("Live says %q, Changes %q; want the same summary", lv, ch.report.Text)
	}
	row, page := -1, 0
	listed := 0
	for i, r := range ch.rows {
		if r.Change != crawl.ChangeChanged {
			continue
		}
		listed++
		for _, p := range changed {
			if r.URL == srv.URL+testsite.URLPath(p) && row < 0 {
				row, page = i, p
			}
		}
	}
	if listed != len(changed) || row < 0 {
		t.Fatalf("%d changed rows listed, want %d (%v); rows %+v", listed, len(changed), changed, ch.rows)
	}
	ch.table.Select(widget.TableCellID{Row: row, Col: 1})
	h.until("the diff", func() bool { return len(ch.diff.Segments) > 0 })
	oldText := strings.Join(strings.Fields(strings.Join(site.Text(page, 0), " ")), " ")
	newText := strings.Join(strings.Fields(strings.Join(site.Text(page, 1), " ")), " ")
	var inserted []string
	onlyNew := false
	for _, sg := range ch.diff.Segments {
		ts := sg.(*widget.TextSegment)
		if ts.Style.ColorName != theme.ColorNameSuccess || !ts.Style.TextStyle.Bold {
			continue
		}
		words := strings.Join(strings.Fields(ts.Text), " ")
		inserted = append(inserted, words)
		onlyNew = onlyNew || strings.Contains(newText, words) && !strings.Contains(oldText, words)
	}
	if !onlyNew {
		t.Errorf("no inserted words come from the rewritten paragraph: %q in %s", inserted, ch.diff.String())
	}

	var csv bytes.Buffer
	n, err := ch.exporter()(&csv)
	if err != nil || n != len(ch.rows) || !strings.Contains(csv.String(), srv.URL+testsite.URLPath(page)) {
		t.Errorf("export: %d rows, %v", n, err)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestLiveSummaryIsTheSessionsOwn checks the summary Live shows when a
// re-crawl ends. It is read in the background, and by the time it comes
// back the user may have begun the crawl's next cycle (the summary then
// counted that cycle's empty start, "Re-crawl 1: 0 new, 0 changed, …",
// under the crawl that had just ended) or another session may have taken
// the screen.
func TestLiveSummaryIsTheSessionsOwn(t *testing.T) {
	d := fixture.OpenDB(t)
	srv := httptest.NewServer(&testsite.Changing{Pages: 10})
	t.Cleanup(srv.Close)
	h := newHarness(t, d)
	h.typeSeeds(srv.URL + "/")
	test.Tap(h.ui.newCrawl.start)
	first := h.ui.session
	if first == nil {
		t.Fatal("the crawl did not start")
	}
	h.crawlDone()
	h.settle()
	if _, _, err := d.BeginRecrawl(context.Background(), first.ID, false, time.Now()); err != nil {
		t.Fatal(err)
	}
	summary := func(sess *runner.Session) string {
		h.ui.live.showChanges(d, sess)
		h.settle()
		if !h.ui.live.changes.Visible() {
			return ""
		}
		return h.ui.live.changes.Text
	}
	if got := summary(first); got != "" {
		t.Errorf("the first crawl, read after the re-crawl began: Live says %q, want no summary", got)
	}
	recrawl := &runner.Session{ID: first.ID, Name: first.Name, Cycle: 1}
	h.ui.live.watched = &runner.Session{ID: first.ID + 1}
	if got := summary(recrawl); got != "" {
		t.Errorf("a re-crawl whose summary came back after another session took the screen: Live says %q", got)
	}
	h.ui.live.watched = recrawl
	if got := summary(recrawl); !strings.HasPrefix(got, "Re-crawl 1: 0 new, 0 changed") {
		t.Errorf("the re-crawl's own summary: Live says %q", got)
	}
}
