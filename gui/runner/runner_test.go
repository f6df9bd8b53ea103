package runner

import (
	"context"
	"errors"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/logfile"
	"github.com/trawler/trawler/crawl/secret"
	"github.com/trawler/trawler/crawl/testsite"
	"github.com/trawler/trawler/db"
)

func openDB(t *testing.T) *db.DB {
	t.Helper()
	d, err := db.Open(filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

func site(t *testing.T, pages int, latency time.Duration) string {
	t.Helper()
	srv := httptest.NewServer(&testsite.Site{Pages: pages, OutDegree: 4, Latency: latency})
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

func config(seed string, threads int) crawl.Config {
	c := crawl.DefaultConfig()
	c.Seeds = []string{seed}
	c.Depth = 20
	c.Threads = threads
	return c
}

func state(t *testing.T, d *db.DB, id int64) db.CrawlInfo {
	t.Helper()
	info, err := d.CrawlInfo(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return info
}

// eventually waits for cond, failing the test after a generous deadline;
// it asserts an outcome, not a duration.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestStartRunsToDone(t *testing.T) {
	d := openDB(t)
	s, err := Start(d, "", config(site(t, 40, 0), 4))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Wait(); err != nil {
		t.Fatal(err)
	}
	info := state(t, d, s.ID)
	if info.State != db.StateDone || info.Pages != 40 || info.FinishedAt.IsZero() {
		t.Errorf("after the run: state %s, %d pages, finished %v", info.State, info.Pages, info.FinishedAt)
	}
	if p := s.Final(); p.Done != 40 || p.State != crawl.StateDone {
		t.Errorf("final progress %+v", p)
	}
	// The window writes the crawl's log beside the database, as the
	// command line does.
	log, err := os.ReadFile(logfile.Path(d.Path()))
	if err != nil || !strings.Contains(string(log), "crawl starting") || !strings.Contains(string(log), "crawl done") {
		t.Errorf("the log beside the database: %v\n%s", err, log)
	}
}

func TestStartRefusesBadSettings(t *testing.T) {
	d := openDB(t)
	c := config("http://127.0.0.1/", 0)
	c.Threads = -3
	_, err := Start(d, "x", c)
	var se *crawl.SettingError
	if !errors.As(err, &se) || se.Setting != "threads" {
		t.Fatalf("err = %v, want a threads SettingError", err)
	}
	if list, _ := d.Crawls(context.Background()); len(list) != 0 {
		t.Errorf("a refused crawl was recorded: %+v", list)
	}
}

func TestPauseResumeStopAndResumeLater(t *testing.T) {
	d := openDB(t)
	// 300 pages at 10 ms over two threads take at least 1.5 s, so the crawl
	// is still under way when Stop comes, however loaded the machine (at
	// 2 ms it once ran to its end between Resume and Stop under make test).
	seed := site(t, 300, 10*time.Millisecond)
	s, err := Start(d, "steered", config(seed, 2))
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, "some pages", func() bool { return s.Engine.Progress().Done >= 5 })
	s.Pause()
	eventually(t, "stored paused state", func() bool { return state(t, d, s.ID).State == db.StatePaused })
	if st := s.Engine.Progress().State; st != crawl.StatePaused {
		t.Fatalf("engine state %s after Pause", st)
	}
	s.Resume()
	eventually(t, "stored running state", func() bool { return state(t, d, s.ID).State == db.StateRunning })
	s.Stop()
	if err := s.Wait(); err != nil {
		t.Fatal(err)
	}
	info := state(t, d, s.ID)
	if info.State != db.StateStopped || info.URLs.Waiting == 0 {
		t.Fatalf("after Stop: state %s, %d waiting", info.State, info.URLs.Waiting)
	}
	s.Pause() // after the end: does nothing, records nothing
	s2, err := Resume(d, s.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := s2.Wait(); err != nil {
		t.Fatal(err)
	}
	if info := state(t, d, s.ID); info.State != db.StateDone || info.Pages != 300 || info.Name != "steered" {
		t.Errorf("after resuming: %+v", info)
	}
}

func TestResumeUnknownCrawl(t *testing.T) {
	if _, err := Resume(openDB(t), 99, nil); !errors.Is(err, db.ErrNotFound) {
		t.Errorf("err = %v, want ErrNotFound", err)
	}
}

// TestStartStoresNoPasswords checks that the engine runs with the
// passwords and the database gets the settings without them.
func TestStartStoresNoPasswords(t *testing.T) {
	d := openDB(t)
	cfg := config(site(t, 5, 0), 2)
	cfg.Auth = []crawl.HostAuth{{Host: "127.0.0.1", User: "me", Password: "pw"}}
	s, err := Start(d, "signed in", cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Wait(); err != nil {
		t.Fatal(err)
	}
	if got := s.Engine.Config().Auth[0].Password; got != "pw" {
		t.Errorf("engine password %q", got)
	}
	stored, err := d.Settings(context.Background(), s.ID)
	if err != nil || stored.Auth[0].Password != "" || stored.Auth[0].User != "me" {
		t.Errorf("stored auth %+v, %v", stored.Auth, err)
	}
	var asked []secret.Need
	s2, cycle, err := Recrawl(d, s.ID, false, func(n secret.Need) (string, error) { asked = append(asked, n); return "again", nil })
	if err != nil {
		t.Fatal(err)
	}
	if err := s2.Wait(); err != nil {
		t.Fatal(err)
	}
	if cycle != 1 || len(asked) != 1 || s2.Engine.Config().Auth[0].Password != "again" {
		t.Errorf("re-crawl: cycle %d, asked %v, auth %+v", cycle, asked, s2.Engine.Config().Auth)
	}
}
