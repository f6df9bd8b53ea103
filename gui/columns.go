package gui

import (
	"encoding/json"
	"math"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// widthsKey is where the results table's column widths are kept between
// sessions, by column title.
const widthsKey = "results.columnWidths"

// headerCell is a header of the results table: a sort button that also
// reports the width the table gives its column, so a width the user drags
// is remembered.
type headerCell struct {
	widget.Button
	col     int
	resized func(col int, width float32)
}

func newHeaderCell(resized func(int, float32)) *headerCell {
	h := &headerCell{col: -1, resized: resized}
	h.Importance = widget.LowImportance
	h.Alignment = widget.ButtonAlignLeading
	h.ExtendBaseWidget(h)
	return h
}

// Resize lays the button out and reports its column's width.
func (h *headerCell) Resize(size fyne.Size) {
	h.Button.Resize(size)
	if h.col >= 0 && h.resized != nil {
		h.resized(h.col, size.Width)
	}
}

// columnWidth is the width of column c: the one the user left it at, or
// its default.
func (s *resultsScreen) columnWidth(c column) float32 {
	if w, ok := s.widths[c.title]; ok && w > 20 {
		return w
	}
	return c.width
}

// columnResized records a column's width as the table lays it out; a
// change from what Trawler set is the user's drag, saved a moment after
// the last one.
func (s *resultsScreen) columnResized(col int, width float32) {
	if !s.dragging || col >= len(s.columns) || width <= 0 {
		return // header cells are also resized as they are reused for other columns
	}
	c := s.columns[col]
	if math.Abs(float64(width-s.columnWidth(c))) < 1 {
		return
	}
	if s.widths == nil {
		s.widths = map[string]float32{}
	}
	s.widths[c.title] = width
	if s.saveWidths != nil {
		s.saveWidths.Stop()
	}
	widths := make(map[string]float32, len(s.widths))
	for k, v := range s.widths {
		widths[k] = v
	}
	prefs := s.ui.app.Preferences()
	s.saveWidths = time.AfterFunc(500*time.Millisecond, func() {
		if b, err := json.Marshal(widths); err == nil {
			prefs.SetString(widthsKey, string(b))
		}
	})
}

// loadWidths reads the column widths kept from earlier sessions.
func (s *resultsScreen) loadWidths() {
	var widths map[string]float32
	if err := json.Unmarshal([]byte(s.ui.app.Preferences().String(widthsKey)), &widths); err == nil {
		s.widths = widths
	}
}
