package gui

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/dustin/go-humanize"

	"github.com/trawler/trawler/db"
	"github.com/trawler/trawler/gui/form"
	"github.com/trawler/trawler/gui/runner"
)

// crawlsScreen lists the crawls of the open database and acts on one:
// open, resume, rename, delete, or reuse its settings.
type crawlsScreen struct {
	ui      *UI
	content fyne.CanvasObject
	empty   fyne.CanvasObject
	body    fyne.CanvasObject

	path                                *widget.Label
	list                                []db.CrawlInfo
	table                               *widget.Table
	selected                            int  // index in list, -1 for none
	loaded                              bool // the list has been read at least once
	gen                                 int  // counts reloads: only the latest one's list is shown
	open, resume, rename, remove, reuse *widget.Button
	recrawl                             *widget.Button
}

var crawlColumns = []textColumn{
	{"Name", 200}, {"Seeds", 260}, {"State", 80}, {"Started", 170},
	{"Pages", 80}, {"Errors", 70}, {"Waiting", 80}, {"Read", 90},
}

func newCrawlsScreen(ui *UI) *crawlsScreen {
	s := &crawlsScreen{ui: ui, selected: -1}
	s.path = widget.NewLabel("")
	s.path.Truncation = fyne.TextTruncateEllipsis
	s.table = textTable(crawlColumns, fyne.TextTruncateEllipsis, func() int { return len(s.list) },
		func(row, col int) string { return s.cell(s.list[row], col) })
	s.table.OnSelected = func(id widget.TableCellID) { s.selected = id.Row; s.setButtons() }
	s.table.OnUnselected = func(widget.TableCellID) { s.selected = -1; s.setButtons() }
	s.open = widget.NewButtonWithIcon("Open", theme.FolderOpenIcon(), s.onOpen)
	s.resume = widget.NewButtonWithIcon("Resume", theme.MediaPlayIcon(), s.onResume)
	s.recrawl = widget.NewButtonWithIcon("Re-crawl…", theme.MediaReplayIcon(), s.onRecrawl)
	s.rename = widget.NewButtonWithIcon("Rename…", theme.DocumentCreateIcon(), s.onRename)
	s.remove = widget.NewButtonWithIcon("Delete…", theme.DeleteIcon(), s.onDelete)
	s.reuse = widget.NewButtonWithIcon("Use its settings", theme.ContentCopyIcon(), s.onReuse)
	refresh := widget.NewButtonWithIcon("Refresh", theme.ViewRefreshIcon(), s.reload)
	s.setButtons()

	actions := container.NewHBox(s.open, s.resume, s.recrawl, s.reuse, s.rename, s.remove, refresh)
	head := container.NewBorder(nil, nil, heading("Crawls"), actions, s.path)
	s.empty = emptyState("No crawls in this database yet",
		"Start one in New crawl (Ctrl+N), or open another database with File › Open database (Ctrl+O).")
	s.body = s.table
	s.body.Hide()
	s.empty.Hide() // until the list is read
	s.content = container.NewPadded(container.NewBorder(head, nil, nil, nil, container.NewStack(s.empty, s.body)))
	return s
}

func (s *crawlsScreen) cell(c db.CrawlInfo, col int) string {
	switch col {
	case 0:
		return c.Name
	case 1:
		return strings.Join(c.Seeds, " ")
	case 2:
		if s.ui.session != nil && s.ui.session.ID == c.ID {
			return "running here"
		}
		return c.State
	case 3:
		return s.ui.opts.TimeText(c.StartedAt)
	case 4:
		return humanize.Comma(c.Pages)
	case 5:
		return humanize.Comma(c.URLs.Error)
	case 6:
		return humanize.Comma(c.URLs.Waiting)
	case 7:
		return humanize.IBytes(uint64(max(0, c.Bytes)))
	}
	return ""
}

// reload reads the list of crawls again.
func (s *crawlsScreen) reload() {
	d := s.ui.d
	if d == nil {
		s.path.SetText("No database open")
		s.show(nil)
		return
	}
	s.path.SetText("Database: " + d.Path())
	s.gen++
	gen := s.gen
	background(s.ui, func() ([]db.CrawlInfo, error) {
		return d.Crawls(context.Background())
	}, func(list []db.CrawlInfo, err error) {
		if d != s.ui.d || gen != s.gen { // a crawl's end may be read before its start comes back
			return
		}
		if err != nil {
			s.ui.showError(fmt.Errorf("list the crawls: %w", err))
			return
		}
		s.show(list)
	})
}

func (s *crawlsScreen) show(list []db.CrawlInfo) {
	s.list, s.loaded = list, true
	s.selected = -1
	s.table.UnselectAll()
	s.table.Refresh()
	if len(list) == 0 {
		s.body.Hide()
		s.empty.Show()
	} else {
		s.empty.Hide()
		s.body.Show()
	}
	s.setButtons()
}

func (s *crawlsScreen) current() (db.CrawlInfo, bool) {
	if s.selected < 0 || s.selected >= len(s.list) {
		return db.CrawlInfo{}, false
	}
	return s.list[s.selected], true
}

func (s *crawlsScreen) setButtons() {
	c, ok := s.current()
	busy := ok && s.ui.session != nil && s.ui.session.ID == c.ID
	for _, b := range []*widget.Button{s.open, s.rename, s.reuse} {
		setEnabled(b, ok)
	}
	setEnabled(s.remove, ok && !busy)
	setEnabled(s.resume, ok && c.State != db.StateDone && s.ui.session == nil)
	setEnabled(s.recrawl, ok && c.State == db.StateDone && s.ui.session == nil)
}

func setEnabled(b *widget.Button, on bool) {
	if on {
		b.Enable()
	} else {
		b.Disable()
	}
}

func (s *crawlsScreen) onOpen() {
	if c, ok := s.current(); ok {
		s.ui.openCrawl(c.ID, c.Name)
		s.ui.tabs.SelectIndex(tabResults)
	}
}

func (s *crawlsScreen) onResume() {
	if c, ok := s.current(); ok {
		s.resumeCrawl(c)
	}
}

// resumeCrawl continues crawl c, asking for the passwords its settings need.
func (s *crawlsScreen) resumeCrawl(c db.CrawlInfo) {
	if s.ui.session != nil {
		return
	}
	cfg, err := s.ui.d.Settings(context.Background(), c.ID)
	if err != nil {
		s.ui.showError(fmt.Errorf("read the settings of %q: %w", c.Name, err))
		return
	}
	s.ui.withPasswords("Passwords for "+c.Name, "Resume", cfg, func(get passwordSource) {
		s.resumeWith(c, get)
	})
}

func (s *crawlsScreen) resumeWith(c db.CrawlInfo, get passwordSource) {
	if s.ui.session != nil {
		return
	}
	sess, err := runner.Resume(s.ui.d, c.ID, get)
	if err != nil {
		s.ui.showError(fmt.Errorf("resume crawl %q: %w", c.Name, err))
		return
	}
	s.ui.follow(sess)
}

func (s *crawlsScreen) onReuse() {
	c, ok := s.current()
	if !ok {
		return
	}
	cfg, err := s.ui.d.Settings(context.Background(), c.ID)
	if err != nil {
		s.ui.showError(fmt.Errorf("read the settings of %q: %w", c.Name, err))
		return
	}
	s.ui.newCrawl.fill(form.FromConfig(cfg, ""))
	s.ui.tabs.SelectIndex(tabNewCrawl)
}

func (s *crawlsScreen) onRename() {
	c, ok := s.current()
	if !ok {
		return
	}
	e := widget.NewEntry()
	e.SetText(c.Name)
	var form *dialog.FormDialog
	form = dialog.NewForm("Rename crawl", "Rename", "Cancel", []*widget.FormItem{widget.NewFormItem("Name", e)}, func(yes bool) {
		name := strings.TrimSpace(e.Text)
		if !yes || name == "" {
			return
		}
		if err := s.ui.d.Rename(context.Background(), c.ID, name); err != nil {
			s.ui.showError(fmt.Errorf("rename crawl %q: %w", c.Name, err))
			return
		}
		if s.ui.crawl == c.ID {
			s.ui.name = name
			s.ui.updateTitle()
		}
		s.reload()
	}, s.ui.win)
	e.OnSubmitted = func(string) { form.Submit() }
	form.Resize(fyne.NewSize(460, 0))
	form.Show()
	s.ui.win.Canvas().Focus(e)
}

func (s *crawlsScreen) onDelete() {
	c, ok := s.current()
	if !ok {
		return
	}
	msg := fmt.Sprintf("Delete %q and its %s pages from this database?\nThis cannot be undone.", c.Name, humanize.Comma(c.Pages))
	dialog.ShowConfirm("Delete crawl", msg, func(yes bool) {
		if yes {
			s.deleteCrawl(c)
		}
	}, s.ui.win)
}

func (s *crawlsScreen) deleteCrawl(c db.CrawlInfo) {
	d := s.ui.d
	background(s.ui, func() (struct{}, error) {
		return struct{}{}, d.DeleteCrawl(context.Background(), c.ID)
	}, func(_ struct{}, err error) {
		if err != nil {
			s.ui.showError(fmt.Errorf("delete crawl %q: %w", c.Name, err))
			return
		}
		if s.ui.crawl == c.ID {
			s.ui.openCrawl(0, "")
		}
		s.reload()
	})
}

// onRecrawl visits a finished crawl again (a new cycle), asking first
// whether to visit every page or only those the revisit schedule says are
// due; Changes then shows what the cycle found.
func (s *crawlsScreen) onRecrawl() {
	c, ok := s.current()
	if !ok || s.ui.session != nil {
		return
	}
	due := widget.NewCheck("only the pages the revisit schedule says are due", nil)
	msg := widget.NewLabel(fmt.Sprintf("Visit the pages of %q again and record what changed?", c.Name))
	dialog.ShowCustomConfirm("Re-crawl", "Re-crawl", "Cancel", container.NewVBox(msg, due), func(yes bool) {
		if yes {
			s.recrawlWith(c, due.Checked)
		}
	}, s.ui.win)
}

func (s *crawlsScreen) recrawlWith(c db.CrawlInfo, dueOnly bool) {
	cfg, err := s.ui.d.Settings(context.Background(), c.ID)
	if err != nil {
		s.ui.showError(fmt.Errorf("read the settings of %q: %w", c.Name, err))
		return
	}
	s.ui.withPasswords("Passwords for "+c.Name, "Re-crawl", cfg, func(get passwordSource) {
		if s.ui.session != nil {
			return
		}
		sess, _, err := runner.Recrawl(s.ui.d, c.ID, dueOnly, get)
		if err != nil {
			s.ui.showError(fmt.Errorf("re-crawl %q: %w", c.Name, err))
			s.reload()
			return
		}
		s.ui.follow(sess)
	})
}
