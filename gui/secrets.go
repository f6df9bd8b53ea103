package gui

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/secret"
)

// passwordSource gives secret.Fill the passwords a crawl lacks.
type passwordSource = func(secret.Need) (string, error)

// needLabel names a need in the password dialog: "me @ intranet:8080".
func needLabel(n secret.Need) string {
	if n.Proxy {
		return "proxy: " + n.User + " @ " + strings.TrimPrefix(n.Host, "proxy/")
	}
	return n.User + " @ " + n.Host
}

// withPasswords finds the passwords cfg lacks: the keychain first, off the
// UI goroutine, then a dialog for those it does not hold, with a box to
// remember what is typed. run gets a source serving them all; it is not
// called when the dialog is cancelled.
func (ui *UI) withPasswords(title, action string, cfg crawl.Config, run func(passwordSource)) {
	needs := secret.Needs(cfg)
	if len(needs) == 0 {
		run(nil)
		return
	}
	recall := ui.opts.Recall
	background(ui, func() (map[secret.Need]string, error) {
		found := map[secret.Need]string{}
		for _, n := range needs {
			if pw, ok := recallWithin(recall, n, keychainWait); ok {
				found[n] = pw
			}
		}
		return found, nil
	}, func(found map[secret.Need]string, _ error) {
		var missing []secret.Need
		for _, n := range needs {
			if _, ok := found[n]; !ok {
				missing = append(missing, n)
			}
		}
		if len(missing) == 0 {
			run(fromMap(found))
			return
		}
		ui.askPasswords(title, action, missing, func(typed map[secret.Need]string) {
			for n, pw := range typed {
				found[n] = pw
			}
			run(fromMap(found))
		})
	})
}

// keychainWait is how long the window waits for the keychain to answer
// before asking for the password instead: a Secret Service that never
// answers must not leave Start or Resume silent.
const keychainWait = 5 * time.Second

// recallWithin recalls n's password, giving up after wait.
func recallWithin(recall func(host, user string) (string, error), n secret.Need, wait time.Duration) (string, bool) {
	type answer struct {
		pw  string
		err error
	}
	ch := make(chan answer, 1)
	go func() {
		pw, err := recall(n.Host, n.User)
		ch <- answer{pw, err}
	}()
	select {
	case a := <-ch:
		return a.pw, a.err == nil
	case <-time.After(wait):
		return "", false
	}
}

func fromMap(m map[secret.Need]string) passwordSource {
	return func(n secret.Need) (string, error) {
		if pw, ok := m[n]; ok {
			return pw, nil
		}
		return "", secret.ErrNotFound
	}
}

// askPasswords asks for the missing passwords in one dialog and, when its
// box is ticked, remembers them in the keychain.
func (ui *UI) askPasswords(title, action string, missing []secret.Need, done func(map[secret.Need]string)) {
	var items []*widget.FormItem
	entries := make([]*widget.Entry, len(missing))
	for i, n := range missing {
		entries[i] = widget.NewPasswordEntry()
		items = append(items, widget.NewFormItem(needLabel(n), entries[i]))
	}
	remember := widget.NewCheck("Remember these passwords in the keychain", nil)
	items = append(items, widget.NewFormItem("", remember))
	dialog.ShowForm(title, action, "Cancel", items, func(yes bool) {
		if !yes {
			return
		}
		typed := map[secret.Need]string{}
		for i, n := range missing {
			typed[n] = entries[i].Text
		}
		if remember.Checked {
			ui.rememberInBackground(func(store func(host, user, pw string) error) error {
				var errs []error
				for n, pw := range typed {
					errs = append(errs, store(n.Host, n.User, pw))
				}
				return errors.Join(errs...)
			})
		}
		done(typed)
	}, ui.win)
}

// rememberInBackground runs save with the keychain's store off the UI
// goroutine (the keychain may take a while to answer) and shows its error.
func (ui *UI) rememberInBackground(save func(store func(host, user, pw string) error) error) {
	store := ui.opts.Remember
	background(ui, func() (struct{}, error) {
		if err := save(store); err != nil {
			return struct{}{}, fmt.Errorf("remember the passwords in the keychain: %w", err)
		}
		return struct{}{}, nil
	}, func(_ struct{}, err error) { ui.showError(err) })
}

// rememberAll stores every password c carries in the keychain.
func rememberAll(c crawl.Config, store func(host, user, pw string) error) error {
	var errs []error
	for _, a := range c.Auth {
		if a.Password != "" {
			errs = append(errs, store(a.Host, a.User, a.Password))
		}
	}
	if clean, user, pw := secret.SplitProxy(c.Proxy); user != "" && pw != "" {
		errs = append(errs, store(secret.ProxyHost(clean), user, pw))
	}
	return errors.Join(errs...)
}
