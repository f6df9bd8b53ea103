package gui

import (
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/dustin/go-humanize"

	"github.com/trawler/trawler/db"
	"github.com/trawler/trawler/gui/browse"
)

// column is one column of the results table.
type column struct {
	title string
	sort  db.SortKey // "" for a column that cannot be sorted
	width float32
	text  func(ui *UI, r db.PageRow) string
}

var (
	urlColumn     = column{"URL", db.SortURL, 290, func(_ *UI, r db.PageRow) string { return r.URL }}
	statusColumn  = column{"Status", db.SortStatus, 76, func(_ *UI, r db.PageRow) string { return statusCell(r) }}
	titleColumn   = column{"Title", db.SortTitle, 230, func(_ *UI, r db.PageRow) string { return titleCell(r) }}
	depthColumn   = column{"Depth", db.SortDepth, 70, func(_ *UI, r db.PageRow) string { return strconv.Itoa(r.Depth) }}
	typeColumn    = column{"Type", db.SortType, 100, func(_ *UI, r db.PageRow) string { return r.ContentType }}
	sizeColumn    = column{"Size", db.SortSize, 84, func(_ *UI, r db.PageRow) string { return sizeCell(r) }}
	redirColumn   = column{"Redirect to", "", 200, func(_ *UI, r db.PageRow) string { return r.RedirectTo }}
	reasonColumn  = column{"Reason", "", 200, func(_ *UI, r db.PageRow) string { return r.SkipReason.Label() }}
	foundOnColumn = column{"Found on", "", 260, func(_ *UI, r db.PageRow) string { return r.Parent }}
	foundColumn   = column{"Found at", "", 170, func(ui *UI, r db.PageRow) string { return ui.opts.TimeText(r.FetchedAt) }}
	fetchedColumn = column{"Fetched at", db.SortFetched, 170, func(ui *UI, r db.PageRow) string { return ui.opts.TimeText(r.FetchedAt) }}
	matchColumn   = column{"Match", db.SortRelevance, 340, nil}
)

// columnsFor returns the table's columns for a listing of q: a search
// adds its snippets; skipped URLs show why and where they were found.
func columnsFor(q db.PageQuery) []column {
	if q.Skipped {
		return []column{urlColumn, reasonColumn, depthColumn, foundOnColumn, foundColumn}
	}
	cols := []column{urlColumn, statusColumn, redirColumn, titleColumn, depthColumn, typeColumn, sizeColumn, fetchedColumn}
	if q.Search != "" {
		cols = append([]column{urlColumn, matchColumn}, cols[1:]...)
	}
	return cols
}

// sizeCell is the body size, marked when the body was cut at the size cap.
func sizeCell(r db.PageRow) string {
	s := humanize.IBytes(uint64(max(0, r.Length)))
	if r.Truncated {
		s += " (cut)"
	}
	return s
}

func statusCell(r db.PageRow) string {
	if r.Status == 0 {
		return "—"
	}
	return strconv.Itoa(r.Status)
}

func titleCell(r db.PageRow) string {
	if r.Err != "" {
		return "⚠ " + r.Err
	}
	return r.Title
}

// resultsTable is the results' widget.Table, told when the user drags a
// column's edge, so the width can be remembered.
type resultsTable struct {
	widget.Table
	s *resultsScreen
}

// Dragged resizes a column (or does nothing) and marks the drag.
func (t *resultsTable) Dragged(e *fyne.DragEvent) {
	t.s.dragging = true
	t.Table.Dragged(e)
}

// DragEnd ends a column drag.
func (t *resultsTable) DragEnd() {
	t.Table.DragEnd()
	t.s.dragging = false
}

func (s *resultsScreen) newTable() *resultsTable {
	s.columns = columnsFor(db.PageQuery{})
	rt := &resultsTable{s: s}
	t := &rt.Table
	t.Length = func() (int, int) { return s.rows.Len(), len(s.columns) }
	t.CreateCell = func() fyne.CanvasObject {
		l := widget.NewLabel("")
		l.Truncation = fyne.TextTruncateClip // ellipsis shapes the text again on every layout: too slow for a table
		rt := widget.NewRichText()           // its text is cut to the column by snippetSegments
		rt.Hide()
		return container.New(visibleStack{}, l, rt)
	}
	t.UpdateCell = s.updateCell
	rt.ExtendBaseWidget(rt)
	t.ShowHeaderRow = true
	t.CreateHeader = func() fyne.CanvasObject { return newHeaderCell(s.columnResized) }
	t.UpdateHeader = s.updateHeader
	t.OnSelected = func(id widget.TableCellID) { s.selectRow(id.Row) }
	s.table = t
	s.applyColumnWidths()
	return rt
}

func (s *resultsScreen) applyColumnWidths() {
	for i, c := range s.columns {
		s.table.SetColumnWidth(i, s.columnWidth(c))
	}
}

func (s *resultsScreen) updateCell(id widget.TableCellID, o fyne.CanvasObject) {
	stack := o.(*fyne.Container)
	l, rt := stack.Objects[0].(*widget.Label), stack.Objects[1].(*widget.RichText)
	if id.Col >= len(s.columns) {
		return
	}
	c := s.columns[id.Col]
	r, ok := s.rows.Row(id.Row)
	if c.text == nil && ok {
		l.Hide()
		rt.Segments = snippetSegments(r.Snippet, c.width-2*theme.InnerPadding())
		rt.Show()
		stack.Refresh()
		return
	}
	if !l.Visible() {
		rt.Hide()
		l.Show()
		stack.Refresh()
	}
	switch {
	case !ok:
		setText(l, "…")
	default:
		setText(l, c.text(s.ui, r))
	}
}

// setText changes a label only when its text changes: every SetText lays
// the label out again.
func setText(l *widget.Label, text string) {
	if l.Text != text {
		l.SetText(text)
	}
}

// visibleStack lays its visible objects over each other; hidden ones are
// left alone, so a hidden rich text costs no layout.
type visibleStack struct{}

func (visibleStack) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objs {
		if o.Visible() {
			s = s.Max(o.MinSize())
		}
	}
	return s
}

func (visibleStack) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		if o.Visible() {
			o.Move(fyne.NewPos(0, 0))
			o.Resize(size)
		}
	}
}

// snippetSegments shows a search snippet with its matches highlighted, cut
// to width: rich text truncation lets several segments run past a cell.
func snippetSegments(snippet string, width float32) []widget.RichTextSegment {
	size := theme.TextSize()
	measure := func(sp browse.Span) float32 {
		return fyne.MeasureText(sp.Text, size, fyne.TextStyle{Bold: sp.Match}).Width
	}
	var segs []widget.RichTextSegment
	for _, sp := range browse.Fit(browse.Spans(snippet), width, measure) {
		style := widget.RichTextStyleInline
		if sp.Match {
			style = widget.RichTextStyleStrong
			style.ColorName = theme.ColorNamePrimary
		}
		segs = append(segs, &widget.TextSegment{Text: sp.Text, Style: style})
	}
	return segs
}

func (s *resultsScreen) updateHeader(id widget.TableCellID, o fyne.CanvasObject) {
	h := o.(*headerCell)
	h.col = id.Col
	b := &h.Button
	if id.Col < 0 || id.Col >= len(s.columns) {
		b.SetText("")
		b.OnTapped = nil
		return
	}
	c := s.columns[id.Col]
	text := c.title
	b.SetIcon(nil)
	if c.sort != "" && c.sort == s.sortShown() {
		if s.desc {
			b.SetIcon(theme.MenuDropDownIcon())
		} else {
			b.SetIcon(theme.MenuDropUpIcon())
		}
	}
	b.SetText(text)
	b.OnTapped = func() { s.sortBy(c.sort) }
}

// sortShown is the order the listing is in: a search with no sort chosen
// is sorted by relevance.
func (s *resultsScreen) sortShown() db.SortKey {
	if s.rows == nil {
		return s.sort
	}
	return s.rows.Query().Sort
}

// sortBy sorts by key, or turns the order round when it already does.
func (s *resultsScreen) sortBy(key db.SortKey) {
	if key == "" {
		return
	}
	if s.sortShown() == key {
		s.desc = !s.desc
	} else {
		s.sort, s.desc = key, false
	}
	s.query()
}

func (s *resultsScreen) selectRow(row int) {
	r, ok := s.rows.Row(row)
	if !ok {
		return
	}
	s.selected = r.ID
	if r.SkipReason != "" {
		s.detail.showSkipped(r)
		return
	}
	s.detail.load(s.ui.crawl, r.ID)
}
