package gui

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/testsite"
	"github.com/trawler/trawler/db"
	"github.com/trawler/trawler/gui/internal/fixture"
)

// TestLoopRunsHookEachCycle crawls with the on-completion action "loop"
// and a hook: the window starts re-crawl cycles by itself, the hook runs
// after each with the crawl's ID and database, and Stop ends the loop.
func TestLoopRunsHookEachCycle(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the test hook is a shell script")
	}
	dir := t.TempDir()
	record := filepath.Join(dir, "record")
	script := filepath.Join(dir, "hook.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho \"$@ $TRAWLER_CRAWL_STATE\" >> "+record+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(&testsite.Changing{Pages: 20})
	t.Cleanup(srv.Close)
	d := fixture.OpenDB(t)
	h := newHarness(t, d)
	nc := h.ui.newCrawl
	h.typeSeeds(srv.URL + "/")
	nc.adv.onCompletion.SetSelected(crawl.OnCompletionLoop)
	nc.adv.hook.SetText(script)
	test.Tap(nc.start)
	if h.ui.session == nil {
		t.Fatal("the crawl did not start")
	}
	id := h.ui.session.ID
	cycle := func() int {
		info, err := d.CrawlInfo(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		return info.Cycle
	}
	h.until("a third cycle", func() bool { return cycle() >= 2 })
	h.until("the loop to stop", func() bool {
		if h.ui.session != nil {
			h.ui.stopCrawl() // a cycle may end before Stop reaches it; the next one gets it
		}
		return h.ui.session == nil
	})
	info, err := d.CrawlInfo(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if info.State != db.StateStopped {
		t.Errorf("after Stop the crawl is %s, want %s", info.State, db.StateStopped)
	}
	b, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) < 2 || len(lines) != info.Cycle {
		t.Errorf("the hook ran %d times for %d finished cycles: %q", len(lines), info.Cycle, lines)
	}
	want := itoa(int(id)) + " " + d.Path() + " done"
	for _, l := range lines {
		if l != want {
			t.Errorf("hook got %q, want %q", l, want)
		}
	}
}
