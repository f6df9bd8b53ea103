package gui

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/robot"
	"github.com/trawler/trawler/db"
	"github.com/trawler/trawler/db/pgtest"
	"github.com/trawler/trawler/gui/internal/fixture"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

func TestRobotCell(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	r := robot.State{Info: robot.Info{ID: "r1", Hostname: "box"},
		Status: robot.Status{State: "running", Pages: 12345, Errors: 3, Rate: 41.25, Threads: 8}, Heartbeat: now.Add(-1500 * time.Millisecond)}
	stale := r
	stale.Heartbeat = now.Add(-40 * time.Second)
	told := r
	told.State, told.Command = "paused", robot.CommandStop
	tests := []struct {
		r    robot.State
		col  int
		want string
	}{
		{r, 0, "r1"}, {r, 1, "box"}, {r, 2, "running"}, {r, 3, "12,345"}, {r, 4, "41.2"}, {r, 5, "3"},
		{r, 6, "8"}, {r, 7, "1.5s ago"},
		{stale, 2, "stale (running)"}, {stale, 7, "40s ago"},
		{told, 2, "paused, told to stop"},
	}
	for _, tt := range tests {
		if got := robotCell(tt.r, tt.col, now); got != tt.want {
			t.Errorf("robotCell(%s, col %d) = %q, want %q", tt.r.ID, tt.col, got, tt.want)
		}
	}
}

func TestParseControl(t *testing.T) {
	tests := []struct {
		threads, perHost, delay string
		want                    robot.Control
		err                     string
	}{
		{"", "", "", robot.Control{Delay: -1}, ""},
		{"3", "2", "500ms", robot.Control{Threads: 3, PerHost: 2, Delay: 500 * time.Millisecond}, ""},
		{" 4 ", "", "0", robot.Control{Threads: 4, Delay: 0}, ""},
		{"lots", "", "", robot.Control{}, "threads per robot"},
		{"0", "", "", robot.Control{}, "from 1 to"},
		{"", "-1", "", robot.Control{}, "requests per host"},
		{"", "", "soon", robot.Control{}, "delay per host"},
	}
	for _, tt := range tests {
		got, err := parseControl(tt.threads, tt.perHost, tt.delay)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("parseControl(%q, %q, %q): err %v, want %q", tt.threads, tt.perHost, tt.delay, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("parseControl(%q, %q, %q) = %+v, %v; want %+v", tt.threads, tt.perHost, tt.delay, got, err, tt.want)
		}
	}
}

// TestRobotsScreenWithoutServer: on a SQLite file there are no robots, and
// the screen says how to get them.
func TestRobotsScreenWithoutServer(t *testing.T) {
	h := newHarness(t, fixture.OpenDB(t))
	h.ui.tabs.SelectIndex(tabRobots)
	h.settle()
	s := h.ui.robots
	t.Cleanup(func() { s.follow(false) })
	if !strings.Contains(s.summary.Text, "Connect to server") {
		t.Errorf("summary %q", s.summary.Text)
	}
	for _, b := range []*widget.Button{s.pauseAll, s.stopAll, s.apply, s.start, s.stopOne} {
		if !b.Disabled() {
			t.Errorf("%q is enabled without a server", b.Text)
		}
	}
}

// TestConnectAndSteerRobots: File › Connect to server opens a PostgreSQL
// database (the password to the keychain when asked, never into the
// title), and the Robots screen lists the crawl's robots and steers them.
func TestConnectAndSteerRobots(t *testing.T) {
	url := pgtest.URL(t)
	h := newHarness(t, nil)
	var mu sync.Mutex
	var started []string
	h.ui.opts.StartRobot = func(u, pw string, id int64) error {
		mu.Lock()
		defer mu.Unlock()
		started = append(started, u+" "+pw)
		return nil
	}
	h.ui.connectDialog()
	entries := h.dialogEntries()
	entries[0].SetText(url)
	entries[1].SetText("pw-1")
	deepWalk(h.overlay(), func(o fyne.CanvasObject) {
		if c, ok := o.(*widget.Check); ok {
			c.SetChecked(true)
		}
	})
	h.press("Connect")
	h.until("the server's database", func() bool { return h.ui.d != nil && h.ui.d.Postgres() })
	d := h.ui.d
	t.Cleanup(func() { h.ui.robots.follow(false); d.Close() })
	if title := h.win.Title(); !strings.Contains(title, "postgres://postgres@127.0.0.1") || strings.Contains(title, "pw-1") {
		t.Errorf("title %q", title)
	}
	host, _, _ := db.ServerAccount(url)
	h.until("the password remembered", func() bool { return h.keys.get("postgres@"+host) == "pw-1" })

	ctx := context.Background()
	cfg := crawl.DefaultConfig()
	cfg.Seeds = []string{"http://127.0.0.1:1/"}
	id, err := d.CreateCrawl(ctx, "shared", cfg)
	if err != nil {
		t.Fatal(err)
	}
	st, err := d.SharedCrawl(id, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	r := st.Robot("r1")
	if err := r.Register(ctx, robot.Info{ID: "r1", Hostname: "box", Threads: 4}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Beat(ctx, robot.Status{State: "running", Pages: 12, Threads: 4}, nil); err != nil {
		t.Fatal(err)
	}
	h.ui.openCrawl(id, "shared")
	h.ui.tabs.SelectIndex(tabRobots)
	s := h.ui.robots
	h.until("r1 listed", func() bool { return len(s.list) == 1 })
	if got := robotCell(s.list[0], 2, s.read); got != "running" || !strings.Contains(s.summary.Text, "1 robot, 1 working") {
		t.Errorf("state %q, summary %q", got, s.summary.Text)
	}

	control := func() robot.Control { c, _ := d.Control(ctx, id); return c }
	test.Tap(s.pauseAll)
	h.until("pause for all", func() bool { return control().Command == robot.CommandPause })
	s.table.Select(widget.TableCellID{Row: 0, Col: 0})
	test.Tap(s.stopOne)
	h.until("r1 told to stop", func() bool { return len(s.list) == 1 && s.list[0].Command == robot.CommandStop })
	s.threads.SetText("3")
	s.delay.SetText("250ms")
	test.Tap(s.apply)
	h.until("three threads", func() bool { return control().Threads == 3 })
	if c := control(); c.Command != robot.CommandPause || c.Delay != 250*time.Millisecond || c.PerHost != 0 {
		t.Errorf("control after Apply: %+v", c)
	}
	s.threads.SetText("lots")
	test.Tap(s.apply)
	h.until("the refusal", func() bool {
		return h.win.Canvas().Overlays().Top() != nil && h.dialogSays("not a whole number")
	})
	if c := control(); c.Threads != 3 {
		t.Errorf("a refused setting changed the control: %+v", c)
	}

	s.count.SetText("2")
	test.Tap(s.start)
	h.until("two robots started", func() bool { mu.Lock(); defer mu.Unlock(); return len(started) == 2 })
	if want := db.RedactURL(url) + " pw-1"; started[0] != want {
		t.Errorf("robot started with %q, want %q", started[0], want)
	}
}
