package gui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/trawler/trawler/gui/form"
)

// authRows edits per-host credentials: host, user and password per row.
type authRows struct {
	changed func()
	rows    []*authRow
	list    *fyne.Container
	content fyne.CanvasObject
}

type authRow struct {
	host, user, password *widget.Entry
	line                 *fyne.Container
}

func newAuthRows(changed func()) *authRows {
	a := &authRows{changed: changed, list: container.NewVBox()}
	add := widget.NewButtonWithIcon("Add sign-in", theme.ContentAddIcon(), func() {
		a.add(form.Auth{})
		a.changed()
	})
	a.content = container.NewVBox(a.list, container.NewHBox(add))
	return a
}

func (a *authRows) add(v form.Auth) {
	r := &authRow{host: widget.NewEntry(), user: widget.NewEntry(), password: widget.NewPasswordEntry()}
	r.host.PlaceHolder, r.user.PlaceHolder, r.password.PlaceHolder = "host[:port]", "user", "password"
	r.host.SetText(v.Host)
	r.user.SetText(v.User)
	r.password.SetText(v.Password)
	for _, e := range []*widget.Entry{r.host, r.user, r.password} {
		e.OnChanged = func(string) { a.changed() }
	}
	remove := widget.NewButtonWithIcon("", theme.DeleteIcon(), func() { a.remove(r) })
	r.line = container.NewBorder(nil, nil, nil, remove, container.NewGridWithColumns(3, r.host, r.user, r.password))
	a.rows = append(a.rows, r)
	a.list.Add(r.line)
}

func (a *authRows) remove(r *authRow) {
	for i, x := range a.rows {
		if x == r {
			a.rows = append(a.rows[:i], a.rows[i+1:]...)
			break
		}
	}
	a.list.Remove(r.line)
	a.changed()
}

func (a *authRows) fill(list []form.Auth) {
	a.rows = nil
	a.list.RemoveAll()
	for _, v := range list {
		a.add(v)
	}
}

func (a *authRows) read() []form.Auth {
	var out []form.Auth
	for _, r := range a.rows {
		out = append(out, form.Auth{Host: r.host.Text, User: r.user.Text, Password: r.password.Text})
	}
	return out
}
