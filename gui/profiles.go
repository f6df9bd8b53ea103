package gui

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/profile"
	"github.com/trawler/trawler/gui/form"
)

// profileBar is the New crawl form's preset selector and its Import and
// Export profile buttons.
type profileBar struct {
	s                 *newCrawlScreen
	content           fyne.CanvasObject
	preset            *widget.Select
	about             *widget.Label
	importBtn, export *widget.Button
	presets           []profile.Preset
	choosing          bool // the selector is being reset: no apply
}

func newProfileBar(s *newCrawlScreen) *profileBar {
	b := &profileBar{s: s, presets: profile.Presets()}
	var names []string
	for _, p := range b.presets {
		names = append(names, p.Name)
	}
	b.about = widget.NewLabel("")
	b.about.Truncation = fyne.TextTruncateEllipsis
	b.preset = widget.NewSelect(names, b.onPreset)
	b.preset.PlaceHolder = "Apply a preset…"
	b.importBtn = widget.NewButtonWithIcon("Import profile…", theme.FolderOpenIcon(), b.importDialog)
	b.export = widget.NewButtonWithIcon("Export profile…", theme.DocumentSaveIcon(), b.exportDialog)
	b.content = container.NewBorder(nil, nil, b.preset, container.NewHBox(b.importBtn, b.export), b.about)
	return b
}

func (b *profileBar) onPreset(name string) {
	if name == "" { // the selector was cleared
		return
	}
	p, err := profile.FindPreset(name)
	if err == nil {
		err = b.s.applyOver(p.Apply)
	}
	if err != nil {
		b.s.ui.showError(err)
		return
	}
	b.about.SetText("Applied " + name + ": " + p.Description)
	b.preset.ClearSelected() // so the same preset can be applied again after edits
}

// applyOver changes the form by what change does to its settings: fields
// the change leaves alone keep their text as typed, even when wrong.
func (s *newCrawlScreen) applyOver(change func(*crawl.Config) error) error {
	cur := s.read()
	before := form.Check(cur).Config
	after := before
	if err := change(&after); err != nil {
		return err
	}
	s.fill(mergeFields(cur, form.FromConfig(before, ""), form.FromConfig(after, "")))
	return nil
}

// mergeFields returns cur with each field that differs between before and
// after set to after's value. Sign-ins compare by host and user; their
// typed passwords stay with them.
func mergeFields(cur, before, after form.Fields) form.Fields {
	cv, bv, av := reflect.ValueOf(&cur).Elem(), reflect.ValueOf(before), reflect.ValueOf(after)
	for i := range cv.NumField() {
		if cv.Type().Field(i).Name == "Auth" {
			continue
		}
		if !reflect.DeepEqual(bv.Field(i).Interface(), av.Field(i).Interface()) {
			cv.Field(i).Set(av.Field(i))
		}
	}
	if !sameUsers(before.Auth, after.Auth) {
		typed := map[[2]string]string{}
		for _, a := range cur.Auth {
			typed[[2]string{a.Host, a.User}] = a.Password
		}
		cur.Auth = nil
		for _, a := range after.Auth {
			a.Password = typed[[2]string{a.Host, a.User}]
			cur.Auth = append(cur.Auth, a)
		}
	}
	return cur
}

func sameUsers(a, b []form.Auth) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Host != b[i].Host || a[i].User != b[i].User {
			return false
		}
	}
	return true
}

// importFrom reads a profile over the form's settings.
func (s *newCrawlScreen) importFrom(r io.Reader, name string) error {
	err := s.applyOver(func(c *crawl.Config) error {
		out, err := profile.LoadOver(*c, r)
		*c = out
		return err
	})
	if err != nil {
		return fmt.Errorf("import profile %s: %w", name, err)
	}
	return nil
}

// exportTo writes the form's settings as a profile, without passwords. The
// seeds may be missing; every other field must be right.
func (s *newCrawlScreen) exportTo(w io.Writer) error {
	r := form.Check(s.read())
	var bad []string
	for field, msg := range r.Errors {
		if field != form.FieldSeeds && field != form.FieldName {
			bad = append(bad, field+": "+msg)
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("export profile: fix the form first — %s", strings.Join(bad, "; "))
	}
	var buf bytes.Buffer
	if err := profile.Save(&buf, r.Config); err != nil {
		return fmt.Errorf("export profile: %w", err)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

func (b *profileBar) importDialog() {
	ui := b.s.ui
	dlg := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil {
			ui.showError(fmt.Errorf("choose a profile: %w", err))
			return
		}
		if r == nil {
			return
		}
		defer r.Close()
		if err := b.s.importFrom(r, r.URI().Name()); err != nil {
			ui.showError(err)
			return
		}
		b.about.SetText("Imported " + r.URI().Name())
	}, ui.win)
	dlg.SetFilter(storage.NewExtensionFileFilter([]string{".toml"}))
	ui.startIn(dlg)
	dlg.Show()
}

func (b *profileBar) exportDialog() {
	ui := b.s.ui
	var buf bytes.Buffer
	if err := b.s.exportTo(&buf); err != nil {
		ui.showError(err)
		return
	}
	dlg := dialog.NewFileSave(func(w fyne.URIWriteCloser, err error) {
		if err != nil {
			ui.showError(fmt.Errorf("choose where to export the profile: %w", err))
			return
		}
		if w == nil {
			return
		}
		_, werr := w.Write(buf.Bytes())
		if err := errors.Join(werr, w.Close()); err != nil {
			ui.showError(fmt.Errorf("export profile to %s: %w", w.URI().Path(), err))
		}
	}, ui.win)
	dlg.SetFileName("crawl.toml")
	ui.startIn(dlg)
	dlg.Show()
}

// controls maps every profile key to the form control that sets it.
func (s *newCrawlScreen) controls() map[string]fyne.CanvasObject {
	a := s.adv
	return map[string]fyne.CanvasObject{
		"seeds": s.seeds, "depth": s.depth, "threads": s.threads, "per-host": a.perHost,
		"strategy": s.strategy, "mix": s.mix, "seed": a.randSeed, "max-pages": s.maxPages,
		"scope": s.scope, "include": a.include, "exclude": a.exclude,
		"connect-timeout": a.connectTimeout, "timeout": a.timeout, "max-redirects": a.maxRedirects,
		"user-agent": a.userAgent, "max-size": a.maxSize, "proxy": a.proxy, "resources": a.resources,
		"content-types": a.contentTypes, "max-url-length": a.maxURLLength, "expected-urls": a.expectedURLs,
		"memory-urls": a.memURLs, "robots": a.robots, "sitemaps": a.sitemaps, "delay": a.delay,
		"max-crawl-delay": a.maxCrawlDelay, "robots-retry": a.robotsRetry, "rps": a.rps,
		"max-per-host": a.maxPerHost, "store-ip": a.storeIP, "trap-budget": a.trapBudget,
		"trap-repeats": a.trapRepeats, "max-query-params": a.queryParams, "keep-versions": a.keepVersions,
		"revisit-min": a.revisitMin, "revisit-max": a.revisitMax, "near-threshold": a.nearThreshold, "near-window": a.nearWindow,
		"on-completion": a.onCompletion, "log-level": a.logLevel, "hook": a.hook, "auth": a.auth.list,
		"word-lists": a.wordLists,
	}
}
