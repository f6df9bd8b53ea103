package gui

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/db"
	"github.com/trawler/trawler/gateway"
	"github.com/trawler/trawler/gateway/gatewaytest"
	"github.com/trawler/trawler/gui/internal/fixture"
	"github.com/trawler/trawler/urlfilter"
)

// judgedCrawl crawls a small site with word lists into d: /bet is black,
// /garden white.
func judgedCrawl(t *testing.T, d *db.DB) (site string, lists string) {
	t.Helper()
	docs := map[string]string{
		"/":       `<title>Home</title><a href="/bet">bets</a> <a href="/garden">garden</a>`,
		"/bet":    `<title>Casino</title><p>Casino, poker and the jackpot.</p>`,
		"/garden": `<title>Garden</title><p>Roses and tulips.</p>`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		doc, ok := docs[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, doc)
	}))
	t.Cleanup(srv.Close)
	lists = filepath.Join(t.TempDir(), "gambling.txt")
	if err := os.WriteFile(lists, []byte("@threshold 3\ncasino, 2\npoker\njackpot\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := crawl.DefaultConfig()
	cfg.Seeds, cfg.Robots, cfg.WordLists = []string{srv.URL + "/"}, false, []string{lists}
	id, err := d.CreateCrawl(context.Background(), "bets", cfg)
	if err != nil {
		t.Fatal(err)
	}
	e, err := crawl.New(cfg, d.Crawl(id))
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := d.SetState(context.Background(), id, db.StateDone); err != nil {
		t.Fatal(err)
	}
	return srv.URL, lists
}

func TestVerdictFilterAndWhy(t *testing.T) {
	d := fixture.OpenDB(t)
	site, _ := judgedCrawl(t, d)
	h := newHarness(t, d)
	rs := h.ui.results
	h.until("3 pages", func() bool { return rs.count.Text == "3 pages" })
	rs.verdict.SetSelected("Black")
	h.until("the black page", func() bool { return rs.count.Text == "1 page" })
	var row db.PageRow
	h.until("row 0", func() bool { var ok bool; row, ok = rs.rows.Row(0); return ok })
	if row.URL != site+"/bet" || row.Verdict != "black" {
		t.Fatalf("black row %s %q", row.URL, row.Verdict)
	}
	rs.table.Select(widget.TableCellID{Row: 0, Col: 0})
	dp := rs.detail
	h.until("the detail pane", func() bool { return dp.shown != nil && dp.shown.ID == row.ID })
	if !paneSays(dp.body, "black: score 4 in gambling") || !paneSays(dp.body, "casino  weight 2, gambling  —  1× in the title, 1× in the text") {
		t.Error("the Why tab does not say why the page is black")
	}

	// New lists, judged from the window: the garden is black now.
	garden := filepath.Join(t.TempDir(), "garden.txt")
	os.WriteFile(garden, []byte("@threshold 2\nroses\ntulips\n"), 0o644)
	h.ui.judge(d, h.ui.crawl, []string{garden})
	h.until("the judging to end", func() bool { return h.win.Canvas().Overlays().Top() != nil && h.dialogSays("3 pages judged") })
	h.until("the new black page", func() bool {
		r, ok := rs.rows.Row(0)
		return ok && rs.count.Text == "1 page" && r.URL == site+"/garden"
	})
}

func TestGatewayScreen(t *testing.T) {
	d := fixture.OpenDB(t)
	site, _ := judgedCrawl(t, d)
	if _, err := d.AddListEntries(context.Background(), db.SourceManual, "", []urlfilter.Entry{
		{List: urlfilter.Black, Kind: urlfilter.KindHost, Value: "ads.example", Category: "ads"}}); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, d)
	h.until("the crawl open", func() bool { return h.ui.crawl != 0 })
	h.shortcut("6")
	gs := h.ui.gateway
	if h.ui.tabs.SelectedIndex() != tabGateway {
		t.Fatal("Ctrl+6 did not show the Gateway")
	}
	h.until("the lists", func() bool { return len(gs.lists.entries) == 1 && strings.Contains(gs.lists.words.Text, "1 black") })

	gs.listen.SetText("127.0.0.1:0")
	test.Tap(gs.start)
	h.until("the gateway listening", func() bool { return strings.HasPrefix(gs.status.Text, "Listening on") })
	addr := strings.Fields(gs.status.Text)[2]
	addr = strings.TrimSuffix(addr, ",")
	proxy, _ := url.Parse("http://" + addr)
	c := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxy)}}
	res, err := c.Get(site + "/bet")
	if err != nil || res.StatusCode != 403 {
		t.Fatalf("/bet through the window's gateway: %v %v", res, err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	h.until("the counts", func() bool { return strings.HasPrefix(gs.counts.Text, "0 allowed · 1 blocked") })
	h.until("the decision", func() bool { return len(gs.decided) == 1 && gs.decisionCell(gs.decided[0], 2) == "blocked" })

	// A report on the block page shows under Reports; Allow puts the URL
	// on the white list and the gateway lets it through.
	form := gatewaytest.FormFields(t, string(page))
	if res, err := c.PostForm("http://"+gateway.ReservedHost+"/report", form); err != nil || res.StatusCode != 200 {
		t.Fatalf("report: %v %v", res, err)
	}
	gs.lists.reload()
	h.until("the report", func() bool { return len(gs.lists.reports) == 1 })
	gs.lists.reportTable.Select(widget.TableCellID{Row: 0, Col: 0})
	test.Tap(gs.lists.allow)
	h.until("the URL allowed", func() bool { return len(gs.lists.entries) == 2 && len(gs.lists.reports) == 0 })
	h.until("the gateway to reload", func() bool {
		res, err := c.Get(site + "/bet")
		if err == nil {
			res.Body.Close()
		}
		return err == nil && res.StatusCode == 200
	})

	// Removing the host entry.
	for i, e := range gs.lists.entries {
		if e.Value == "ads.example" {
			gs.lists.table.Select(widget.TableCellID{Row: i, Col: 0})
		}
	}
	test.Tap(gs.lists.remove)
	h.until("the entry removed", func() bool { return len(gs.lists.entries) == 1 })

	test.Tap(gs.stop)
	h.until("stopped", func() bool { return gs.status.Text == "Stopped." && !gs.start.Disabled() })
	if _, err := c.Get(site + "/garden"); err == nil {
		t.Error("the gateway still answers after Stop")
	}
}
