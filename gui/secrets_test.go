package gui

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/testsite"
	"github.com/trawler/trawler/gui/form"
	"github.com/trawler/trawler/gui/internal/fixture"
)

// TestStartStoresNoPasswords starts a crawl from the form with a proxy URL
// and a sign-in that carry passwords: the engine gets them, the database
// and the preferences do not, and the keychain does when asked to.
func TestStartStoresNoPasswords(t *testing.T) {
	d := fixture.OpenDB(t)
	seed := fixture.Serve(t, &testsite.Site{Pages: 3, OutDegree: 1})
	h := newHarness(t, d)
	nc := h.ui.newCrawl
	h.typeSeeds(seed)
	nc.adv.proxy.SetText("http://px:proxy-pw@127.0.0.1:9")
	nc.adv.auth.fill([]form.Auth{{Host: "127.0.0.1", User: "me", Password: "site-pw"}})
	nc.adv.remember.SetChecked(true)
	nc.check()
	if nc.start.Disabled() {
		t.Fatalf("Start is off: %s", nc.why.Text)
	}
	test.Tap(nc.start)
	if h.ui.session == nil {
		t.Fatal("no crawl started")
	}
	run := h.ui.session.Engine.Config()
	if run.Proxy != "http://px:proxy-pw@127.0.0.1:9" || run.Auth[0].Password != "site-pw" {
		t.Errorf("the engine lacks the passwords: proxy %q, auth %+v", run.Proxy, run.Auth)
	}
	h.ui.stopCrawl() // no proxy listens there: the settings are what matters
	h.crawlDone()
	stored, err := d.Settings(context.Background(), h.ui.crawl)
	if err != nil {
		t.Fatal(err)
	}
	if stored.Proxy != "http://px@127.0.0.1:9" || len(stored.Auth) != 1 || stored.Auth[0].Password != "" || stored.Auth[0].User != "me" {
		t.Errorf("stored settings keep a password or lose a user: proxy %q, auth %+v", stored.Proxy, stored.Auth)
	}
	if prefs := h.ui.app.Preferences().String(form.PrefsKey); strings.Contains(prefs, "-pw") {
		t.Errorf("the preferences hold a password: %s", prefs)
	}
	h.until("the passwords in the keychain", func() bool {
		return h.keys.get("me@127.0.0.1") == "site-pw" && h.keys.get("px@proxy/127.0.0.1:9") == "proxy-pw"
	})
}

// TestResumeRecallsPasswords resumes a crawl with two sign-ins: the one the
// keychain holds is not asked for, the other is, and ticking the box
// remembers it.
func TestResumeRecallsPasswords(t *testing.T) {
	d := fixture.OpenDB(t)
	seed := fixture.Serve(t, &testsite.Site{Pages: 5, OutDegree: 2})
	cfg := crawl.DefaultConfig()
	cfg.Seeds = []string{seed}
	cfg.Auth = []crawl.HostAuth{{Host: "127.0.0.1", User: "me"}, {Host: "other.test", User: "you"}}
	if _, err := d.CreateCrawl(context.Background(), "two sign-ins", cfg); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, d)
	h.dismissResumeOffer() // the window offers to resume it at once; here it goes through Crawls
	_ = h.keys.remember("127.0.0.1", "me", "kept-pw")
	cs := h.ui.crawls
	h.until("the list", func() bool { return len(cs.list) == 1 })
	h.selectCrawl("two sign-ins")
	test.Tap(cs.resume)
	h.until("the password dialog", func() bool { return h.win.Canvas().Overlays().Top() != nil })
	if h.dialogSays("me @ 127.0.0.1") || !h.dialogSays("you @ other.test") || len(h.dialogEntries()) != 1 {
		t.Fatal("the dialog does not ask for exactly the password the keychain lacks")
	}
	h.dialogEntries()[0].SetText("typed-pw")
	deepWalk(h.overlay(), func(o fyne.CanvasObject) {
		if c, ok := o.(*widget.Check); ok {
			c.SetChecked(true)
		}
	})
	h.press("Resume")
	if h.ui.session == nil {
		t.Fatal("the crawl did not resume")
	}
	if got := h.ui.session.Engine.Config().Auth; got[0].Password != "kept-pw" || got[1].Password != "typed-pw" {
		t.Errorf("engine auth %+v", got)
	}
	h.crawlDone()
	h.until("the typed password in the keychain", func() bool { return h.keys.get("you@other.test") == "typed-pw" })
}
