// Package gui is Trawler's desktop window, built with Fyne: a New crawl
// form with presets and profile import and export, the Live view of a
// running crawl with its per-host queues, a Results browser with search,
// filters (near-duplicates among them), a detail pane and CSV export, the
// list of Crawls in the open database (resume, re-crawl), and the Changes a
// re-crawl found, with a word diff of each changed page, and the Gateway
// that filters a network's requests by the crawl's verdicts (paper 002).
//
// Passwords (per-host sign-in, proxy) never reach the database or the
// preferences: the crawl is stored with secret.Strip'd settings, and a
// resumed or re-crawled one gets them from the keychain or a dialog.
//
// The screens are thin: what they show comes from small models that know
// no widgets (gui/form, gui/live, gui/browse, gui/runner), and the charts
// are drawn with canvas primitives (gui/chart). Every change to a widget
// happens on Fyne's UI goroutine: work that takes time (the engine, SQLite
// reads, export) runs on other goroutines and hands its result back
// through fyne.Do, the live view at most ten times a second in one batch.
//
// The package does not import fyne.io/fyne/v2/app, so its tests build and
// run headless with fyne.io/fyne/v2/test; main.go creates the app.
package gui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"github.com/dustin/go-humanize"

	"github.com/trawler/trawler/assets"
	"github.com/trawler/trawler/crawl/robot"
	"github.com/trawler/trawler/crawl/secret"
	"github.com/trawler/trawler/db"
	"github.com/trawler/trawler/gui/runner"
)

// AppID is the window's application ID (reverse DNS): Fyne keeps the
// preferences under it, and FyneApp.toml names the same.
const AppID = "io.github.trawler.Trawler"

// WindowSize is the window's size when it opens.
var WindowSize = fyne.NewSize(1200, 800)

// Metadata describes the app to Fyne: name, ID, icon and the fyneDo
// migration (widgets are changed only on the UI goroutine). main.go passes
// it to app.SetMetadata before creating the app, because Fyne reads
// FyneApp.toml only beside the binary or under "go run".
//
// With TRAWLER_THREAD_CHECKS=1 in the environment the migration is left
// off, so Fyne checks every call and logs "Error in Fyne call thread" for
// any made from the wrong goroutine: the smoke test runs that way.
func Metadata() fyne.AppMetadata {
	return fyne.AppMetadata{
		ID:         AppID,
		Name:       "Trawler",
		Version:    "0.1.0",
		Build:      1,
		Icon:       assets.Icon,
		Release:    true,
		Custom:     map[string]string{},
		Migrations: map[string]bool{"fyneDo": os.Getenv("TRAWLER_THREAD_CHECKS") != "1"},
	}
}

// Options adjust the window; the zero value is what Run uses.
type Options struct {
	// Do runs f on the UI goroutine; fyne.Do when nil. Tests queue f
	// and run it on the test goroutine.
	Do func(f func())
	// TimeText writes a time for people; local time, to the second, when
	// nil. Tests fix it so screenshots do not change.
	TimeText func(time.Time) string
	// Poll is how often the live view reads the engine; 50 ms when 0.
	// Updates reach the widgets at most every live.Interval anyway.
	Poll time.Duration
	// Recall and Remember read and store passwords in the keychain;
	// secret.Recall and secret.Remember when nil. Tests keep their own.
	Recall   func(host, user string) (string, error)
	Remember func(host, user, password string) error
	// StartRobot starts one robot process for a crawl of the database at
	// url (without its password; the process gets it another way);
	// startRobotProcess when nil. Tests start them in-process.
	StartRobot func(url, password string, crawlID int64) error
}

// UI is the main window and what it shows. Its fields belong to the UI
// goroutine.
type UI struct {
	app  fyne.App
	win  fyne.Window
	opts Options

	d       *db.DB
	crawl   int64 // crawl shown in Results, 0 for none
	name    string
	session *runner.Session // the crawl running, nil when none
	stats   *uiStats        // UI-goroutine timings, nil unless TRAWLER_UI_STATS=1

	resumeOffer *dialog.ConfirmDialog // asks to resume an interrupted crawl; nil when not shown

	mainMenu                        *fyne.MainMenu
	menuPause, menuResume, menuStop *fyne.MenuItem // enabled only for what the running crawl can do

	tabs     *container.AppTabs
	newCrawl *newCrawlScreen
	live     *liveScreen
	results  *resultsScreen
	crawls   *crawlsScreen
	changes  *changesScreen
	gateway  *gatewayScreen
	robots   *robotsScreen

	server struct{ url, password string } // the PostgreSQL server connected to; the password stays in memory

	pending atomic.Int64 // background reads whose results have not been shown yet
}

// Run opens the window on the database at dbPath (db.DefaultPath() when
// empty) and returns when it is closed: 0, or 1 when a crawl could not be
// stopped cleanly or the database not closed.
func Run(a fyne.App, dbPath string) int {
	a.SetIcon(assets.Icon)
	w := a.NewWindow("Trawler")
	w.SetMaster()
	opts := Options{}
	var stats *uiStats
	if os.Getenv("TRAWLER_UI_STATS") == "1" {
		stats = newUIStats(fyne.Do)
		opts.Do = stats.do
		defer stats.report(os.Stderr)
	}
	ui := New(a, w, nil, opts)
	ui.stats = stats
	w.Resize(WindowSize)
	w.CenterOnScreen()
	openErr := ui.openInitial(dbPath)
	if openErr != nil {
		w.Show()
		ui.showError(openErr)
	}
	if stats != nil {
		stop := stats.heartbeat()
		defer stop()
	}
	w.ShowAndRun()
	return ui.shutdown()
}

func (ui *UI) openInitial(path string) error {
	if path == "" {
		p, err := db.DefaultPath()
		if err != nil {
			return fmt.Errorf("find where to keep the database: %w", err)
		}
		path = p
	}
	if db.IsServerURL(path) {
		ui.connect(path, "", false)
		return nil
	}
	d, err := db.Open(path)
	if err != nil {
		return err
	}
	ui.SetDB(d)
	return nil
}

// New builds the window's content on w for the database d (nil for none
// yet). Run uses it; tests call it with a test window and options.
func New(a fyne.App, w fyne.Window, d *db.DB, opts Options) *UI {
	if opts.Do == nil {
		opts.Do = fyne.Do
	}
	if opts.TimeText == nil {
		opts.TimeText = localTime
	}
	if opts.Recall == nil {
		opts.Recall = secret.Recall
	}
	if opts.Remember == nil {
		opts.Remember = secret.Remember
	}
	if opts.StartRobot == nil {
		opts.StartRobot = startRobotProcess
	}
	if opts.Poll == 0 {
		opts.Poll = 50 * time.Millisecond
	}
	ui := &UI{app: a, win: w, opts: opts}
	ui.newCrawl = newNewCrawlScreen(ui)
	ui.live = newLiveScreen(ui)
	ui.results = newResultsScreen(ui)
	ui.crawls = newCrawlsScreen(ui)
	ui.changes = newChangesScreen(ui)
	ui.gateway = newGatewayScreen(ui)
	ui.robots = newRobotsScreen(ui)
	ui.tabs = container.NewAppTabs(
		container.NewTabItem("New crawl", ui.newCrawl.content),
		container.NewTabItem("Live", ui.live.content),
		container.NewTabItem("Results", ui.results.content),
		container.NewTabItem("Crawls", ui.crawls.content),
		container.NewTabItem("Changes", ui.changes.content),
		container.NewTabItem("Gateway", ui.gateway.content),
		container.NewTabItem("Robots", ui.robots.content),
	)
	ui.tabs.OnSelected = func(t *container.TabItem) {
		if t.Content == ui.gateway.content {
			ui.gateway.lists.reload()
		}
		ui.robots.follow(t.Content == ui.robots.content)
	}
	w.SetContent(ui.tabs)
	ui.installMenu()
	ui.installShortcuts()
	w.SetCloseIntercept(ui.requestClose)
	if d != nil {
		ui.SetDB(d)
	}
	ui.updateTitle()
	return ui
}

func localTime(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.Local().Format("2006-01-02 15:04:05")
}

// do runs f on the UI goroutine.
func (ui *UI) do(f func()) { ui.opts.Do(f) }

// background runs work on its own goroutine and then done with its result
// on the UI goroutine.
func background[T any](ui *UI, work func() (T, error), done func(T, error)) {
	ui.pending.Add(1)
	go func() {
		v, err := work()
		ui.do(func() {
			defer ui.pending.Add(-1)
			done(v, err)
		})
	}()
}

// showError shows err in a dialog; its text says what was being done and
// why it failed.
func (ui *UI) showError(err error) {
	if err != nil {
		dialog.ShowError(err, ui.win)
	}
}

// SetDB makes d the open database, closing the previous one. Callers make
// sure no crawl runs (File › Open database refuses then).
func (ui *UI) SetDB(d *db.DB) {
	if ui.d != d {
		ui.gateway.shutdown() // it reads the database being closed
	}
	if ui.d != nil && ui.d != d {
		if err := ui.d.Close(); err != nil {
			ui.showError(err)
		}
	}
	ui.d = d
	ui.server.url, ui.server.password = "", "" // connectDialog sets them for a server it opened
	ui.crawl, ui.name = 0, ""
	ui.results.setCrawl(0)
	ui.changes.setCrawl(0)
	ui.robots.reload()
	ui.crawls.reload()
	ui.updateTitle()
	ui.newCrawl.check() // Start depends on an open database
	if d != nil {
		ui.openLatest()
	}
}

// openCrawl shows crawl id in Results.
func (ui *UI) openCrawl(id int64, name string) {
	ui.crawl, ui.name = id, name
	ui.results.setCrawl(id)
	ui.changes.setCrawl(id)
	ui.robots.reload()
	ui.updateTitle()
}

func (ui *UI) updateTitle() {
	switch {
	case ui.name != "":
		ui.win.SetTitle(ui.name + " — Trawler")
	case ui.d != nil && ui.d.Postgres():
		ui.win.SetTitle(ui.d.Path() + " — Trawler")
	case ui.d != nil:
		ui.win.SetTitle(filepath.Base(ui.d.Path()) + " — Trawler")
	default:
		ui.win.SetTitle("Trawler")
	}
}

// running reports whether a crawl runs in this window.
func (ui *UI) running() bool { return ui.session != nil }

// shutdown closes the database after the window closed.
func (ui *UI) shutdown() int {
	code := 0
	ui.gateway.shutdown()
	ui.robots.follow(false)
	if ui.session != nil {
		ui.session.Stop()
		if err := ui.session.Wait(); err != nil {
			fmt.Fprintln(os.Stderr, "trawler:", err)
			code = 1
		}
	}
	if ui.d != nil {
		if err := ui.d.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "trawler:", err)
			code = 1
		}
		ui.d = nil
	}
	return code
}

// openLatest shows the database's most recent crawl in Results, as the
// command line picks it, and offers to resume it when it did not finish.
func (ui *UI) openLatest() {
	d := ui.d
	tab := ui.tabs.SelectedIndex() // a tab the user picks meanwhile stays picked
	type latest struct {
		c      db.CrawlInfo
		robots bool // robots work it now (PostgreSQL): it is not interrupted
	}
	background(ui, func() (latest, error) {
		ctx := context.Background()
		c, err := d.LatestCrawl(ctx)
		if err != nil {
			return latest{}, err
		}
		list, err := d.Robots(ctx, c.ID)
		return latest{c, err == nil && robot.OthersWorking(list, "", time.Now())}, nil
	}, func(l latest, err error) {
		if ui.d != d || ui.crawl != 0 || ui.running() {
			return // another database, crawl or run came first
		}
		if errors.Is(err, db.ErrNotFound) {
			return
		}
		if err != nil {
			ui.showError(fmt.Errorf("open the latest crawl: %w", err))
			return
		}
		ui.openCrawl(l.c.ID, l.c.Name)
		switch {
		case ui.tabs.SelectedIndex() != tab:
			if l.c.State != db.StateDone && !l.robots {
				ui.offerResume(l.c)
			}
		case l.robots:
			ui.tabs.SelectIndex(tabRobots)
		case l.c.State != db.StateDone:
			ui.tabs.SelectIndex(tabResults)
			ui.offerResume(l.c)
		default:
			ui.tabs.SelectIndex(tabResults)
		}
	})
}

// offerResume asks whether to go on with crawl c, which did not finish.
func (ui *UI) offerResume(c db.CrawlInfo) {
	msg := fmt.Sprintf("%q did not finish: %s pages stored, %s URLs still waiting.\nResume it now?",
		c.Name, humanize.Comma(c.Pages), humanize.Comma(c.URLs.Waiting))
	ui.resumeOffer = dialog.NewConfirm("Resume the interrupted crawl?", msg, func(ok bool) {
		ui.resumeOffer = nil
		if ok && ui.d != nil && !ui.running() {
			ui.crawls.resumeCrawl(c)
		}
	}, ui.win)
	ui.resumeOffer.SetConfirmText("Resume")
	ui.resumeOffer.SetDismissText("Not now")
	ui.resumeOffer.Show()
}
