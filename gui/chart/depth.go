package chart

import (
	"image/color"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// MaxDepthBars is how many bars DepthBars draws; deeper pages are counted
// in the last bar.
const MaxDepthBars = 12

// DepthBars draws one bar per link depth, the count above it and the depth
// below it, scaled to the largest count.
type DepthBars struct {
	widget.BaseWidget
	counts []int64
}

// NewDepthBars returns an empty bar chart.
func NewDepthBars() *DepthBars {
	b := &DepthBars{}
	b.ExtendBaseWidget(b)
	return b
}

// SetCounts shows counts[d] pages at depth d.
func (b *DepthBars) SetCounts(counts []int64) {
	b.counts = Fold(counts, MaxDepthBars)
	b.Refresh()
}

// Fold keeps at most n counts, adding the deeper ones into the last.
func Fold(counts []int64, n int) []int64 {
	if len(counts) <= n {
		return append([]int64(nil), counts...)
	}
	out := append([]int64(nil), counts[:n]...)
	for _, c := range counts[n:] {
		out[n-1] += c
	}
	return out
}

// CreateRenderer is part of fyne.Widget.
func (b *DepthBars) CreateRenderer() fyne.WidgetRenderer {
	r := &depthRenderer{b: b, bg: canvas.NewRectangle(color.Transparent), empty: canvas.NewText("", color.Black)}
	r.empty.TextSize = theme.CaptionTextSize()
	r.objects = []fyne.CanvasObject{r.bg, r.empty}
	for i := range MaxDepthBars {
		r.bars[i] = canvas.NewRectangle(color.Black)
		r.counts[i] = canvas.NewText("", color.Black)
		r.depths[i] = canvas.NewText(strconv.Itoa(i), color.Black)
		r.counts[i].TextSize, r.depths[i].TextSize = theme.CaptionTextSize(), theme.CaptionTextSize()
		r.counts[i].Alignment, r.depths[i].Alignment = fyne.TextAlignCenter, fyne.TextAlignCenter
		r.objects = append(r.objects, r.bars[i], r.counts[i], r.depths[i])
	}
	r.depths[MaxDepthBars-1].Text = strconv.Itoa(MaxDepthBars-1) + "+"
	r.Refresh()
	return r
}

type depthRenderer struct {
	b       *DepthBars
	bg      *canvas.Rectangle
	empty   *canvas.Text
	bars    [MaxDepthBars]*canvas.Rectangle
	counts  [MaxDepthBars]*canvas.Text
	depths  [MaxDepthBars]*canvas.Text
	objects []fyne.CanvasObject
	size    fyne.Size
}

func (r *depthRenderer) Destroy()                     {}
func (r *depthRenderer) Objects() []fyne.CanvasObject { return r.objects }
func (r *depthRenderer) MinSize() fyne.Size           { return fyne.NewSize(160, 80) }

func (r *depthRenderer) Layout(size fyne.Size) {
	r.size = size
	r.place()
}

func (r *depthRenderer) Refresh() {
	r.bg.FillColor = theme.Color(theme.ColorNameInputBackground)
	r.bg.CornerRadius = theme.InputRadiusSize()
	r.empty.Color = theme.Color(theme.ColorNamePlaceHolder)
	for i := range MaxDepthBars {
		r.bars[i].FillColor = theme.Color(theme.ColorNamePrimary)
		r.counts[i].Color = theme.Color(theme.ColorNameForeground)
		r.depths[i].Color = theme.Color(theme.ColorNamePlaceHolder)
	}
	r.place()
	canvas.Refresh(r.b)
}

func (r *depthRenderer) place() {
	size, counts := r.size, r.b.counts
	pad := theme.Padding()
	r.bg.Resize(size)
	textH := r.depths[0].MinSize().Height
	top, bottom := pad+textH, size.Height-pad-textH
	slot := (size.Width - 2*pad) / float32(MaxDepthBars)
	var peak int64
	for _, c := range counts {
		peak = max(peak, c)
	}
	r.empty.Text = ""
	if peak == 0 {
		r.empty.Text = "pages per depth appear here"
		r.empty.Move(fyne.NewPos(pad, (top+bottom)/2-r.empty.MinSize().Height/2))
		r.empty.Resize(r.empty.MinSize())
	}
	for i := range MaxDepthBars {
		var c int64
		if i < len(counts) {
			c = counts[i]
		}
		x := pad + float32(i)*slot
		h := float32(0)
		if peak > 0 {
			h = float32(c) / float32(peak) * (bottom - top)
		}
		r.bars[i].Move(fyne.NewPos(x+slot*0.15, bottom-h))
		r.bars[i].Resize(fyne.NewSize(slot*0.7, h))
		r.counts[i].Text = ""
		if c > 0 {
			r.counts[i].Text = compact(c)
		}
		r.counts[i].Move(fyne.NewPos(x, bottom-h-textH))
		r.counts[i].Resize(fyne.NewSize(slot, textH))
		r.depths[i].Move(fyne.NewPos(x, bottom))
		r.depths[i].Resize(fyne.NewSize(slot, textH))
		visible := i < len(counts) || peak == 0
		for _, o := range []fyne.CanvasObject{r.bars[i], r.counts[i], r.depths[i]} {
			if visible && peak > 0 {
				o.Show()
			} else {
				o.Hide()
			}
		}
	}
}

// compact writes a count in at most four characters: 950, 12k, 3.4M.
func compact(n int64) string {
	switch {
	case n < 1000:
		return strconv.FormatInt(n, 10)
	case n < 10_000:
		return strconv.FormatFloat(float64(n)/1000, 'f', 1, 64) + "k"
	case n < 1_000_000:
		return strconv.FormatInt(n/1000, 10) + "k"
	}
	return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + "M"
}
