package gui

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/widget"
	"github.com/dustin/go-humanize"

	"github.com/trawler/trawler/db"
	"github.com/trawler/trawler/gui/browse"
	"github.com/trawler/trawler/gui/format"
	"github.com/trawler/trawler/gui/live"
)

// Export scopes offered by the export dialog.
const (
	exportView  = "The current view (filters, search and sort applied)"
	exportWhole = "The whole crawl"
	exportSkips = "The skipped URLs, with why (robots.txt, scope, depth, …)"
)

// exportDialog asks what to export, then where, then writes the CSV.
func (ui *UI) exportDialog() {
	if ui.d == nil || ui.crawl == 0 {
		ui.showError(errors.New("export: no crawl is open; open one in Crawls first"))
		return
	}
	scope := widget.NewRadioGroup([]string{exportView, exportWhole, exportSkips}, nil)
	scope.Required = true
	scope.SetSelected(exportView)
	bom := widget.NewCheck("UTF-8 byte-order mark (for Excel on Windows)", nil)
	bom.SetChecked(true)
	dialog.ShowCustomConfirm("Export pages as CSV", "Choose file…", "Cancel", container.NewVBox(scope, bom), func(ok bool) {
		if !ok {
			return
		}
		q := ui.exportQuery(scope.Selected)
		save := dialog.NewFileSave(func(w fyne.URIWriteCloser, err error) {
			if err != nil {
				ui.showError(fmt.Errorf("choose where to export: %w", err))
				return
			}
			if w == nil {
				return // cancelled
			}
			ui.exportTo(w, q, bom.Checked, nil)
		}, ui.win)
		save.SetFileName(exportName(ui.name))
		save.SetFilter(storage.NewExtensionFileFilter([]string{".csv"}))
		save.Show()
	}, ui.win)
}

// exportQuery is the listing to export for a choice of the dialog: what
// Results shows, every page, or the skipped URLs.
func (ui *UI) exportQuery(choice string) db.PageQuery {
	switch choice {
	case exportWhole:
		return db.PageQuery{Crawl: ui.crawl}
	case exportSkips:
		return db.PageQuery{Crawl: ui.crawl, Skipped: true}
	}
	return ui.results.rows.Query()
}

func exportName(crawl string) string {
	name := strings.Map(func(r rune) rune {
		if strings.ContainsRune(`/\:*?"<>| `, r) {
			return '-'
		}
		return r
	}, crawl)
	if name == "" {
		name = "trawler"
	}
	return name + "-pages.csv"
}

// exportTo writes the pages q selects to w, after a byte-order mark when
// bom is set, with a progress dialog, closes w, and reports the outcome;
// done, if not nil, is called after (on the UI goroutine) with the rows
// written.
func (ui *UI) exportTo(w io.WriteCloser, q db.PageQuery, bom bool, done func(int, error)) {
	ctx, cancel := context.WithCancel(context.Background())
	bar := widget.NewProgressBar()
	text := widget.NewLabel("Counting the pages…")
	cancelBtn := widget.NewButton("Cancel", cancel)
	dlg := dialog.NewCustomWithoutButtons("Exporting CSV", container.NewVBox(text, bar, cancelBtn), ui.win)
	dlg.Resize(fyne.NewSize(420, 160))
	dlg.Show()
	throttle := live.NewThrottle(live.Interval, nil)
	progress := func(n, total int) {
		if n != 0 && n != total && !throttle.Allow() {
			return
		}
		ui.do(func() {
			if total > 0 {
				bar.SetValue(float64(n) / float64(total))
			}
			text.SetText(fmt.Sprintf("%s of %s written", humanize.Comma(int64(n)), format.Count(int64(total), "row", "rows")))
		})
	}
	d := ui.d
	background(ui, func() (int, error) {
		bw := bufio.NewWriterSize(w, 1<<16)
		if bom {
			_ = db.WriteBOM(bw) // a buffered write; Flush reports a failure
		}
		n, err := browse.Export(ctx, d, bw, q, progress)
		err = errors.Join(err, bw.Flush(), w.Close())
		return n, err
	}, func(n int, err error) {
		cancel()
		dlg.Hide()
		switch {
		case errors.Is(err, context.Canceled):
			dialog.ShowInformation("Export cancelled", "The file holds only part of the pages.", ui.win)
		case err != nil:
			ui.showError(fmt.Errorf("export CSV: %w", err))
		default:
			dialog.ShowInformation("Export finished", fmt.Sprintf("%s written to %s.", format.Count(int64(n), "row", "rows"), uriName(w)), ui.win)
		}
		if done != nil {
			done(n, err)
		}
	})
}

// uriName names where a writer goes, for the message after export.
func uriName(w io.WriteCloser) string {
	if u, ok := w.(fyne.URIWriteCloser); ok {
		return u.URI().Path()
	}
	return "the file"
}
