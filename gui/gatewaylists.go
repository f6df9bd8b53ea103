package gui

import (
	"bufio"
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/trawler/trawler/db"
	"github.com/trawler/trawler/urlfilter"
)

// listsPane is the Gateway screen's right side: the black and white
// lists to edit, the "this is a mistake" reports to review, and the word
// lists the open crawl is judged by.
type listsPane struct {
	ui      *UI
	content fyne.CanvasObject

	entries  []db.ListEntry
	table    *widget.Table
	selected int
	count    *widget.Label
	remove   *widget.Button

	reports       []db.MistakeReport
	reportTable   *widget.Table
	report        int
	allow, solved *widget.Button

	words *widget.Label
}

var (
	entryColumns  = []textColumn{{"List", 60}, {"Kind", 60}, {"Entry", 280}, {"Category", 90}, {"Source", 70}}
	reportColumns = []textColumn{{"When", 140}, {"URL", 260}, {"Entry", 160}, {"Client", 100}, {"Comment", 200}}
)

func newListsPane(ui *UI) *listsPane {
	p := &listsPane{ui: ui, selected: -1, report: -1}
	p.table = textTable(entryColumns, fyne.TextTruncateEllipsis, func() int { return len(p.entries) },
		func(row, col int) string { return entryCell(p.entries[row], col) })
	p.table.OnSelected = func(id widget.TableCellID) { p.selected = id.Row; p.remove.Enable() }
	p.count = widget.NewLabel("")
	add := widget.NewButtonWithIcon("Add…", theme.ContentAddIcon(), p.onAdd)
	p.remove = widget.NewButtonWithIcon("Remove", theme.ContentRemoveIcon(), p.onRemove)
	p.remove.Disable()
	imp := widget.NewButtonWithIcon("Import…", theme.FolderOpenIcon(), p.onImport)
	exp := widget.NewButtonWithIcon("Export…", theme.DocumentSaveIcon(), p.onExport)
	refresh := widget.NewButtonWithIcon("", theme.ViewRefreshIcon(), p.reload)
	listsTab := container.NewBorder(container.NewHBox(add, p.remove, imp, exp, refresh, p.count), nil, nil, nil, p.table)

	p.reportTable = textTable(reportColumns, fyne.TextTruncateEllipsis, func() int { return len(p.reports) },
		func(row, col int) string { return p.reportCell(p.reports[row], col) })
	p.reportTable.OnSelected = func(id widget.TableCellID) { p.report = id.Row; p.allow.Enable(); p.solved.Enable() }
	p.allow = widget.NewButtonWithIcon("Allow this URL", theme.ConfirmIcon(), p.onAllow)
	p.solved = widget.NewButtonWithIcon("Dismiss", theme.CancelIcon(), func() { p.resolve(false) })
	p.allow.Disable()
	p.solved.Disable()
	reportsTab := container.NewBorder(container.NewVBox(
		caption(`What people behind the gateway reported with "this is a mistake" on a block page.`),
		container.NewHBox(p.allow, p.solved, widget.NewButtonWithIcon("", theme.ViewRefreshIcon(), p.reload))),
		nil, nil, nil, p.reportTable)

	p.words = widget.NewLabel("")
	p.words.Wrapping = fyne.TextWrapWord
	judge := widget.NewButtonWithIcon("Judge the pages again…", theme.VisibilityIcon(), ui.judgeDialog)
	wordsTab := container.NewVBox(p.words, judge)

	p.content = container.NewAppTabs(container.NewTabItem("Lists", listsTab), container.NewTabItem("Reports", reportsTab),
		container.NewTabItem("Word lists", wordsTab))
	return p
}

func entryCell(e db.ListEntry, col int) string {
	switch col {
	case 0:
		return e.List.String()
	case 1:
		return e.Kind.String()
	case 2:
		return e.Value
	case 3:
		return e.Category
	case 4:
		return e.Source
	}
	return ""
}

func (p *listsPane) reportCell(r db.MistakeReport, col int) string {
	switch col {
	case 0:
		return p.ui.opts.TimeText(r.At)
	case 1:
		return r.URL
	case 2:
		return r.List + " " + r.Entry
	case 3:
		return r.Client
	case 4:
		return r.Comment
	}
	return ""
}

// listsView is what the pane shows, read off the UI goroutine.
type listsView struct {
	entries []db.ListEntry
	reports []db.MistakeReport
	words   string
}

// reload reads the lists, the open reports and the crawl's word lists.
func (p *listsPane) reload() {
	d, id := p.ui.d, p.ui.crawl
	if d == nil {
		return
	}
	background(p.ui, func() (listsView, error) { return readListsView(d, id) }, func(v listsView, err error) {
		if err != nil {
			p.ui.showError(err)
			return
		}
		p.entries, p.reports, p.selected, p.report = v.entries, v.reports, -1, -1
		p.table.UnselectAll()
		p.reportTable.UnselectAll()
		p.remove.Disable()
		p.allow.Disable()
		p.solved.Disable()
		p.table.Refresh()
		p.reportTable.Refresh()
		p.count.SetText(fmt.Sprintf("%d entries", len(v.entries)))
		p.words.SetText(v.words)
	})
}

func readListsView(d *db.DB, id int64) (listsView, error) {
	ctx := context.Background()
	var v listsView
	if err := d.ListEntries(ctx, urlfilter.None, func(e db.ListEntry) error {
		v.entries = append(v.entries, e)
		return nil
	}); err != nil {
		return v, err
	}
	var err error
	if v.reports, err = d.Reports(ctx, true, 500); err != nil {
		return v, err
	}
	v.words = "No crawl is open: the gateway decides by the lists' entries alone."
	if id == 0 {
		return v, nil
	}
	cfg, err := d.Settings(ctx, id)
	if err != nil {
		return v, err
	}
	counts, err := d.VerdictCounts(ctx, id)
	if err != nil {
		return v, err
	}
	if len(cfg.WordLists) == 0 {
		v.words = "The open crawl has no word lists, so its pages have no verdicts: name some in New crawl › Advanced, or judge its pages now."
		return v, nil
	}
	v.words = fmt.Sprintf("The open crawl's pages are judged by:\n  %s\n\n%d black, %d grey and %d white pages; black ones are on the black list, white and grey ones on the white list (grey under the category \"grey\").",
		strings.Join(cfg.WordLists, "\n  "), counts["black"], counts["grey"], counts["white"])
	return v, nil
}

// listChoice asks which list.
func listChoice() *widget.RadioGroup {
	r := widget.NewRadioGroup([]string{"black", "white"}, nil)
	r.Horizontal, r.Required = true, true
	r.SetSelected("black")
	return r
}

func (p *listsPane) onAdd() {
	list := listChoice()
	entries := widget.NewMultiLineEntry()
	entries.PlaceHolder = "one per line: example.org (and its subdomains), example.org/forum, or http://example.org/page"
	entries.SetMinRowsVisible(4)
	category := widget.NewEntry()
	category.PlaceHolder = "optional, e.g. gambling"
	body := container.NewVBox(list, entries, widget.NewLabel("Category"), category)
	dlg := dialog.NewCustomConfirm("Add to a list", "Add", "Cancel", body, func(ok bool) {
		if !ok {
			return
		}
		l, _ := urlfilter.ParseList(list.Selected)
		es, err := urlfilter.ReadEntries("the entries", strings.NewReader(entries.Text), l, strings.TrimSpace(category.Text))
		if err != nil {
			p.ui.showError(err)
			return
		}
		p.store(func(d *db.DB) error {
			_, err := d.AddListEntries(context.Background(), db.SourceManual, "", es)
			return err
		})
	}, p.ui.win)
	dlg.Resize(fyne.NewSize(560, 320))
	dlg.Show()
}

// store runs a change of the lists off the UI goroutine, then reloads;
// a running gateway reloads by itself.
func (p *listsPane) store(change func(*db.DB) error) {
	d := p.ui.d
	if d == nil {
		return
	}
	background(p.ui, func() (struct{}, error) { return struct{}{}, change(d) }, func(_ struct{}, err error) {
		if err != nil {
			p.ui.showError(err)
		}
		p.reload()
	})
}

func (p *listsPane) onRemove() {
	if p.selected < 0 || p.selected >= len(p.entries) {
		return
	}
	e := p.entries[p.selected].Entry
	p.store(func(d *db.DB) error {
		_, err := d.RemoveListEntries(context.Background(), []urlfilter.Entry{e})
		return err
	})
}

func (p *listsPane) onImport() {
	list := listChoice()
	dialog.ShowCustomConfirm("Import a list file", "Choose file…", "Cancel", list, func(ok bool) {
		if !ok {
			return
		}
		l, _ := urlfilter.ParseList(list.Selected)
		dialog.ShowFileOpen(func(r fyne.URIReadCloser, err error) {
			if err != nil || r == nil {
				return
			}
			p.store(func(d *db.DB) error {
				defer r.Close()
				es, err := urlfilter.ReadEntries(r.URI().Name(), r, l, "")
				if err != nil {
					return fmt.Errorf("nothing imported: %w", err)
				}
				_, err = d.AddListEntries(context.Background(), db.SourceImport, "", es)
				return err
			})
		}, p.ui.win)
	}, p.ui.win)
}

func (p *listsPane) onExport() {
	id := p.ui.crawl
	dialog.ShowFileSave(func(w fyne.URIWriteCloser, err error) {
		if err != nil || w == nil {
			return
		}
		p.store(func(d *db.DB) error {
			bw := bufio.NewWriter(w)
			err := d.ExportLists(context.Background(), bw, urlfilter.None, id)
			if ferr := bw.Flush(); err == nil {
				err = ferr
			}
			if cerr := w.Close(); err == nil {
				err = cerr
			}
			return err
		})
	}, p.ui.win)
}

// onAllow puts a reported URL on the white list and closes the report.
func (p *listsPane) onAllow() { p.resolve(true) }

func (p *listsPane) resolve(allow bool) {
	if p.report < 0 || p.report >= len(p.reports) {
		return
	}
	r := p.reports[p.report]
	p.store(func(d *db.DB) error {
		if allow {
			e, err := urlfilter.ParseEntry(urlfilter.White, r.URL)
			if err != nil {
				return err
			}
			if _, err := d.AddListEntries(context.Background(), db.SourceManual, "reported as a mistake", []urlfilter.Entry{e}); err != nil {
				return err
			}
		}
		return d.ResolveReport(context.Background(), r.ID)
	})
}
