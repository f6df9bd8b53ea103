package gui

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/trawler/trawler/db"
)

// connectDialog asks for a PostgreSQL server's URL and password and opens
// its database: robots on several machines crawl one crawl there. The
// password is kept in memory for the robots the window starts, in the
// keychain if the box is ticked, and nowhere else.
func (ui *UI) connectDialog() {
	if ui.session != nil {
		ui.showError(errors.New("connect to server: a crawl is running; stop it first"))
		return
	}
	server := widget.NewEntry()
	server.PlaceHolder = "postgres://user@host:5432/trawler"
	if ui.d != nil && ui.d.Postgres() {
		server.SetText(ui.d.Path())
	}
	pw := widget.NewPasswordEntry()
	pw.PlaceHolder = "empty: from the keychain, PGPASSWORD or ~/.pgpass"
	remember := widget.NewCheck("Remember the password in the keychain", nil)
	items := []*widget.FormItem{
		widget.NewFormItem("Server", server),
		widget.NewFormItem("Password", pw),
		widget.NewFormItem("", remember),
	}
	dlg := dialog.NewForm("Connect to server", "Connect", "Cancel", items, func(yes bool) {
		if yes {
			ui.connect(strings.TrimSpace(server.Text), pw.Text, remember.Checked)
		}
	}, ui.win)
	dlg.Resize(dlg.MinSize().AddWidthHeight(200, 0))
	dlg.Show()
}

// connect opens the database at rawURL with password (empty: the
// keychain's, if it has one) and makes it the window's.
func (ui *UI) connect(rawURL, password string, remember bool) {
	if !db.IsServerURL(rawURL) {
		ui.showError(fmt.Errorf("connect to server: %q is not a PostgreSQL URL; write it as postgres://user@host:5432/database", db.RedactURL(rawURL)))
		return
	}
	recall, store := ui.opts.Recall, ui.opts.Remember
	type opened struct {
		d  *db.DB
		pw string
	}
	if pw, ok := urlPassword(rawURL); ok && password == "" {
		password = pw // typed into the URL: kept in memory like a typed one
	}
	background(ui, func() (opened, error) {
		host, user, named := db.ServerAccount(db.RedactURL(rawURL))
		if password == "" && db.NeedsPassword(rawURL) {
			password, _ = recall(host, user) // none: the server may need none
		}
		if password == "" {
			password = os.Getenv("PGPASSWORD") // for the robots the window starts
		}
		d, err := db.Open(db.WithPassword(rawURL, password))
		if err != nil {
			return opened{}, err
		}
		if remember && named && password != "" {
			if err := store(host, user, password); err != nil {
				return opened{d, password}, fmt.Errorf("connected, but the password could not be remembered: %w", err)
			}
		}
		return opened{d, password}, nil
	}, func(o opened, err error) {
		if o.d == nil {
			ui.showError(err)
			return
		}
		ui.SetDB(o.d) // shows its latest crawl, or its robots at work
		ui.server.url, ui.server.password = db.RedactURL(rawURL), o.pw
		ui.newCrawl.check()
		ui.showError(err)
	})
}

// urlPassword returns the password written into a URL, if any.
func urlPassword(rawURL string) (string, bool) {
	u, err := url.Parse(rawURL)
	if err != nil || u.User == nil {
		return "", false
	}
	return u.User.Password()
}

// startRobotProcess starts `trawler robot` for a crawl as a process of its
// own, which goes on if the window closes. The password goes to it in
// PGPASSWORD, which other users cannot read, never on its command line.
func startRobotProcess(url, password string, crawlID int64) error {
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find the trawler program: %w", err)
	}
	cmd := exec.Command(self, "robot", "--db", url, "--crawl", strconv.FormatInt(crawlID, 10), "--quiet")
	cmd.Env = os.Environ()
	if password != "" {
		cmd.Env = append(cmd.Env, "PGPASSWORD="+password)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start a robot: %w", err)
	}
	go cmd.Wait() // reaps it when it ends
	return nil
}
