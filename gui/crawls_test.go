package gui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/rabin"
	"github.com/trawler/trawler/crawl/testsite"
	"github.com/trawler/trawler/db"
	"github.com/trawler/trawler/gui/form"
	"github.com/trawler/trawler/gui/internal/fixture"
)

// deepWalk calls fn for o and everything drawn inside it, widgets'
// renderers included.
func deepWalk(o fyne.CanvasObject, fn func(fyne.CanvasObject)) {
	fn(o)
	switch v := o.(type) {
	case *fyne.Container:
		for _, c := range v.Objects {
			deepWalk(c, fn)
		}
	case fyne.Widget:
		for _, c := range test.WidgetRenderer(v).Objects() {
			deepWalk(c, fn)
		}
	}
}

// overlay returns the dialog on top of the window, failing when there is none.
func (h *harness) overlay() fyne.CanvasObject {
	h.t.Helper()
	top := h.win.Canvas().Overlays().Top()
	if top == nil {
		h.t.Fatal("no dialog is shown")
	}
	return top
}

// dialogSays reports whether the top dialog shows text somewhere.
func (h *harness) dialogSays(text string) bool {
	found := false
	deepWalk(h.overlay(), func(o fyne.CanvasObject) {
		switch v := o.(type) {
		case *widget.Label:
			found = found || strings.Contains(v.Text, text)
		case *widget.RichText:
			found = found || strings.Contains(v.String(), text)
		case *canvas.Text:
			found = found || strings.Contains(v.Text, text)
		}
	})
	return found
}

// dismissResumeOffer waits for the window's offer to resume an
// unfinished crawl and answers Not now.
func (h *harness) dismissResumeOffer() {
	h.t.Helper()
	h.until("the offer to resume", func() bool { return h.ui.resumeOffer != nil })
	h.press("Not now")
}

// press taps the button labelled text in the top dialog.
func (h *harness) press(text string) {
	h.t.Helper()
	var btn *widget.Button
	deepWalk(h.overlay(), func(o fyne.CanvasObject) {
		if b, ok := o.(*widget.Button); ok && b.Text == text && btn == nil {
			btn = b
		}
	})
	if btn == nil {
		h.t.Fatalf("no %q button in the dialog", text)
	}
	test.Tap(btn)
}

// dialogEntries returns the entries of the top dialog.
func (h *harness) dialogEntries() []*widget.Entry {
	var list []*widget.Entry
	deepWalk(h.overlay(), func(o fyne.CanvasObject) {
		if e, ok := o.(*widget.Entry); ok {
			list = append(list, e)
		}
	})
	return list
}

func (h *harness) selectCrawl(name string) db.CrawlInfo {
	h.t.Helper()
	cs := h.ui.crawls
	for i, c := range cs.list {
		if c.Name == name {
			cs.table.Select(widget.TableCellID{Row: i, Col: 0})
			return c
		}
	}
	h.t.Fatalf("no crawl %q in the list", name)
	return db.CrawlInfo{}
}

func TestCrawlsRenameDeleteReuse(t *testing.T) {
	d := fixture.OpenDB(t)
	fixture.Crawl(t, d, "first", 30)
	id := fixture.Crawl(t, d, "second", 40)
	h := newHarness(t, d)
	cs := h.ui.crawls
	h.until("the list", func() bool { return len(cs.list) == 2 })
	if !cs.open.Disabled() {
		t.Error("Open is on with no crawl selected")
	}

	h.selectCrawl("second")
	test.Tap(cs.rename)
	entries := h.dialogEntries()
	if len(entries) != 1 || entries[0].Text != "second" {
		t.Fatalf("rename dialog entries %v", entries)
	}
	entries[0].SetText("renamed")
	h.press("Rename")
	h.until("the new name", func() bool { return len(cs.list) == 2 && cs.list[0].Name == "renamed" })

	h.selectCrawl("first")
	test.Tap(cs.remove)
	if !h.dialogSays(`Delete "first" and its 30 pages`) {
		t.Error("the delete dialog does not say what goes")
	}
	h.press("No")
	if info, err := d.CrawlInfo(context.Background(), id-1); err != nil || info.Name != "first" {
		t.Fatalf("No deleted the crawl: %v", err)
	}
	h.selectCrawl("first")
	test.Tap(cs.remove)
	h.press("Yes")
	h.until("one crawl left", func() bool { return len(cs.list) == 1 })
	if _, err := d.CrawlInfo(context.Background(), id-1); !errors.Is(err, db.ErrNotFound) {
		t.Errorf("deleted crawl still there: %v", err)
	}

	h.selectCrawl("renamed")
	test.Tap(cs.reuse)
	if h.ui.tabs.SelectedIndex() != tabNewCrawl || h.ui.newCrawl.seeds.Text != "http://www.example.test/page/0" {
		t.Errorf("Use its settings: tab %d, seeds %q", h.ui.tabs.SelectedIndex(), h.ui.newCrawl.seeds.Text)
	}
	h.selectCrawl("renamed")
	test.Tap(cs.open)
	if h.ui.crawl != id || h.win.Title() != "renamed — Trawler" {
		t.Errorf("Open: crawl %d, title %q", h.ui.crawl, h.win.Title())
	}
}

// TestResumeAsksForPasswords resumes a stopped crawl whose settings name a
// sign-in: the password is asked again, since it was never stored.
func TestResumeAsksForPasswords(t *testing.T) {
	d := fixture.OpenDB(t)
	seed := fixture.Serve(t, &testsite.Site{Pages: 50, OutDegree: 3})
	cfg := crawl.DefaultConfig()
	cfg.Seeds = []string{seed}
	cfg.Depth = 20 // with a binding depth limit, a concurrent crawl may miss a page (see TestStartCrawlFillsCountersAndTable)
	cfg.Auth = []crawl.HostAuth{{Host: "127.0.0.1", User: "me", Password: "secret"}}
	id, err := d.CreateCrawl(context.Background(), "signed in", cfg)
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, d)
	h.dismissResumeOffer() // the window offers to resume it at once; here it goes through Crawls
	cs := h.ui.crawls
	h.until("the list", func() bool { return len(cs.list) == 1 })
	h.selectCrawl("signed in")
	test.Tap(cs.resume)
	h.until("the password dialog", func() bool { return h.win.Canvas().Overlays().Top() != nil })
	if !h.dialogSays("me @ 127.0.0.1") || len(h.dialogEntries()) != 1 || !h.dialogEntries()[0].Password {
		t.Fatal("no password asked")
	}
	h.dialogEntries()[0].SetText("secret")
	h.press("Resume")
	if h.ui.session == nil || h.ui.session.ID != id {
		t.Fatal("the crawl did not resume")
	}
	h.crawlDone()
	if info, _ := d.CrawlInfo(context.Background(), id); info.State != db.StateDone || info.Pages != 50 {
		t.Errorf("after resuming: %+v", info)
	}
}

func TestShortcuts(t *testing.T) {
	d := fixture.OpenDB(t)
	id := fixture.Crawl(t, d, "example", 10)
	h := newHarness(t, d)
	h.ui.openCrawl(0, "") // the window opened on the crawl
	h.ui.tabs.SelectIndex(tabCrawls)
	h.shortcut(fyne.KeyN)
	if h.ui.tabs.SelectedIndex() != tabNewCrawl || h.win.Canvas().Focused() != h.ui.newCrawl.seeds {
		t.Error("Ctrl+N did not focus the seeds box")
	}
	for key, tab := range map[fyne.KeyName]int{fyne.Key2: tabLive, fyne.Key3: tabResults, fyne.Key4: tabCrawls, fyne.Key1: tabNewCrawl} {
		h.shortcut(key)
		if h.ui.tabs.SelectedIndex() != tab {
			t.Errorf("Ctrl+%s shows tab %d, want %d", key, h.ui.tabs.SelectedIndex(), tab)
		}
	}
	h.shortcut(fyne.KeyE)
	if !h.dialogSays("no crawl is open") {
		t.Error("Ctrl+E with no crawl open does not say why it cannot export")
	}
	h.press("OK")
	h.ui.openCrawl(id, "example")
	h.shortcut(fyne.KeyE)
	if !h.dialogSays("current view") {
		t.Error("Ctrl+E did not ask what to export")
	}
	h.press("Cancel")
	h.shortcut(fyne.KeyO)
	if h.win.Canvas().Overlays().Top() == nil {
		t.Error("Ctrl+O showed no file dialog")
	}
	h.shortcut(fyne.KeyW)
	if !h.closed {
		t.Error("Ctrl+W did not close the window with no crawl running")
	}
}

func TestOpenDatabaseShowsTheCause(t *testing.T) {
	h := newHarness(t, fixture.OpenDB(t))
	bad := filepath.Join(t.TempDir(), "notes.db")
	if err := os.WriteFile(bad, []byte("these are my notes, not a database\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h.ui.openDatabase(bad)
	h.until("an error dialog", func() bool { return h.win.Canvas().Overlays().Top() != nil })
	if !h.dialogSays("not a Trawler database") && !h.dialogSays("notes.db") {
		t.Error("the error does not say what is wrong")
	}
	h.press("OK")

	other := filepath.Join(t.TempDir(), "other")
	h.ui.openDatabase(other)
	h.until("the new database", func() bool { return h.ui.d != nil && h.ui.d.Path() == other+".db" })
	if h.win.Title() != "other.db — Trawler" || h.ui.tabs.SelectedIndex() != tabCrawls {
		t.Errorf("title %q, tab %d", h.win.Title(), h.ui.tabs.SelectedIndex())
	}
	h.until("the empty list", func() bool { return h.ui.crawls.loaded && len(h.ui.crawls.list) == 0 && h.ui.crawls.empty.Visible() })
}

// TestFormRemembered checks that a new window shows the form as it was
// when the last crawl started.
func TestFormRemembered(t *testing.T) {
	h := newHarness(t, fixture.OpenDB(t))
	f := form.Defaults()
	f.Seeds, f.Threads, f.Strategy, f.Mix, f.Include = "http://127.0.0.1:9/", "17", "mixed", 0.3, "/docs/"
	form.Save(h.ui.app.Preferences(), f)
	again := New(h.ui.app, test.NewTempWindow(t, widget.NewLabel("")), nil, Options{Do: h.loop.Do, TimeText: fixedTime})
	nc := again.newCrawl
	if nc.seeds.Text != f.Seeds || nc.threads.Text != "17" || nc.strategy.Selected != "mixed" || nc.mix.Value != 0.3 ||
		nc.adv.include.Text != "/docs/" {
		t.Errorf("form not restored: %+v", nc.read())
	}
	if !nc.start.Disabled() || !strings.Contains(nc.why.Text, "No database is open") {
		t.Errorf("Start with no database: disabled %v, %q", nc.start.Disabled(), nc.why.Text)
	}
	again.results.close()
}

// TestWindowOpensOnLatestCrawl opens the window on a database with a
// finished crawl: Results shows its pages at once, and Start works without
// editing the form (it used to say no database was open).
func TestWindowOpensOnLatestCrawl(t *testing.T) {
	d := fixture.OpenDB(t)
	fixture.Crawl(t, d, "older", 20)
	id := fixture.Crawl(t, d, "example", 120)
	h := newHarness(t, d)
	h.until("the latest crawl", func() bool { return h.ui.crawl == id })
	rs := h.ui.results
	h.until("its pages", func() bool { return rs.count.Text == "120 pages" })
	if h.ui.tabs.SelectedIndex() != tabResults || h.ui.resumeOffer != nil {
		t.Errorf("tab %d, resume offered %v; want Results and no offer for a finished crawl",
			h.ui.tabs.SelectedIndex(), h.ui.resumeOffer != nil)
	}
	nc := h.ui.newCrawl
	if nc.start.Disabled() || strings.Contains(nc.why.Text, "No database") {
		t.Errorf("the form opened with a database says %q", nc.why.Text)
	}
	f := form.Defaults()
	f.Seeds = fixture.Serve(t, &testsite.Site{Pages: 3, OutDegree: 1})
	nc.fill(f)
	if nc.start.Disabled() || strings.Contains(nc.why.Text, "No database") {
		t.Fatalf("Start off on a filled form with a database open: %q", nc.why.Text)
	}
	test.Tap(nc.start)
	if h.ui.session == nil {
		t.Fatal("Start did not start a crawl")
	}
	h.crawlDone()
}

// TestWindowOffersToResume opens the window on an interrupted crawl: it
// offers to resume it, and Resume finishes it.
func TestWindowOffersToResume(t *testing.T) {
	d := fixture.OpenDB(t)
	seed := fixture.Serve(t, &testsite.Site{Pages: 30, OutDegree: 3})
	cfg := crawl.DefaultConfig()
	cfg.Seeds = []string{seed}
	cfg.Depth = 20
	id, err := d.CreateCrawl(context.Background(), "interrupted", cfg)
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, d)
	h.until("the offer to resume", func() bool { return h.ui.resumeOffer != nil })
	if !h.dialogSays("interrupted") {
		t.Error("the offer does not name the crawl")
	}
	h.press("Resume")
	if h.ui.session == nil || h.ui.session.ID != id {
		t.Fatal("Resume did not resume the crawl")
	}
	h.crawlDone()
	if info, _ := d.CrawlInfo(context.Background(), id); info.State != db.StateDone || info.Pages != 30 {
		t.Errorf("after resuming: %+v", info)
	}
}

// TestInlinksShowTotalsAndPage: a page linked from 120 pages, twice from
// each, shows the true totals and reads the linking pages on request.
func TestInlinksShowTotalsAndPage(t *testing.T) {
	d := fixture.OpenDB(t)
	ctx := context.Background()
	cfg := crawl.DefaultConfig()
	cfg.Seeds = []string{"http://www.example.test/"}
	id, err := d.CreateCrawl(ctx, "linked", cfg)
	if err != nil {
		t.Fatal(err)
	}
	const target = "http://www.example.test/target"
	b := &crawl.Batch{Pages: []*crawl.Page{{URL: target, FP: rabin.FingerprintString(target), Status: 200, Title: "Target"}}}
	for i := range 120 {
		u := fmt.Sprintf("http://www.example.test/p%d", i)
		b.Pages = append(b.Pages, &crawl.Page{URL: u, FP: rabin.FingerprintString(u), Status: 200, Links: []crawl.Link{
			{URL: target, Kind: crawl.LinkA, Text: "menu"}, {URL: target, Kind: crawl.LinkA, Text: "read more"}}})
	}
	if err := d.Crawl(id).Apply(ctx, "t", b); err != nil {
		t.Fatal(err)
	}
	_ = d.SetState(ctx, id, db.StateDone)
	h := newHarness(t, d)
	rs := h.ui.results
	h.until("the crawl", func() bool { return rs.count.Text == "121 pages" })
	h.until("row 0", func() bool { _, ok := rs.rows.Row(0); return ok })
	rs.selectRow(0)
	h.until("the detail", func() bool { return rs.detail.shown != nil })
	if !paneSays(rs.detail.body, "Inlinks: 240 links from 120 pages") {
		t.Error("the inlinks' totals are missing")
	}
	if !paneSays(rs.detail.body, `http://www.example.test/p0  “menu”, “read more”  (2 links)`) {
		t.Error("a linking page is not one line with its anchors")
	}
	for shown := 50; shown < 120; shown += 50 {
		more := findButton(rs.detail.body, fmt.Sprintf("Show more (%d pages of 120 pages shown)", shown))
		if more == nil {
			t.Fatalf("no Show more button at %d", shown)
		}
		test.Tap(more)
		next := min(shown+50, 120)
		h.until("the next linking pages", func() bool { return paneSays(rs.detail.body, fmt.Sprintf("/p%d  ", next-1)) })
	}
	if findButton(rs.detail.body, "Show more (120 pages of 120 pages shown)") != nil {
		t.Error("Show more stays after every page is shown")
	}
}
