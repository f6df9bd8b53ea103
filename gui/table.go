package gui

import (
	"fyne.io/fyne/v2"
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
