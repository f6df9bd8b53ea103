package gui

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/db"
)

// judgeResult is what judging a crawl's pages again gave.
type judgeResult struct {
	counts crawl.ScoreCounts
	terms  int
}

// judgeDialog asks for the word lists to judge the open crawl's pages by
// (those the crawl has, to start with) and judges them again from their
// stored text, fetching nothing: `trawler verdicts` in the window.
func (ui *UI) judgeDialog() {
	if ui.d == nil || ui.crawl == 0 {
		ui.showError(fmt.Errorf("open a crawl first (Crawls › Open)"))
		return
	}
	d, id := ui.d, ui.crawl
	paths := widget.NewMultiLineEntry()
	paths.PlaceHolder = "one word-list file per line"
	paths.SetMinRowsVisible(4)
	add := widget.NewButtonWithIcon("Add a file…", theme.FolderOpenIcon(), func() {
		fd := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
			if err != nil || r == nil {
				return
			}
			r.Close()
			paths.SetText(strings.TrimSpace(paths.Text + "\n" + r.URI().Path()))
		}, ui.win)
		fd.Show()
	})
	background(ui, func() (crawl.Config, error) { return d.Settings(context.Background(), id) },
		func(c crawl.Config, err error) {
			if err == nil && paths.Text == "" {
				paths.SetText(strings.Join(c.WordLists, "\n"))
			}
		})
	help := caption("A page is black when the weights of the distinct listed words of one category that it holds " +
		"reach that category's threshold, white when it holds none, grey otherwise. Lines: term, weight, category; " +
		"@category NAME; @threshold [CATEGORY] N; # comments.")
	body := container.NewVBox(help, paths, add)
	dlg := dialog.NewCustomConfirm("Judge the pages again", "Judge", "Cancel", body, func(ok bool) {
		if !ok {
			return
		}
		var list []string
		for _, l := range strings.Split(paths.Text, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				list = append(list, l)
			}
		}
		ui.judge(d, id, list)
	}, ui.win)
	dlg.Resize(fyne.NewSize(640, 360))
	dlg.Show()
}

// judge scores crawl id's stored pages by the lists at paths, then says
// how many are black, grey and white and refreshes Results.
func (ui *UI) judge(d *db.DB, id int64, paths []string) {
	if len(paths) == 0 {
		ui.showError(fmt.Errorf("name at least one word-list file"))
		return
	}
	busy := dialog.NewCustomWithoutButtons("Judging…", widget.NewProgressBarInfinite(), ui.win)
	busy.Show()
	background(ui, func() (judgeResult, error) {
		return judgeCrawl(context.Background(), d, id, paths)
	}, func(r judgeResult, err error) {
		busy.Hide()
		if err != nil {
			ui.showError(err)
			return
		}
		dialog.ShowInformation("Pages judged", fmt.Sprintf("%d pages judged by %d terms: %d black, %d grey, %d white.",
			r.counts.Total(), r.terms, r.counts.Black, r.counts.Grey, r.counts.White), ui.win)
		if ui.d == d && ui.crawl == id {
			ui.results.refresh()
		}
	})
}

// judgeCrawl gives the crawl the lists at paths and judges every page.
func judgeCrawl(ctx context.Context, d *db.DB, id int64, paths []string) (judgeResult, error) {
	for i, p := range paths {
		if abs, err := filepath.Abs(p); err == nil {
			paths[i] = abs
		}
	}
	sc, err := crawl.LoadWordLists(paths)
	if err != nil {
		return judgeResult{}, err
	}
	if err := d.SetWordLists(ctx, id, paths); err != nil {
		return judgeResult{}, err
	}
	if _, err := d.Rescore(ctx, id); err != nil {
		return judgeResult{}, err
	}
	c, err := crawl.Score(ctx, d.Crawl(id), sc, nil)
	return judgeResult{counts: c, terms: sc.NumTerms()}, err
}
