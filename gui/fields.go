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
//
// A field's error shows only once the user has edited that field, or after
// reveal (pressing Start): a form that was just opened does not scold.
type fieldSet struct {
	errs    map[string]*widget.Label
	changed func() // called when any field changes

	touched  map[string]bool // fields the user edited
	revealed bool            // every error shows
	muted    bool            // changes come from the program, not the user
}

func newFieldSet(changed func()) *fieldSet {
	return &fieldSet{errs: map[string]*widget.Label{}, changed: changed, touched: map[string]bool{}}
}

// reset forgets what was edited: the form is fresh again.
func (fs *fieldSet) reset() {
	fs.touched, fs.revealed = map[string]bool{}, false
}

// reveal shows every field's error from now on.
func (fs *fieldSet) reveal() { fs.revealed = true }

// visible keeps the errors of the fields whose errors may show.
func (fs *fieldSet) visible(errs map[string]string) map[string]string {
	if fs.revealed {
		return errs
	}
	out := map[string]string{}
	for f, e := range errs {
		if fs.touched[f] {
			out[f] = e
		}
	}
	return out
}

// watch marks field as touched when the user edits an entry of obj.
func (fs *fieldSet) watch(field string, obj fyne.CanvasObject) {
	switch o := obj.(type) {
	case *fyne.Container:
		for _, c := range o.Objects {
			fs.watch(field, c)
		}
	case *widget.Entry:
		fs.watchEntry(field, o)
	}
}

func (fs *fieldSet) watchEntry(field string, e *widget.Entry) {
	prev := e.OnChanged
	e.OnChanged = func(text string) {
		if !fs.muted {
			fs.touched[field] = true
		}
		if prev != nil {
			prev(text)
		}
	}
}

// row returns the label and the field column of one form row.
func (fs *fieldSet) row(field, label, hint string, obj fyne.CanvasObject) []fyne.CanvasObject {
	e := widget.NewLabel("")
	e.Importance = widget.DangerImportance
	e.Wrapping = fyne.TextWrapWord
	e.Hide()
	fs.errs[field] = e
	fs.watch(field, obj)
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
