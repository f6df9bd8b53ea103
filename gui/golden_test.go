package gui

import (
	"fmt"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/gui/internal/fixture"
	"github.com/trawler/trawler/gui/live"
)

// The golden images under testdata/ are the key screens drawn by Fyne's
// test painter with its fixed theme at WindowSize: nothing in them
// depends on the clock, a port or a temporary path. After a deliberate
// change, the new picture is written to testdata/failed/ to review and
// copy over.

func TestGoldenNewCrawlInvalid(t *testing.T) {
	h := newHarness(t, fixture.OpenDB(t))
	h.typeSeeds("example.org\nmailto:someone@example.org\nhttps://docs.example.org/start")
	h.ui.newCrawl.threads.SetText("0")
	test.AssertImageMatches(t, "new_crawl_invalid.png", h.capture())
}

func TestGoldenNewCrawlAdvanced(t *testing.T) {
	h := newHarness(t, fixture.OpenDB(t))
	nc := h.ui.newCrawl
	h.typeSeeds("https://example.org/")
	nc.adv.userAgent.SetText("ExampleBot/1.0 (+https://example.org/bot)")
	nc.adv.auth.add(formAuth("intranet.example.org", "reader"))
	findAccordion(nc.content).Open(0)
	h.win.Resize(fyne.NewSize(WindowSize.Width, 1180)) // all of it, unscrolled: the test painter does not clip
	nc.adv.tabs.SelectIndex(1)
	nc.check()
	test.AssertImageMatches(t, "new_crawl_advanced_network.png", h.capture())

	nc.adv.proxy.SetText("ftp://proxy.example.org:21") // an error on the Network tab, seen from another
	nc.adv.delay.SetText("250ms")
	nc.adv.tabs.SelectIndex(2)
	if got := nc.adv.tabs.Items[1].Text; got != "Network ⚠" {
		t.Errorf("the Network tab is titled %q", got)
	}
	test.AssertImageMatches(t, "new_crawl_advanced_politeness.png", h.capture())
}

func TestGoldenEmptyStates(t *testing.T) {
	h := newHarness(t, fixture.OpenDB(t))
	h.until("the empty crawls list", func() bool { return h.ui.crawls.loaded && h.ui.crawls.empty.Visible() })
	for i, name := range []string{"empty_live.png", "empty_results.png", "empty_crawls.png"} {
		h.ui.tabs.SelectIndex(tabLive + i)
		h.ui.crawls.path.SetText("Database: /home/user/.config/trawler/trawler.db")
		test.AssertImageMatches(t, name, h.capture())
	}
}

// liveUpdate is a crawl halfway through, as the monitor would report it.
func liveUpdate() live.Update {
	at := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	u := live.Update{Progress: crawl.Progress{
		State: crawl.StateRunning, Waiting: 2310, Processing: 50, Done: 4120, Errors: 37, Skipped: 318,
		ByDepth: []int64{1, 12, 96, 640, 2210, 1198}, PagesPerSec: 48.6, Peak: 52.3, Average: 47.4, Bytes: 61 << 20, Elapsed: 87 * time.Second,
	}}
	for i := range 120 {
		u.Rates = append(u.Rates, 40+8*float64(i%9)/9+float64(i%4))
	}
	for i := range 30 {
		ev := crawl.Event{Seq: uint64(i + 1), At: at, URL: fmt.Sprintf("http://www.example.test/page/%d", 4000+i), Status: 200,
			Message: "text/html 1834 bytes in 12ms"}
		switch i % 10 {
		case 3:
			ev.Level, ev.Status, ev.Message = crawl.LevelWarn, 404, "HTTP 404"
		case 7:
			ev.Level, ev.Status, ev.Message = crawl.LevelError, 0, "connect: connection refused"
		}
		u.Events = append(u.Events, ev)
	}
	return u
}

func TestGoldenLive(t *testing.T) {
	h := newHarness(t, fixture.OpenDB(t))
	h.ui.tabs.SelectIndex(tabLive)
	h.ui.live.begin("www.example.test")
	u := liveUpdate()
	base := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	h.ui.live.hosts.now = func() time.Time { return base }
	u.Hosts = []crawl.HostStatus{
		{Host: "www.example.test", Waiting: 2290, InFlight: 2, NextAllowed: base.Add(800 * time.Millisecond), Delay: time.Second, Errors: 37},
		{Host: "cdn.example.test", Waiting: 20, InFlight: 1},
		{Host: "old.example.test", NextAllowed: base.Add(-time.Second), Delay: 2 * time.Second},
	}
	h.ui.live.apply(u)
	test.AssertImageMatches(t, "live.png", h.capture())

	h.ui.live.level.SetSelected(live.LevelNames[1])
	test.AssertImageMatches(t, "live_warnings.png", h.capture())
}

func TestGoldenResults(t *testing.T) {
	d := fixture.OpenDB(t)
	id := fixture.Crawl(t, d, "example", 300)
	h := newHarness(t, d)
	h.ui.openCrawl(id, "example")
	h.ui.tabs.SelectIndex(tabResults)
	rs := h.ui.results
	loadVisible := func() {
		h.until("the rows on screen", func() bool {
			for i := range 20 {
				if _, ok := rs.rows.Row(i); !ok {
					return false
				}
			}
			return true
		})
		h.until("the filters", func() bool { return len(rs.host.Options) == 3 })
		rs.table.Refresh()
	}
	loadVisible()
	rs.table.Select(widget.TableCellID{Row: 2, Col: 0})
	h.until("the detail pane", func() bool { return rs.detail.shown != nil })
	test.AssertImageMatches(t, "results_detail.png", h.capture())

	test.Type(rs.search, "quick fox")
	h.until("the matches", func() bool { return rs.count.Text == "43 pages" })
	loadVisible()
	test.AssertImageMatches(t, "results_search.png", h.capture())
}

func TestGoldenCrawls(t *testing.T) {
	d := fixture.OpenDB(t)
	fixture.Crawl(t, d, "example.test docs", 120)
	fixture.Crawl(t, d, "example.test", 300)
	h := newHarness(t, d)
	h.ui.tabs.SelectIndex(tabCrawls)
	h.until("the crawls", func() bool { return len(h.ui.crawls.list) == 2 })
	h.ui.crawls.path.SetText("Database: /home/user/.config/trawler/trawler.db")
	h.ui.crawls.table.Select(widget.TableCellID{Row: 0, Col: 0})
	test.AssertImageMatches(t, "crawls.png", h.capture())
}
