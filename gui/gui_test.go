package gui

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/testsite"
	"github.com/trawler/trawler/db"
	"github.com/trawler/trawler/gui/form"
	"github.com/trawler/trawler/gui/internal/fixture"
)

// TestStartCrawlFillsCountersAndTable types a seed, presses Start, and
// follows a real crawl of a local site to its end.
func TestStartCrawlFillsCountersAndTable(t *testing.T) {
	d := fixture.OpenDB(t)
	seed := fixture.Serve(t, &testsite.Site{Pages: 60, OutDegree: 4})
	h := newHarness(t, d)
	nc := h.ui.newCrawl
	// The untouched form does not scold; Start on it shows what is wrong.
	for field, l := range nc.fields.errs {
		if l.Visible() {
			t.Errorf("the untouched form shows an error at %s: %q", field, l.Text)
		}
	}
	if nc.seedBad.Visible() || nc.why.Text != "" {
		t.Errorf("the untouched form says %q %q", nc.seedBad.Text, nc.why.Text)
	}
	test.Tap(nc.start)
	if h.ui.session != nil || !nc.fields.errs[form.FieldSeeds].Visible() || !nc.start.Disabled() {
		t.Fatalf("Start on the empty form: session %v, seeds error %q, Start disabled %v",
			h.ui.session, nc.fields.errs[form.FieldSeeds].Text, nc.start.Disabled())
	}
	h.typeSeeds(seed)
	nc.depth.SetText("20") // a concurrent BFS may reach a page first by a longer path; no limit in sight here
	test.Type(nc.name, "local site")
	if nc.start.Disabled() {
		t.Fatalf("Start is off for a good seed: %s", nc.why.Text)
	}
	test.Tap(nc.start)
	if h.ui.session == nil || h.ui.tabs.SelectedIndex() != tabLive {
		t.Fatal("Start did not start a crawl and show it")
	}
	h.crawlDone()
	lv := h.ui.live
	if lv.done.Text != "60" || lv.waiting.Text != "0" || lv.errs.Text != "0" || lv.state.Text != "· Finished" {
		t.Errorf("counters: done %s waiting %s errors %s state %s", lv.done.Text, lv.waiting.Text, lv.errs.Text, lv.state.Text)
	}
	if lv.bar.Value != 1 || lv.barText != "60 of 60 URLs (100%)" {
		t.Errorf("progress bar %v %q", lv.bar.Value, lv.barText)
	}
	if len(lv.log.Lines()) == 0 {
		t.Error("the log stayed empty")
	}
	rs := h.ui.results
	h.until("the table to count 60 pages", func() bool { return rs.count.Text == "60 pages" })
	h.until("row 0 to load", func() bool { _, ok := rs.rows.Row(0); return ok })
	if row, _ := rs.rows.Row(0); row.URL != seed || row.Title != "Page 0" {
		t.Errorf("first row %+v", row)
	}
	// The filters' counts are those of the finished crawl, not of its start.
	h.until("the type filter's count", func() bool {
		return len(rs.ctype.Options) == 2 && rs.ctype.Options[1] == "text/html (60)"
	})
	h.until("the host filter's count", func() bool {
		return len(rs.host.Options) == 2 && strings.HasSuffix(rs.host.Options[1], " (60)")
	})
	if got := h.win.Title(); got != "local site — Trawler" {
		t.Errorf("title %q", got)
	}
	info, err := d.CrawlInfo(context.Background(), h.ui.crawl)
	if err != nil || info.State != db.StateDone || info.Pages != 60 {
		t.Errorf("stored crawl %+v, %v", info, err)
	}
	saved := form.Load(h.ui.app.Preferences())
	if saved.Seeds != seed || saved.Name != "local site" {
		t.Errorf("settings not remembered: %+v", saved)
	}
}

// TestPauseResumeStop steers a slow crawl with the Live buttons.
func TestPauseResumeStop(t *testing.T) {
	d := fixture.OpenDB(t)
	seed := fixture.Serve(t, &testsite.Site{Pages: 2000, OutDegree: 4, Latency: 3 * time.Millisecond})
	h := newHarness(t, d)
	h.typeSeeds(seed)
	h.ui.newCrawl.threads.SetText("2")
	test.Tap(h.ui.newCrawl.start)
	lv := h.ui.live
	h.until("a few pages", func() bool { return lv.done.Text != "0" && !lv.pause.Disabled() })
	test.Tap(lv.pause)
	h.until("the paused state", func() bool { return lv.state.Text == "· Paused" })
	if !lv.pause.Disabled() || lv.resume.Disabled() || lv.stop.Disabled() {
		t.Error("while paused: want Pause off, Resume and Stop on")
	}
	h.until("the stored paused state", func() bool {
		info, _ := d.CrawlInfo(context.Background(), h.ui.crawl)
		return info.State == db.StatePaused
	})
	test.Tap(lv.resume)
	h.until("the running state", func() bool { return lv.state.Text == "· Running" })
	if lv.pause.Disabled() || !lv.resume.Disabled() {
		t.Error("while running: want Pause on and Resume off")
	}
	test.Tap(lv.stop)
	h.crawlDone()
	if lv.state.Text != "· Stopped" || !lv.stop.Disabled() {
		t.Errorf("after Stop: state %q", lv.state.Text)
	}
	info, _ := d.CrawlInfo(context.Background(), h.ui.crawl)
	if info.State != db.StateStopped || info.URLs.Waiting == 0 {
		t.Errorf("stored after Stop: %+v", info)
	}
	if h.ui.newCrawl.start.Disabled() {
		t.Errorf("Start stays off after the crawl: %s", h.ui.newCrawl.why.Text)
	}
}

// TestInvalidInputDisablesStart checks that each kind of bad input turns
// Start off and says why, at the field.
func TestInvalidInputDisablesStart(t *testing.T) {
	h := newHarness(t, fixture.OpenDB(t))
	nc := h.ui.newCrawl
	tests := []struct {
		name  string
		edit  func()
		field string
		says  string
	}{
		{"bad seed line", func() { h.typeSeeds("example.org\nmailto:me@example.org") }, form.FieldSeeds, "1 line is not a crawlable URL"},
		{"no seeds", func() { h.typeSeeds("") }, form.FieldSeeds, "type at least one URL"},
		{"threads", func() { nc.threads.SetText(""); test.Type(nc.threads, "0") }, form.FieldThreads, "between 1 and 1000"},
		{"depth", func() { nc.depth.SetText(""); test.Type(nc.depth, "deep") }, form.FieldDepth, `"deep" is not a whole number`},
		{"timeout", func() { nc.adv.timeout.SetText(""); test.Type(nc.adv.timeout, "soon") }, form.FieldTimeout, "not a duration"},
		{"exclude", func() { test.Type(nc.adv.exclude, "(") }, form.FieldExclude, "bad regular expression"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			nc.fill(form.Defaults())
			h.typeSeeds("example.org")
			if nc.start.Disabled() {
				t.Fatalf("Start off before the edit: %s", nc.why.Text)
			}
			tt.edit()
			if !nc.start.Disabled() {
				t.Fatal("Start is on")
			}
			l := nc.fields.errs[tt.field]
			if !l.Visible() || !strings.Contains(l.Text, tt.says) {
				t.Errorf("%s field says %q (visible %v), want %q", tt.field, l.Text, l.Visible(), tt.says)
			}
			if !strings.Contains(nc.why.Text, tt.field+": ") {
				t.Errorf("why %q does not name %s", nc.why.Text, tt.field)
			}
		})
	}
	nc.fill(form.Defaults())
	h.typeSeeds("example.org\nhttp://exa mple.org/")
	if !strings.Contains(nc.seedBad.Text, "line 2: invalid character in host") ||
		nc.seedInfo.Text != "line 1: read as http://example.org/" {
		t.Errorf("seed notes %q, %q", nc.seedBad.Text, nc.seedInfo.Text)
	}
}

// TestSearchFiltersAndDetail searches an opened crawl, filters it, and
// selects a row.
func TestSearchFiltersAndDetail(t *testing.T) {
	d := fixture.OpenDB(t)
	id := fixture.Crawl(t, d, "example", 300)
	h := newHarness(t, d)
	h.until("the crawls list", func() bool { return len(h.ui.crawls.list) == 1 })
	h.ui.crawls.table.Select(widget.TableCellID{Row: 0, Col: 0})
	test.Tap(h.ui.crawls.open)
	rs := h.ui.results
	if h.ui.crawl != id || h.ui.tabs.SelectedIndex() != tabResults {
		t.Fatal("Open did not show the crawl in Results")
	}
	h.until("300 pages", func() bool { return rs.count.Text == "300 pages" })

	h.shortcut(fyne.KeyF)
	if h.win.Canvas().Focused() != rs.search {
		t.Error("Ctrl+F did not focus the search box")
	}
	before := rs.queries
	test.Type(rs.search, "fox jum") // seven keystrokes
	h.until("43 matches", func() bool { return rs.count.Text == "43 pages" })
	if n := rs.queries - before; n != 1 {
		t.Errorf("typing 7 characters ran %d queries, want 1", n)
	}
	time.Sleep(2 * searchDelay)
	if n := rs.queries - before; n != 1 {
		t.Errorf("after a pause: %d queries, want 1", n)
	}
	if len(rs.columns) != 9 || rs.columns[1].title != "Match" {
		t.Fatalf("columns %v", rs.columns)
	}
	var row db.PageRow
	h.until("row 0", func() bool { var ok bool; row, ok = rs.rows.Row(0); return ok })
	if !strings.Contains(row.Snippet, string(db.MatchStart)+"fox"+string(db.MatchEnd)) {
		t.Errorf("snippet %q", row.Snippet)
	}
	segs := snippetSegments(row.Snippet, 1000)
	strong := 0
	for _, s := range segs {
		if s.(*widget.TextSegment).Style.TextStyle.Bold {
			strong++
		}
	}
	if strong == 0 {
		t.Error("no highlighted segment in the snippet")
	}

	rs.status.SetSelected("5xx server error")
	h.until("5xx matches", func() bool { return rs.count.Text == "9 pages" })
	h.until("row 0", func() bool { var ok bool; row, ok = rs.rows.Row(0); return ok })
	if row.Status != 500 {
		t.Errorf("filtered row status %d", row.Status)
	}

	rs.table.Select(widget.TableCellID{Row: 0, Col: 0})
	dp := rs.detail
	h.until("the detail pane", func() bool { return dp.shown != nil && dp.shown.ID == row.ID })
	if dp.shown.Page.URL != row.URL || !dp.body.Visible() {
		t.Errorf("detail shows %s, want %s", dp.shown.Page.URL, row.URL)
	}
	if !paneSays(dp.body, row.URL) || !paneSays(dp.body, "Outlinks (2)") || !paneSays(dp.body, "Inlinks: 1 link from 1 page") {
		t.Error("detail pane lacks the URL or the link sections")
	}
	cp := findButton(dp.body, "Copy URL")
	test.Tap(cp)
	if got := h.ui.app.Clipboard().Content(); got != row.URL {
		t.Errorf("clipboard holds %q after Copy URL", got)
	}

	rs.search.SetText("")
	rs.status.SetSelected(browse0)
	h.until("all pages again", func() bool { return rs.count.Text == "300 pages" })
	h.until("the host filter's values", func() bool { return len(rs.host.Options) == 3 })
	rs.host.SetSelected(rs.host.Options[1]) // docs.example.test:80 (150)
	h.until("one host", func() bool { return rs.count.Text == "150 pages" })
	rs.sortBy(db.SortSize)
	rs.sortBy(db.SortSize) // again: largest first
	h.until("row 0", func() bool { var ok bool; row, ok = rs.rows.Row(0); return ok })
	if row.URL != "http://docs.example.test/page/299" {
		t.Errorf("largest docs page first: got %s", row.URL)
	}
	header := newHeaderCell(nil)
	rs.updateHeader(widget.TableCellID{Row: -1, Col: 6}, header)
	if header.Text != "Size" || header.Icon == nil {
		t.Errorf("the Size header shows %q without the sort arrow", header.Text)
	}
}

// findButton returns the button labelled text under o.
func findButton(o fyne.CanvasObject, text string) *widget.Button {
	var found *widget.Button
	walk(o, func(c fyne.CanvasObject) {
		if b, ok := c.(*widget.Button); ok && b.Text == text && found == nil {
			found = b
		}
	})
	return found
}

// browse0 is the status filter's "any" choice.
const browse0 = "Any status"

// paneSays reports whether a label under o shows text.
func paneSays(o fyne.CanvasObject, text string) bool {
	switch v := o.(type) {
	case *widget.Label:
		return strings.Contains(v.Text, text)
	case *fyne.Container:
		for _, c := range v.Objects {
			if paneSays(c, text) {
				return true
			}
		}
	case *container.Scroll:
		return paneSays(v.Content, text)
	case *container.AppTabs:
		for _, it := range v.Items {
			if paneSays(it.Content, text) {
				return true
			}
		}
	}
	return false
}

// TestExportReadsBack exports the current view and the whole crawl and
// reads the files back with encoding/csv.
func TestExportReadsBack(t *testing.T) {
	d := fixture.OpenDB(t)
	id := fixture.Crawl(t, d, "example", 2500)
	h := newHarness(t, d)
	h.ui.openCrawl(id, "example")
	rs := h.ui.results
	rs.status.SetSelected("4xx client error")
	h.until("500 pages", func() bool { return rs.count.Text == "500 pages" })
	for _, whole := range []bool{false, true} {
		choice := exportView
		if whole {
			choice = exportWhole
		}
		path := filepath.Join(t.TempDir(), "out.csv")
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		finished, wrote := false, 0
		h.ui.exportTo(f, h.ui.exportQuery(choice), whole, func(n int, err error) {
			if err != nil {
				t.Error(err)
			}
			finished, wrote = true, n
		})
		h.until("the export", func() bool { return finished })
		raw, _ := os.ReadFile(path)
		if hasBOM := bytes.HasPrefix(raw, []byte("\xEF\xBB\xBF")); hasBOM != whole {
			t.Errorf("whole=%v: byte-order mark %v, want %v", whole, hasBOM, whole)
		}
		recs := readCSV(t, path)
		want := 500
		if whole {
			want = 2500
		}
		if wrote != want || len(recs) != want+1 {
			t.Fatalf("whole=%v: wrote %d, read back %d records, want %d rows", whole, wrote, len(recs)-1, want)
		}
		if !whole && recs[1][1] != "404" {
			t.Errorf("current view exported status %s", recs[1][1])
		}
		dbRows, _ := d.PagesAt(context.Background(), h.ui.exportQuery(choice), 0, 3000)
		for i, r := range dbRows {
			if recs[i+1][0] != r.URL {
				t.Fatalf("record %d is %s, want %s", i+1, recs[i+1][0], r.URL)
			}
		}
	}
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// TestCloseDuringCrawlStopsCleanly closes the window while a crawl runs.
func TestCloseDuringCrawlStopsCleanly(t *testing.T) {
	d := fixture.OpenDB(t)
	seed := fixture.Serve(t, &testsite.Site{Pages: 5000, OutDegree: 4, Latency: 2 * time.Millisecond})
	h := newHarness(t, d)
	h.typeSeeds(seed)
	test.Tap(h.ui.newCrawl.start)
	sess := h.ui.session
	h.until("a few pages", func() bool { return h.ui.live.done.Text != "0" })
	h.shortcut(fyne.KeyW)
	if h.closed || h.win.Canvas().Overlays().Top() == nil {
		t.Fatal("Ctrl+W during a crawl closed without asking")
	}
	h.ui.stopAndClose() // what the dialog's Yes does
	h.until("the window to close", func() bool { return h.closed })
	select {
	case <-sess.Done():
	default:
		t.Fatal("the window closed before the crawl ended")
	}
	if p := sess.Final(); p.State != crawl.StateStopped {
		t.Errorf("engine ended %s", p.State)
	}
	d2, err := db.Open(d.Path()) // the window closed its connection
	if err != nil {
		t.Fatal(err)
	}
	defer d2.Close()
	info, _ := d2.CrawlInfo(context.Background(), sess.ID)
	if info.State != db.StateStopped {
		t.Errorf("stored state %s, want stopped", info.State)
	}
}

// TestQuitWhenDone runs a crawl whose "when done" setting is quit: the
// window closes once it is done.
func TestQuitWhenDone(t *testing.T) {
	d := fixture.OpenDB(t)
	seed := fixture.Serve(t, &testsite.Site{Pages: 20, OutDegree: 3})
	h := newHarness(t, d)
	h.typeSeeds(seed)
	h.ui.newCrawl.adv.onCompletion.SetSelected(crawl.OnCompletionQuit)
	test.Tap(h.ui.newCrawl.start)
	h.until("the window to close", func() bool { return h.closed })
	if h.ui.session != nil || h.ui.d != nil {
		t.Error("closed with a session or the database open")
	}
}

// TestSkippedFilterListsReasons lists the skipped URLs of a crawl with
// their reasons, and shows why in the detail pane.
func TestSkippedFilterListsReasons(t *testing.T) {
	d := fixture.OpenDB(t)
	id := fixture.Crawl(t, d, "example", 600)
	h := newHarness(t, d)
	h.ui.openCrawl(id, "example")
	rs := h.ui.results
	h.until("600 pages", func() bool { return rs.count.Text == "600 pages" })
	rs.status.SetSelected("Redirects (3xx)")
	h.until("120 redirects", func() bool { return rs.count.Text == "120 pages" })
	rs.status.SetSelected("Skipped")
	h.until("12 skipped", func() bool { return rs.count.Text == "12 skipped URLs" })
	if rs.columns[1].title != "Reason" {
		t.Fatalf("columns of the skipped listing: %v", rs.columns)
	}
	var row db.PageRow
	h.until("row 0", func() bool { var ok bool; row, ok = rs.rows.Row(0); return ok })
	if want := fixture.Skips(600)[0]; row.URL != want.URL || row.SkipReason != want.Reason {
		t.Errorf("row 0 is %s skipped for %q, want %s for %q", row.URL, row.SkipReason, want.URL, want.Reason)
	}
	rs.selectRow(0)
	if !paneSays(rs.detail.body, "Skipped: "+row.SkipReason.Label()) {
		t.Error("the detail pane does not say why the URL was skipped")
	}
}

// TestDetailClearsWhenItsRowLeaves selects a page, then filters: a filter
// that drops the page clears the detail pane, a sort keeps it.
func TestDetailClearsWhenItsRowLeaves(t *testing.T) {
	d := fixture.OpenDB(t)
	id := fixture.Crawl(t, d, "example", 100)
	h := newHarness(t, d)
	h.ui.openCrawl(id, "example")
	rs := h.ui.results
	h.until("the pages", func() bool { return rs.count.Text == "100 pages" })
	h.until("row 2", func() bool { _, ok := rs.rows.Row(2); return ok })
	rs.table.Select(widget.TableCellID{Row: 2, Col: 0}) // page 2: status 301
	h.until("the detail pane", func() bool { return rs.detail.shown != nil })
	rs.sortBy(db.SortURL)
	if rs.detail.shown == nil {
		t.Error("a new sort cleared the detail pane; the page is still listed")
	}
	rs.status.SetSelected("2xx success")
	if rs.detail.shown != nil || rs.detail.want != 0 {
		t.Error("the detail pane still shows a page the filter removed")
	}
}

// TestNoBrowserOffersCopy: when no program can open links, the window says
// so plainly and copies the URL on request.
func TestNoBrowserOffersCopy(t *testing.T) {
	d := fixture.OpenDB(t)
	h := newHarness(t, d)
	const u = "http://www.example.test/page/2"
	h.ui.results.detail.noBrowser(u, errors.New(`exec: "xdg-open": executable file not found in $PATH`))
	if !h.dialogSays("could not open a web browser") {
		t.Error("the dialog does not say plainly what went wrong")
	}
	h.press("Copy URL")
	if got := h.ui.app.Clipboard().Content(); got != u {
		t.Errorf("clipboard holds %q, want %q", got, u)
	}
}

// TestCrawlMenuFollowsTheCrawl: Pause, Resume and Stop in the Crawl menu
// are off while nothing runs.
func TestCrawlMenuFollowsTheCrawl(t *testing.T) {
	d := fixture.OpenDB(t)
	h := newHarness(t, d)
	if !h.ui.menuPause.Disabled || !h.ui.menuResume.Disabled || !h.ui.menuStop.Disabled {
		t.Error("Pause, Resume or Stop is on with no crawl running")
	}
	h.ui.live.setControls(crawl.StateRunning)
	if h.ui.menuPause.Disabled || !h.ui.menuResume.Disabled || h.ui.menuStop.Disabled {
		t.Error("a running crawl: want Pause and Stop on, Resume off")
	}
	h.ui.live.setControls(crawl.StateDone)
	if !h.ui.menuPause.Disabled || !h.ui.menuStop.Disabled {
		t.Error("a finished crawl: Pause or Stop still on")
	}
}

// TestColumnWidthsRemembered: a width the user drags stays through other
// listings and is kept in the preferences for the next session.
func TestColumnWidthsRemembered(t *testing.T) {
	d := fixture.OpenDB(t)
	id := fixture.Crawl(t, d, "example", 50)
	h := newHarness(t, d)
	h.ui.openCrawl(id, "example")
	h.ui.tabs.SelectIndex(tabResults)
	rs := h.ui.results
	h.until("the pages", func() bool { return rs.count.Text == "50 pages" })
	rs.dragging = true // as the table's Dragged marks it
	rs.table.SetColumnWidth(0, 431)
	h.win.Canvas().Refresh(rs.table)
	test.WidgetRenderer(rs.table).Layout(rs.table.Size())
	rs.dragging = false
	if got := rs.widths["URL"]; got != 431 {
		t.Fatalf("URL width recorded as %v, want 431", got)
	}
	rs.status.SetSelected("Skipped")
	rs.status.SetSelected("Any status")
	if got := rs.columnWidth(rs.columns[0]); got != 431 {
		t.Errorf("after other listings the URL column is %v wide, want 431", got)
	}
	h.until("the widths saved", func() bool {
		return strings.Contains(h.ui.app.Preferences().String(widthsKey), `"URL":431`)
	})
	rs.widths = nil
	rs.loadWidths()
	if rs.widths["URL"] != 431 {
		t.Errorf("widths read back %v", rs.widths)
	}
}
