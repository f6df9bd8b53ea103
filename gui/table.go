package gui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// textColumn is one column of a text table: its header and its width.
type textColumn struct {
	title string
	width float32
}

// textTable is a table of labels with a bold header row, as the Crawls,
// Changes and Hosts views show: rows gives the number of rows, cell the
// text of one cell. Long texts are cut as trunc says.
func textTable(cols []textColumn, trunc fyne.TextTruncation, rows func() int, cell func(row, col int) string) *widget.Table {
	t := widget.NewTable(
		func() (int, int) { return rows(), len(cols) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = trunc
			return l
		},
		func(id widget.TableCellID, o fyne.CanvasObject) {
			if id.Row < rows() {
				o.(*widget.Label).SetText(cell(id.Row, id.Col))
			}
		})
	t.ShowHeaderRow = true
	t.CreateHeader = func() fyne.CanvasObject { l := widget.NewLabel(""); l.TextStyle.Bold = true; return l }
	t.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		if id.Col >= 0 && id.Col < len(cols) {
			o.(*widget.Label).SetText(cols[id.Col].title)
		}
	}
	for i, c := range cols {
		t.SetColumnWidth(i, c.width)
	}
	return t
}

// wideSelect lays a Select out wide enough for its longest option, up to
// maxSelectWidth, so a chosen label is not cut ("4xx client e…"); the
// width follows the options as they change.
type wideSelect struct{ sel *widget.Select }

func fitOptions(sel *widget.Select) *fyne.Container {
	return container.New(wideSelect{sel}, sel)
}

func (w wideSelect) MinSize(objs []fyne.CanvasObject) fyne.Size {
	least := w.sel.MinSize()
	size := theme.TextSize()
	widest := float32(0)
	for _, o := range w.sel.Options {
		widest = max(widest, fyne.MeasureText(o, size, fyne.TextStyle{}).Width)
	}
	// text, the drop-down icon, and the paddings around both
	width := widest + theme.IconInlineSize() + 4*theme.InnerPadding()
	return fyne.NewSize(max(least.Width, min(width, maxSelectWidth)), least.Height)
}

// maxSelectWidth keeps a filter with long values (hosts) from crowding the
// search box out of the toolbar.
const maxSelectWidth = 230

func (w wideSelect) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

// fixedWidth lays its content out at least as wide as text, so a label
// that changes ("counting…", "12,345 pages") does not shift its row.
type fixedWidth struct{ text string }

func (f fixedWidth) MinSize(objs []fyne.CanvasObject) fyne.Size {
	w := fyne.MeasureText(f.text, theme.TextSize(), fyne.TextStyle{}).Width + 2*theme.InnerPadding()
	min := fyne.NewSize(w, 0)
	for _, o := range objs {
		min = min.Max(o.MinSize())
	}
	return min
}

func (f fixedWidth) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}
