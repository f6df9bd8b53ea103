package gui

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/dustin/go-humanize"

	"github.com/trawler/trawler/db"
	"github.com/trawler/trawler/gui/browse"
	"github.com/trawler/trawler/gui/format"
)

// resultsScreen browses the pages of one crawl: a virtual table that reads
// SQLite a block at a time, filters, full-text search, and the detail of
// the selected page.
type resultsScreen struct {
	ui      *UI
	content fyne.CanvasObject
	noCrawl fyne.CanvasObject
	body    fyne.CanvasObject

	rows     *browse.Rows
	table    *widget.Table
	columns  []column
	sort     db.SortKey
	desc     bool
	selected int64 // page shown in the detail pane

	search                   *widget.Entry
	searchErr                *widget.Label
	status, ctype, host, dep *widget.Select
	verdict                  *widget.Select
	near                     *widget.Check
	facets                   browse.Facets
	count                    *widget.Label
	noRows                   fyne.CanvasObject
	export, judge            *widget.Button
	detail                   *detailPane
	setting                  bool  // filters are being reset: no queries
	facetsFor                int64 // crawl whose filter values are loaded or loading
	refreshes                int
	typing                   *time.Timer // waits for typing in the search box to pause
	split                    *container.Split
	widths                   map[string]float32 // column widths the user dragged, by title
	saveWidths               *time.Timer        // saves widths once dragging pauses
	dragging                 bool               // the user drags a column's edge
	queries                  int                // listings asked for, for tests
}

const (
	anyType  = "Any type"
	anyHost  = "Any host"
	anyDepth = "Any depth"
)

func newResultsScreen(ui *UI) *resultsScreen {
	s := &resultsScreen{ui: ui}
	s.rows = browse.NewRows(nil, ui.do, s.rowsChanged, s.rowsFailed)
	s.search = widget.NewEntry()
	s.search.PlaceHolder = `Search titles, text and URLs (Ctrl+F): words or "a phrase"; start with fts: for FTS5 syntax`
	s.search.OnChanged = func(string) { s.searchSoon() }
	s.search.OnSubmitted = func(string) { s.searchNow() }
	s.searchErr = widget.NewLabel("")
	s.searchErr.Importance = widget.DangerImportance
	s.searchErr.Hide()
	s.status = widget.NewSelect(browse.StatusChoices, func(string) { s.query() })
	s.ctype = widget.NewSelect([]string{anyType}, func(string) { s.query() })
	s.host = widget.NewSelect([]string{anyHost}, func(string) { s.query() })
	s.dep = widget.NewSelect([]string{anyDepth}, func(string) { s.query() })
	s.near = widget.NewCheck("Near-duplicates only", func(bool) { s.query() })
	s.verdict = widget.NewSelect(browse.VerdictChoices, func(string) { s.query() })
	s.setting = true
	s.verdict.SetSelected(browse.VerdictChoices[0])
	s.status.SetSelected(browse.StatusChoices[0])
	s.ctype.SetSelected(anyType)
	s.host.SetSelected(anyHost)
	s.dep.SetSelected(anyDepth)
	s.setting = false
	s.count = widget.NewLabel("")
	s.export = widget.NewButtonWithIcon("Export CSV…", theme.DocumentSaveIcon(), ui.exportDialog)
	s.judge = widget.NewButtonWithIcon("Judge pages…", theme.VisibilityIcon(), ui.judgeDialog)
	s.loadWidths()
	table := s.newTable()
	s.detail = newDetailPane(ui)

	filters := container.NewHBox(fitOptions(s.status), fitOptions(s.ctype), fitOptions(s.host), fitOptions(s.dep),
		fitOptions(s.verdict), s.near)
	count := container.New(fixedWidth{"9,999,999 skipped URLs"}, s.count)
	searchRow := container.NewBorder(nil, nil, nil, container.NewHBox(count, s.judge, s.export), s.search)
	bar := container.NewVBox(searchRow, filters, s.searchErr)
	s.noRows = emptyState("No pages match", "Change the filters or the search, or wait for the crawl to fetch more.")
	s.noRows.Hide()
	s.split = container.NewHSplit(container.NewStack(table, s.noRows), s.detail.content)
	s.split.Offset = 0.6
	s.body = container.NewBorder(bar, nil, nil, nil, s.split)
	s.noCrawl = emptyState("No crawl open",
		"Start one in New crawl (Ctrl+N), or pick one in Crawls and press Open.")
	s.body.Hide()
	s.content = container.NewPadded(container.NewStack(s.noCrawl, s.body))
	return s
}

// setCrawl shows crawl id (0: none), with the filters reset.
func (s *resultsScreen) setCrawl(id int64) {
	s.rows.Close()
	if s.ui.d == nil || id == 0 {
		s.rows = browse.NewRows(nil, s.ui.do, s.rowsChanged, s.rowsFailed)
		s.body.Hide()
		s.noCrawl.Show()
		s.detail.clear()
		return
	}
	s.rows = browse.NewRows(s.ui.d, s.ui.do, s.rowsChanged, s.rowsFailed)
	s.setting = true
	s.search.SetText("")
	s.status.SetSelected(browse.StatusChoices[0])
	s.ctype.SetOptions([]string{anyType})
	s.ctype.SetSelected(anyType)
	s.host.SetOptions([]string{anyHost})
	s.host.SetSelected(anyHost)
	s.dep.SetSelected(anyDepth)
	s.verdict.SetSelected(browse.VerdictChoices[0])
	s.near.SetChecked(false)
	s.setting = false
	s.sort, s.desc = db.SortStored, false
	s.noCrawl.Hide()
	s.body.Show()
	s.detail.clear()
	s.facetsFor = 0
	s.query()
}

// filters returns the filter controls as chosen.
func (s *resultsScreen) filters() browse.Filters {
	f := browse.Filters{Status: s.status.Selected, Search: s.search.Text, NearDuplicates: s.near.Checked,
		Verdict: s.verdict.Selected}
	if s.ctype.Selected != anyType {
		f.Type = facetValue(s.facets.Types, s.ctype.Selected)
	}
	if s.host.Selected != anyHost {
		f.Host = facetValue(s.facets.Hosts, s.host.Selected)
	}
	if s.dep.Selected != anyDepth {
		f.Depth = s.dep.Selected
	}
	return f
}

// layoutSplit lays the table and the detail pane out again after the pane
// was shown or hidden: the table takes the width while no row is selected.
func (s *resultsScreen) layoutSplit() {
	if s.split != nil {
		s.split.Refresh()
	}
}

// searchDelay is how long the search box waits after a keystroke before it
// searches: typing a word runs one query, not one per letter.
const searchDelay = 250 * time.Millisecond

// searchSoon searches for the box's text once typing pauses.
func (s *resultsScreen) searchSoon() {
	if s.typing != nil {
		s.typing.Stop()
	}
	s.typing = time.AfterFunc(searchDelay, func() { s.ui.do(s.searchNow) })
}

// searchNow searches for the box's text at once, unless it already did.
func (s *resultsScreen) searchNow() {
	if s.typing != nil {
		s.typing.Stop()
		s.typing = nil
	}
	if s.rows != nil && s.rows.Query().Search == strings.TrimSpace(s.search.Text) {
		return
	}
	s.query()
}

// query shows the listing the filters, search and sort describe.
func (s *resultsScreen) query() {
	if s.setting || s.ui.d == nil || s.ui.crawl == 0 {
		return
	}
	s.searchErr.Hide()
	s.queries++
	s.count.SetText("counting…")
	q := s.filters().Query(s.ui.crawl, s.sort, s.desc)
	if !sameRows(q, s.rows.Query()) {
		// The page shown may not be listed any more: the pane must not
		// show what the table does not.
		s.selected = 0
		s.detail.clear()
	}
	s.rows.SetQuery(q)
	if cols := columnsFor(s.rows.Query()); !sameColumns(cols, s.columns) {
		s.columns = cols
		s.applyColumnWidths() // a width the user dragged stays while the columns do
	}
	s.table.UnselectAll()
	s.table.ScrollToTop()
	s.refreshTable()
}

// refresh reads the listing again, keeping the filters and the scroll.
func (s *resultsScreen) refresh() {
	if s.ui.crawl == 0 {
		return
	}
	s.rows.Refresh()
	s.refreshes++
	s.facetsFor = 0 // the crawl's pages changed: the filters' counts are read again with the new count
}

// countText is the size of a listing in words: pages, or skipped URLs.
func countText(n int, skipped bool) string {
	if skipped {
		return format.Count(int64(n), "skipped URL", "skipped URLs")
	}
	return format.Count(int64(n), "page", "pages")
}

func (s *resultsScreen) rowsChanged() {
	if s.rows.Counted() {
		n := s.rows.Len()
		s.count.SetText(countText(n, s.rows.Query().Skipped))
		if n == 0 {
			s.noRows.Show()
		} else {
			s.noRows.Hide()
		}
		if s.facetsFor != s.ui.crawl {
			s.loadFacets() // after the first rows and the count: they go first
		}
	}
	s.refreshTable()
}

// refreshTable redraws the table's visible cells. A table not laid out
// yet (its tab never shown) is left alone: Fyne would then make a divider
// for every row of the listing, a million for a million pages; the first
// layout draws it anyway.
func (s *resultsScreen) refreshTable() {
	if s.table.Size().Height > 0 {
		s.table.Refresh()
	}
}

// sameColumns reports whether two column sets are the same, in order.
func sameColumns(a, b []column) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].title != b[i].title {
			return false
		}
	}
	return true
}

// sameRows reports whether two listings hold the same rows, in any order.
func sameRows(a, b db.PageQuery) bool {
	a.Sort, a.Desc, b.Sort, b.Desc = "", false, "", false
	a.After, b.After = nil, nil
	if (a.Depth == nil) != (b.Depth == nil) || (a.Depth != nil && *a.Depth != *b.Depth) {
		return false
	}
	a.Depth, b.Depth = nil, nil
	return a == b
}

// searchProblem says why a search cannot run, without SQLite's words.
func searchProblem(err error) string {
	if errors.Is(err, db.ErrNoWords) {
		return "Type a word to search for."
	}
	msg := err.Error()
	if i := strings.Index(msg, db.ErrBadQuery.Error()); i >= 0 {
		msg = msg[i:]
	}
	return "The search cannot be read: " + msg
}

func (s *resultsScreen) rowsFailed(err error) {
	if errors.Is(err, db.ErrBadQuery) {
		s.searchErr.SetText(searchProblem(err))
		s.searchErr.Show()
		s.count.SetText("")
		return
	}
	s.ui.showError(fmt.Errorf("read the pages of the crawl: %w", err))
}

// loadFacets fills the type and host filters with the crawl's values.
func (s *resultsScreen) loadFacets() {
	d, id := s.ui.d, s.ui.crawl
	s.facetsFor = id
	type facetsAndDepth struct {
		f     browse.Facets
		depth int
	}
	background(s.ui, func() (facetsAndDepth, error) {
		f, err := browse.LoadFacets(context.Background(), d, id)
		if err != nil {
			return facetsAndDepth{}, err
		}
		cfg, err := d.Settings(context.Background(), id)
		return facetsAndDepth{f, cfg.Depth}, err
	}, func(v facetsAndDepth, err error) {
		if id != s.ui.crawl {
			return
		}
		if err != nil {
			s.ui.showError(fmt.Errorf("read the filters' values: %w", err))
			return
		}
		old := s.facets
		s.facets = v.f
		s.setting = true
		setFacets(s.ctype, anyType, old.Types, v.f.Types)
		setFacets(s.host, anyHost, old.Hosts, v.f.Hosts)
		depths := []string{anyDepth}
		for i := 0; i <= min(v.depth, 50); i++ {
			depths = append(depths, strconv.Itoa(i))
		}
		s.dep.SetOptions(depths)
		s.setting = false
	})
}

// setFacets gives a filter the values now, keeping the value chosen
// under its new label (the counts in labels change as a crawl goes on).
func setFacets(sel *widget.Select, any string, old, now []db.Facet) {
	chosen, ok := "", false
	if sel.Selected != any {
		chosen, ok = facetValue(old, sel.Selected), true
	}
	labels := facetLabels(now)
	sel.SetOptions(append([]string{any}, labels...))
	if !ok {
		return
	}
	for i, f := range now {
		if f.Value == chosen {
			sel.SetSelected(labels[i])
			return
		}
	}
	sel.SetSelected(any)
}

func facetLabels(list []db.Facet) []string {
	out := make([]string, len(list))
	for i, f := range list {
		v := f.Value
		if v == "" {
			v = "(none)"
		}
		out[i] = fmt.Sprintf("%s (%s)", v, humanize.Comma(f.Count))
	}
	return out
}

func facetValue(list []db.Facet, label string) string {
	for i, l := range facetLabels(list) {
		if l == label {
			return list[i].Value
		}
	}
	return ""
}

// focusSearch shows Results and puts the cursor in the search box.
func (s *resultsScreen) focusSearch() {
	s.ui.tabs.SelectIndex(tabResults)
	if s.body.Visible() {
		s.ui.win.Canvas().Focus(s.search)
	}
}

func (s *resultsScreen) close() { s.rows.Close() }
