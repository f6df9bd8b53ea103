// Package chart draws the Live crawl screen's two small charts with Fyne's
// canvas primitives: pages per second over time, and pages per depth.
// Both are widgets whose data is set from the UI goroutine.
package chart

import (
	"fmt"
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// RateChart draws a series of pages/s samples as a line over a baseline,
// scaled to its peak, which it writes in the top corner.
type RateChart struct {
	widget.BaseWidget
	values []float64
	points int // samples the chart has room for
}

// NewRateChart returns an empty chart with room for points samples.
func NewRateChart(points int) *RateChart {
	c := &RateChart{points: max(2, points)}
	c.ExtendBaseWidget(c)
	return c
}

// SetValues shows samples, oldest first; only the last points are drawn.
func (c *RateChart) SetValues(v []float64) {
	if len(v) > c.points {
		v = v[len(v)-c.points:]
	}
	c.values = append(c.values[:0], v...)
	c.Refresh()
}

// CreateRenderer is part of fyne.Widget.
func (c *RateChart) CreateRenderer() fyne.WidgetRenderer {
	r := &rateRenderer{c: c, bg: canvas.NewRectangle(color.Transparent), base: canvas.NewLine(color.Black),
		peak: canvas.NewText("", color.Black), empty: canvas.NewText("", color.Black)}
	r.peak.TextSize = theme.CaptionTextSize()
	r.empty.TextSize = theme.CaptionTextSize()
	r.lines = make([]*canvas.Line, c.points-1)
	r.objects = []fyne.CanvasObject{r.bg, r.base}
	for i := range r.lines {
		r.lines[i] = canvas.NewLine(color.Black)
		r.lines[i].StrokeWidth = 2
		r.objects = append(r.objects, r.lines[i])
	}
	r.objects = append(r.objects, r.peak, r.empty)
	r.Refresh()
	return r
}

type rateRenderer struct {
	c       *RateChart
	bg      *canvas.Rectangle
	base    *canvas.Line
	lines   []*canvas.Line
	peak    *canvas.Text
	empty   *canvas.Text
	objects []fyne.CanvasObject
	size    fyne.Size
}

func (r *rateRenderer) Destroy()                     {}
func (r *rateRenderer) Objects() []fyne.CanvasObject { return r.objects }

func (r *rateRenderer) MinSize() fyne.Size {
	return fyne.NewSize(160, 80)
}

func (r *rateRenderer) Layout(size fyne.Size) {
	r.size = size
	r.place()
}

func (r *rateRenderer) Refresh() {
	fg := theme.Color(theme.ColorNameForeground)
	r.bg.FillColor = theme.Color(theme.ColorNameInputBackground)
	r.bg.CornerRadius = theme.InputRadiusSize()
	r.base.StrokeColor = theme.Color(theme.ColorNameSeparator)
	r.peak.Color, r.empty.Color = fg, theme.Color(theme.ColorNamePlaceHolder)
	for _, l := range r.lines {
		l.StrokeColor = theme.Color(theme.ColorNamePrimary)
	}
	r.place()
	canvas.Refresh(r.c)
}

// place positions everything for the current values and size.
func (r *rateRenderer) place() {
	size, v := r.size, r.c.values
	pad := theme.Padding()
	r.bg.Resize(size)
	top, bottom := pad+r.peak.MinSize().Height, size.Height-pad
	left, right := pad, size.Width-pad
	r.base.Position1, r.base.Position2 = fyne.NewPos(left, bottom), fyne.NewPos(right, bottom)
	peak := 0.0
	for _, x := range v {
		peak = max(peak, x)
	}
	r.peak.Text = fmt.Sprintf("highest in view: %.1f pages/s", peak)
	r.peak.Move(fyne.NewPos(left, pad/2))
	r.peak.Resize(r.peak.MinSize())
	r.empty.Text = ""
	if len(v) < 2 {
		r.empty.Text = "pages/s appear here once per second"
		r.empty.Move(fyne.NewPos(left, (top+bottom)/2-r.empty.MinSize().Height/2))
		r.empty.Resize(r.empty.MinSize())
	}
	step := (right - left) / float32(r.c.points-1)
	y := func(x float64) float32 {
		if peak <= 0 {
			return bottom
		}
		return bottom - float32(x/peak)*(bottom-top)
	}
	for i, l := range r.lines {
		if i+1 >= len(v) {
			l.Hide()
			continue
		}
		l.Show()
		l.Position1 = fyne.NewPos(left+float32(i)*step, y(v[i]))
		l.Position2 = fyne.NewPos(left+float32(i+1)*step, y(v[i+1]))
	}
}
