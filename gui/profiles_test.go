package gui

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/trawler/trawler/crawl/profile"
	"github.com/trawler/trawler/gui/form"
	"github.com/trawler/trawler/gui/internal/fixture"
)

// controlValue reads what a form control shows.
func controlValue(o fyne.CanvasObject) string {
	switch v := o.(type) {
	case *widget.Entry:
		return v.Text
	case *widget.Check:
		return fmt.Sprint(v.Checked)
	case *widget.Select:
		return v.Selected
	case *widget.RadioGroup:
		return v.Selected
	case *widget.Slider:
		return fmt.Sprint(v.Value)
	case *fyne.Container: // the sign-in rows
		var rows []string
		for _, r := range v.Objects {
			deepWalk(r, func(o fyne.CanvasObject) {
				if e, ok := o.(*widget.Entry); ok {
					rows = append(rows, e.Text)
				}
			})
		}
		return strings.Join(rows, "|")
	}
	return fmt.Sprintf("unknown control %T", o)
}

// TestEveryProfileKeyHasAControl walks every profile key, finds its control
// in the form, and imports a profile setting every key to a value other
// than its default: each control must show the change.
func TestEveryProfileKeyHasAControl(t *testing.T) {
	h := newHarness(t, fixture.OpenDB(t))
	nc := h.ui.newCrawl
	nc.fill(form.Defaults())
	controls := nc.controls()
	before := map[string]string{}
	for _, key := range profile.Keys() {
		c, ok := controls[key]
		if !ok {
			t.Errorf("profile key %q has no control in the form", key)
			continue
		}
		before[key] = controlValue(c)
	}
	if len(controls) != len(profile.Keys()) {
		t.Errorf("%d controls for %d profile keys", len(controls), len(profile.Keys()))
	}
	doc, err := os.ReadFile(filepath.Join("testdata", "every-key.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := nc.importFrom(bytes.NewReader(doc), "every-key.toml"); err != nil {
		t.Fatal(err)
	}
	for key, was := range before {
		if now := controlValue(controls[key]); now == was {
			t.Errorf("importing %q left its control at %q", key, now)
		}
	}
	if !nc.result.OK() {
		t.Errorf("the imported form is not right: %s", nc.result.Summary())
	}
	var out bytes.Buffer
	if err := nc.exportTo(&out); err != nil {
		t.Fatal(err)
	}
	again, err := profile.Load(&out)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := profile.Load(bytes.NewReader(doc))
	if fmt.Sprint(again) != fmt.Sprint(want) {
		t.Errorf("export after import:\n got %+v\nwant %+v", again, want)
	}
}

// TestPresetSetsTheForm applies the polite preset from the selector; the
// fields it does not set keep what was typed.
func TestPresetSetsTheForm(t *testing.T) {
	h := newHarness(t, fixture.OpenDB(t))
	nc := h.ui.newCrawl
	nc.fill(form.Defaults())
	nc.adv.perHost.SetText("8")
	nc.adv.delay.SetText("0")
	nc.depth.SetText("not a number")
	nc.profiles.preset.SetSelected("polite")
	a := nc.adv
	if a.perHost.Text != "1" || a.delay.Text != "1s" || nc.threads.Text != "4" || !a.robots.Checked {
		t.Errorf("after polite: per-host %q delay %q threads %q robots %v", a.perHost.Text, a.delay.Text, nc.threads.Text, a.robots.Checked)
	}
	if nc.depth.Text != "not a number" {
		t.Errorf("a field the preset does not set changed: depth %q", nc.depth.Text)
	}
	if !strings.Contains(nc.profiles.about.Text, "1 request at a time") {
		t.Errorf("preset description %q", nc.profiles.about.Text)
	}
}

// TestImportErrorSaysLine shows a refused profile's line and reason.
func TestImportErrorSaysLine(t *testing.T) {
	h := newHarness(t, fixture.OpenDB(t))
	nc := h.ui.newCrawl
	err := nc.importFrom(strings.NewReader("depth = 3\nthreads = 5000\n"), "bad.toml")
	if err == nil || !strings.Contains(err.Error(), "line 2") || !strings.Contains(err.Error(), "threads") {
		t.Fatalf("import error %v", err)
	}
	if nc.threads.Text == "5000" {
		t.Error("a refused profile changed the form")
	}
	h.ui.showError(err)
	if !h.dialogSays("line 2") {
		t.Error("the dialog does not show the line")
	}
}
