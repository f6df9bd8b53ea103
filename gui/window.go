package gui

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/widget"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/db"
)

// The tabs, in order.
const (
	tabNewCrawl = iota
	tabLive
	tabResults
	tabCrawls
	tabChanges
	tabGateway
	tabRobots
)

// shortcut returns Ctrl (Cmd on macOS) + key.
func shortcut(key fyne.KeyName) *desktop.CustomShortcut {
	return &desktop.CustomShortcut{KeyName: key, Modifier: fyne.KeyModifierShortcutDefault}
}

// actions are the window's commands, shared by the menu and shortcuts.
func (ui *UI) actions() []struct {
	key fyne.KeyName
	run func()
} {
	return []struct {
		key fyne.KeyName
		run func()
	}{
		{fyne.KeyN, ui.showNewCrawl},
		{fyne.KeyO, ui.openDatabaseDialog},
		{fyne.KeyF, func() { ui.results.focusSearch() }},
		{fyne.KeyE, ui.exportDialog},
		{fyne.KeyW, ui.requestClose},
		{fyne.KeyReturn, ui.newCrawl.onStart},
		{fyne.Key1, func() { ui.tabs.SelectIndex(tabNewCrawl) }},
		{fyne.Key2, func() { ui.tabs.SelectIndex(tabLive) }},
		{fyne.Key3, func() { ui.tabs.SelectIndex(tabResults) }},
		{fyne.Key4, func() { ui.tabs.SelectIndex(tabCrawls) }},
		{fyne.Key5, func() { ui.tabs.SelectIndex(tabChanges) }},
		{fyne.Key6, func() { ui.tabs.SelectIndex(tabGateway) }},
		{fyne.Key7, func() { ui.tabs.SelectIndex(tabRobots) }},
	}
}

func (ui *UI) installMenu() {
	item := func(label string, key fyne.KeyName, run func()) *fyne.MenuItem {
		it := fyne.NewMenuItem(label, run)
		if key != "" {
			it.Shortcut = shortcut(key)
		}
		return it
	}
	quit := item("Close window", fyne.KeyW, ui.requestClose)
	quit.IsQuit = true
	file := fyne.NewMenu("File",
		item("New crawl", fyne.KeyN, ui.showNewCrawl),
		fyne.NewMenuItemSeparator(),
		item("Open database…", fyne.KeyO, ui.openDatabaseDialog),
		item("New database…", "", ui.newDatabaseDialog),
		item("Connect to server…", "", ui.connectDialog),
		fyne.NewMenuItemSeparator(),
		item("Export CSV…", fyne.KeyE, ui.exportDialog),
		fyne.NewMenuItemSeparator(),
		quit,
	)
	view := fyne.NewMenu("View",
		item("New crawl", fyne.Key1, func() { ui.tabs.SelectIndex(tabNewCrawl) }),
		item("Live crawl", fyne.Key2, func() { ui.tabs.SelectIndex(tabLive) }),
		item("Results", fyne.Key3, func() { ui.tabs.SelectIndex(tabResults) }),
		item("Crawls", fyne.Key4, func() { ui.tabs.SelectIndex(tabCrawls) }),
		item("Changes", fyne.Key5, func() { ui.tabs.SelectIndex(tabChanges) }),
		item("Gateway", fyne.Key6, func() { ui.tabs.SelectIndex(tabGateway) }),
		item("Robots", fyne.Key7, func() { ui.tabs.SelectIndex(tabRobots) }),
		fyne.NewMenuItemSeparator(),
		item("Search results", fyne.KeyF, func() { ui.results.focusSearch() }),
	)
	ui.menuPause, ui.menuResume, ui.menuStop = item("Pause", "", ui.pauseCrawl), item("Resume", "", ui.resumeCrawl),
		item("Stop", "", ui.stopCrawl)
	crawlMenu := fyne.NewMenu("Crawl",
		item("Start", fyne.KeyReturn, ui.newCrawl.onStart),
		fyne.NewMenuItemSeparator(),
		ui.menuPause, ui.menuResume, ui.menuStop,
	)
	ui.mainMenu = fyne.NewMainMenu(file, view, crawlMenu)
	ui.setCrawlMenu(crawl.StateIdle)
	ui.win.SetMainMenu(ui.mainMenu)
}

// setCrawlMenu enables the Crawl menu's Pause, Resume and Stop as the
// Live screen's buttons are: only for what the running crawl can do.
func (ui *UI) setCrawlMenu(state crawl.RunState) {
	if ui.menuPause == nil {
		return
	}
	pause, resume := state == crawl.StateRunning, state == crawl.StatePaused
	stop := pause || resume
	if ui.menuPause.Disabled == !pause && ui.menuResume.Disabled == !resume && ui.menuStop.Disabled == !stop {
		return
	}
	ui.menuPause.Disabled, ui.menuResume.Disabled, ui.menuStop.Disabled = !pause, !resume, !stop
	ui.mainMenu.Refresh()
}

// installShortcuts adds the shortcuts to the canvas too: the main menu
// catches them first on desktop, the canvas where there is no menu.
func (ui *UI) installShortcuts() {
	for _, a := range ui.actions() {
		run := a.run
		ui.win.Canvas().AddShortcut(shortcut(a.key), func(fyne.Shortcut) { run() })
	}
}

func (ui *UI) showNewCrawl() {
	ui.tabs.SelectIndex(tabNewCrawl)
	ui.newCrawl.focus()
}

// requestClose closes the window; during a crawl it asks first, then
// stops the crawl, waits for the engine to return and its state to be
// stored, and closes.
func (ui *UI) requestClose() {
	if ui.session == nil {
		ui.closeNow()
		return
	}
	dialog.ShowConfirm("A crawl is running",
		"Stop the crawl and close Trawler?\nFetches in flight finish and are stored; resume it later from Crawls.",
		func(yes bool) {
			if yes {
				ui.stopAndClose()
			}
		}, ui.win)
}

func (ui *UI) stopAndClose() {
	sess := ui.session
	if sess == nil {
		ui.closeNow()
		return
	}
	msg := widget.NewLabel("Finishing the fetches in flight and storing the crawl…")
	bar := widget.NewProgressBarInfinite()
	dialog.NewCustomWithoutButtons("Stopping the crawl", container.NewVBox(msg, bar), ui.win).Show()
	sess.Stop()
	background(ui, func() (struct{}, error) {
		return struct{}{}, sess.Wait()
	}, func(_ struct{}, err error) {
		if err != nil {
			fyne.LogError("stop the crawl", err)
		}
		ui.session = nil
		ui.closeNow()
	})
}

// closeNow closes the database and the window.
func (ui *UI) closeNow() {
	ui.results.close()
	if ui.d != nil {
		if err := ui.d.Close(); err != nil {
			fyne.LogError("close the database", err)
		}
		ui.d = nil
	}
	ui.win.Close()
}

func (ui *UI) openDatabaseDialog() {
	if ui.session != nil {
		ui.showError(errors.New("open database: a crawl is running; stop it first"))
		return
	}
	dlg := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil {
			ui.showError(fmt.Errorf("choose a database: %w", err))
			return
		}
		if r == nil {
			return
		}
		path := r.URI().Path()
		_ = r.Close()
		ui.openDatabase(path)
	}, ui.win)
	dlg.SetFilter(storage.NewExtensionFileFilter([]string{".db", ".sqlite", ".sqlite3"}))
	ui.startIn(dlg)
	dlg.Show()
}

func (ui *UI) newDatabaseDialog() {
	if ui.session != nil {
		ui.showError(errors.New("new database: a crawl is running; stop it first"))
		return
	}
	dlg := dialog.NewFileSave(func(w fyne.URIWriteCloser, err error) {
		if err != nil {
			ui.showError(fmt.Errorf("choose where to create the database: %w", err))
			return
		}
		if w == nil {
			return
		}
		path := w.URI().Path()
		_ = w.Close() // an empty file: db.Open makes it a database
		ui.openDatabase(path)
	}, ui.win)
	dlg.SetFileName("crawls.db")
	ui.startIn(dlg)
	dlg.Show()
}

// startIn opens a file dialog in the open database's folder.
func (ui *UI) startIn(dlg *dialog.FileDialog) {
	if ui.d == nil {
		return
	}
	dir, err := storage.ListerForURI(storage.NewFileURI(filepath.Dir(ui.d.Path())))
	if err == nil {
		dlg.SetLocation(dir)
	}
}

// openDatabase switches the window to the database at path.
func (ui *UI) openDatabase(path string) {
	if ui.session != nil {
		return
	}
	if !strings.HasSuffix(path, ".db") && !strings.Contains(filepath.Base(path), ".") {
		path += ".db"
	}
	background(ui, func() (*db.DB, error) {
		return db.Open(path)
	}, func(d *db.DB, err error) {
		if err != nil {
			ui.showError(err)
			return
		}
		ui.SetDB(d)
		ui.newCrawl.check()
		ui.tabs.SelectIndex(tabCrawls)
	})
}
