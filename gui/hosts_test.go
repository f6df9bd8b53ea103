package gui

import (
	"net/url"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"github.com/trawler/trawler/crawl/testsite"
	"github.com/trawler/trawler/gui/internal/fixture"
)

// TestHostsFillDuringCrawl follows a slow crawl: the Live view's host
// table shows the site's host with URLs waiting, from the monitor's updates.
func TestHostsFillDuringCrawl(t *testing.T) {
	d := fixture.OpenDB(t)
	seed := fixture.Serve(t, &testsite.Site{Pages: 500, OutDegree: 4, Latency: 3 * time.Millisecond})
	u, err := url.Parse(seed)
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, d)
	h.typeSeeds(seed)
	h.ui.newCrawl.threads.SetText("2")
	test.Tap(h.ui.newCrawl.start)
	hp := h.ui.live.hosts
	h.until("the host table to show the site with URLs waiting", func() bool {
		return len(hp.list) == 1 && hp.list[0].Waiting > 0
	})
	if got := hp.cell(hp.list[0], 0); got != u.Host {
		t.Errorf("host cell %q, want %q", got, u.Host)
	}
	if hp.title.Text != "Hosts (1)" {
		t.Errorf("title %q", hp.title.Text)
	}
	h.ui.stopCrawl()
	h.crawlDone()
}
