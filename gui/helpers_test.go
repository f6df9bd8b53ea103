package gui

import (
	_ "github.com/trawler/trawler/gui/fynelocale" // quiet under C.UTF-8, as the binary is
	"image"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/trawler/trawler/crawl/secret"
	"github.com/trawler/trawler/db"
	"github.com/trawler/trawler/gui/form"
	"github.com/trawler/trawler/gui/internal/fixture"
)

// fixedTime writes times in UTC, and times of today (crawls made by the
// test) as a fixed text, so screenshots do not change from run to run.
func fixedTime(t time.Time) string {
	switch {
	case t.IsZero():
		return "—"
	case time.Since(t) < 24*time.Hour:
		return "today"
	}
	return t.UTC().Format("2006-01-02 15:04:05")
}

// harness is a window on a test app whose UI goroutine is the test's.
type harness struct {
	t      testing.TB
	ui     *UI
	win    fyne.Window
	loop   *fixture.Loop
	closed bool // the window was closed
	keys   *keychain
}

// keychain stands in for the system keychain, which the window reaches
// through Options.Recall and Remember off the UI goroutine (crawl/secret
// and cli test the real one).
type keychain struct {
	mu sync.Mutex
	m  map[string]string
}

func (k *keychain) recall(host, user string) (string, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if pw, ok := k.m[user+"@"+host]; ok {
		return pw, nil
	}
	return "", secret.ErrNotFound
}

func (k *keychain) remember(host, user, pw string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.m[user+"@"+host] = pw
	return nil
}

// get returns what the keychain holds for user@host, "" for nothing.
func (k *keychain) get(account string) string {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.m[account]
}

// newHarness opens the window on d (nil for none), sized like the real one.
func newHarness(t testing.TB, d *db.DB) *harness {
	t.Helper()
	a := test.NewTempApp(t)
	w := test.NewWindow(widget.NewLabel(""))
	loop := fixture.NewLoop()
	keys := &keychain{m: map[string]string{}}
	ui := New(a, w, d, Options{Do: loop.Do, TimeText: fixedTime, Poll: 10 * time.Millisecond,
		Recall: keys.recall, Remember: keys.remember})
	w.Resize(WindowSize)
	h := &harness{t: t, ui: ui, win: w, loop: loop, keys: keys}
	w.SetOnClosed(func() { h.closed = true })
	t.Cleanup(func() {
		if !h.closed {
			w.Close()
		}
		if s := ui.session; s != nil {
			s.Stop()
			_ = s.Wait()
			loop.Drain()
		}
		ui.results.close()
	})
	h.settle()
	return h
}

// until runs the UI queue until cond holds.
func (h *harness) until(what string, cond func() bool) {
	h.t.Helper()
	h.loop.Until(h.t, what, cond)
}

// settle runs the UI queue until background reads have come back and
// been shown.
func (h *harness) settle() {
	h.t.Helper()
	h.until("the background reads", func() bool { return h.ui.pending.Load() == 0 })
	h.loop.Drain()
}

// typeSeeds replaces the seeds box's text as a user would.
func (h *harness) typeSeeds(text string) {
	s := h.ui.newCrawl.seeds
	s.SetText("")
	test.Type(s, text)
}

// crawlDone waits for the crawl started in the window to end.
func (h *harness) crawlDone() {
	h.t.Helper()
	h.until("the crawl to end", func() bool { return h.ui.session == nil })
}

// shortcut presses Ctrl+key on the window.
func (h *harness) shortcut(key fyne.KeyName) {
	h.win.Canvas().(fyne.Shortcutable).TypedShortcut(shortcut(key))
}

// capture lays the window out as the real driver does before each frame
// (the test canvas does not) and returns its picture.
func (h *harness) capture() image.Image {
	relayout(h.win.Canvas().Content())
	for _, o := range h.win.Canvas().Overlays().List() {
		relayout(o)
	}
	return h.win.Canvas().Capture()
}

// relayout lays out o and everything in it, parents first, so objects
// shown or grown since the last layout take their place.
func relayout(o fyne.CanvasObject) {
	if !o.Visible() {
		return
	}
	switch v := o.(type) {
	case *fyne.Container:
		if v.Layout != nil {
			v.Layout.Layout(v.Objects, v.Size())
		}
		for _, c := range v.Objects {
			relayout(c)
		}
	case fyne.Widget:
		r := test.WidgetRenderer(v)
		r.Layout(v.Size())
		for _, c := range r.Objects() {
			relayout(c)
		}
	}
}

func formAuth(host, user string) form.Auth { return form.Auth{Host: host, User: user} }

// walk calls fn for o and every object inside it that containers and
// scrollers hold.
func walk(o fyne.CanvasObject, fn func(fyne.CanvasObject)) {
	fn(o)
	switch v := o.(type) {
	case *fyne.Container:
		for _, c := range v.Objects {
			walk(c, fn)
		}
	case *container.Scroll:
		walk(v.Content, fn)
	case *container.Split:
		walk(v.Leading, fn)
		walk(v.Trailing, fn)
	case *container.AppTabs:
		for _, it := range v.Items {
			walk(it.Content, fn)
		}
	}
}

func findAccordion(o fyne.CanvasObject) *widget.Accordion {
	var found *widget.Accordion
	walk(o, func(c fyne.CanvasObject) {
		if a, ok := c.(*widget.Accordion); ok && found == nil {
			found = a
		}
	})
	return found
}
