package gui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// fieldSet lays out labelled form fields, each with an optional hint and
// an error line shown only while the field is wrong.
type fieldSet struct {
	errs    map[string]*widget.Label
	changed func() // called when any field changes
}

func newFieldSet(changed func()) *fieldSet {
	return &fieldSet{errs: map[string]*widget.Label{}, changed: changed}
}

// row returns the label and the field column of one form row.
func (fs *fieldSet) row(field, label, hint string, obj fyne.CanvasObject) []fyne.CanvasObject {
	e := widget.NewLabel("")
	e.Importance = widget.DangerImportance
	e.Wrapping = fyne.TextWrapWord
	e.Hide()
	fs.errs[field] = e
	col := []fyne.CanvasObject{obj}
	if hint != "" {
		col = append(col, caption(hint))
	}
	col = append(col, e)
	l := widget.NewLabel(label)
	l.TextStyle.Bold = true
	return []fyne.CanvasObject{l, container.NewVBox(col...)}
}

// formGrid lays rows out as a two-column form.
func formGrid(rows ...[]fyne.CanvasObject) *fyne.Container {
	var objs []fyne.CanvasObject
	for _, r := range rows {
		objs = append(objs, r...)
	}
	return container.New(layout.NewFormLayout(), objs...)
}

// show marks each field with its error, or clears the mark.
func (fs *fieldSet) show(errs map[string]string) {
	for field, l := range fs.errs {
		showText(l, errs[field])
	}
}

// entry returns a one-line entry that reports changes.
func (fs *fieldSet) entry(placeholder string) *widget.Entry {
	e := widget.NewEntry()
	e.PlaceHolder = placeholder
	e.OnChanged = func(string) { fs.changed() }
	return e
}

// multi returns a multi-line entry of rows lines that reports changes.
func (fs *fieldSet) multi(placeholder string, rows int) *widget.Entry {
	e := widget.NewMultiLineEntry()
	e.PlaceHolder = placeholder
	e.SetMinRowsVisible(rows)
	e.OnChanged = func(string) { fs.changed() }
	return e
}

// caption returns small explanatory text.
func caption(text string) *widget.RichText {
	return dim(text, theme.SizeNameCaptionText)
}

// dim returns wrapped text in the theme's placeholder colour: readable,
// and quieter than the values it explains.
func dim(text string, size fyne.ThemeSizeName) *widget.RichText {
	rt := widget.NewRichText(&widget.TextSegment{Text: text, Style: widget.RichTextStyle{
		ColorName: theme.ColorNamePlaceHolder, SizeName: size, Inline: true,
	}})
	rt.Wrapping = fyne.TextWrapWord
	return rt
}

// heading returns a section title.
func heading(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.SizeName = theme.SizeNameSubHeadingText
	l.TextStyle.Bold = true
	return l
}

// emptyState returns the message a screen shows when it has nothing to
// show, saying what to do.
func emptyState(title, what string) fyne.CanvasObject {
	t := widget.NewLabel(title)
	t.SizeName = theme.SizeNameSubHeadingText
	t.Alignment = fyne.TextAlignCenter
	w := widget.NewLabel(what)
	w.Alignment = fyne.TextAlignCenter
	w.Wrapping = fyne.TextWrapWord
	return container.NewCenter(container.NewGridWrap(fyne.NewSize(560, 120), container.NewVBox(t, w)))
}
