package cli

import (
	"context"
	"encoding/csv"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trawler/trawler/crawl/testsite"
	"github.com/trawler/trawler/db"
)

// TestKilledRecrawlResumes crawls a site, changes it, starts a re-crawl
// in a child process, kills it with SIGKILL mid-cycle and resumes it: the
// change report then has exactly the site's counts, as if nothing had
// happened; changes, diff and the CSV of the list agree.
func TestKilledRecrawlResumes(t *testing.T) {
	site := &testsite.Changing{Pages: 400, Latency: 3e6}
	srv := httptest.NewServer(site)
	defer srv.Close()
	dbPath := filepath.Join(t.TempDir(), "t.db")
	site.SetCycle(0)
	if code, out, errs := run(t, "", "crawl", "--db", dbPath, "--depth", "50", "--threads", "4", "--quiet", srv.URL+"/"); code != ExitOK {
		t.Fatalf("crawl: exit %d\n%s\n%s", code, out, errs)
	}
	site.SetCycle(1)
	child := startChild(t, "recrawl", "--db", dbPath, "--quiet")
	d, err := db.Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	waitFor(t, "the child to store 60 visits of the re-crawl", func() bool {
		r, err := d.ChangeReport(context.Background(), 1, 1)
		return err == nil && r.Visits() >= 60
	})
	child.Process.Kill()
	child.Wait()
	if r, _ := d.ChangeReport(context.Background(), 1, 1); r.Visits() >= 420 || !r.FinishedAt.IsZero() {
		t.Fatalf("the child finished the re-crawl before it was killed: %+v", r)
	}

	code, out, errs := run(t, "", "resume", "--db", dbPath, "--quiet")
	if code != ExitOK || !strings.Contains(out, "cycle 1 of crawl 1: 20 new, 40 changed, 340 unchanged") ||
		!strings.Contains(out, "20 gone, 20 errors") {
		t.Fatalf("resume: exit %d\n%s\n%s", code, out, errs)
	}
	r, err := d.ChangeReport(context.Background(), 1, 1)
	if err != nil || r.New != 20 || r.Changed != 40 || r.Unchanged != 340 || r.Gone != 20 || r.Errors != 0 || r.FinishedAt.IsZero() {
		t.Errorf("report after the resume: %+v, %v", r, err)
	}

	code, out, _ = run(t, "", "stats", "--db", dbPath)
	if lines := strings.Split(out, "\n"); code != ExitOK || len(lines) < 2 || !strings.Contains(lines[0], "STATE  CYCLE") ||
		!strings.HasPrefix(strings.Join(strings.Fields(lines[1])[2:4], " "), "done 1") {
		t.Errorf("stats after one re-crawl: exit %d\n%s", code, out)
	}
	code, out, _ = run(t, "", "changes", "--db", dbPath, "--csv")
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if code != ExitOK || err != nil || len(recs) != 1+20+40+20 {
		t.Errorf("changes --csv: exit %d, %d rows, %v", code, len(recs), err)
	}
	changed := srv.URL + testsite.URLPath(site.Changed()[0])
	code, out, errs = run(t, "", "diff", "--db", dbPath, changed)
	if code != ExitOK || !strings.Contains(out, "[-") || !strings.Contains(out, "{+") || !strings.Contains(out, "--- cycle 0") {
		t.Errorf("diff: exit %d\n%s\n%s", code, out, errs)
	}
	code, _, errs = run(t, "", "diff", "--db", dbPath, changed, "0", "7")
	if code != ExitUsage || !strings.Contains(errs, "have: 1, 0") {
		t.Errorf("diff with a missing cycle: exit %d, %s", code, errs)
	}
}

func TestRecrawlNeedsADoneCrawl(t *testing.T) {
	site := &testsite.Site{Pages: 5, OutDegree: 2}
	srv := httptest.NewServer(site)
	defer srv.Close()
	dbPath := filepath.Join(t.TempDir(), "t.db")
	if code, _, errs := run(t, "", "crawl", "--db", dbPath, "--quiet", srv.URL+"/"); code != ExitOK {
		t.Fatalf("crawl: %s", errs)
	}
	d, err := db.Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.SetState(context.Background(), 1, db.StateStopped); err != nil {
		t.Fatal(err)
	}
	d.Close()
	code, _, errs := run(t, "", "recrawl", "--db", dbPath, "1")
	if code != ExitUsage || !strings.Contains(errs, "trawler resume") {
		t.Errorf("recrawl of a stopped crawl: exit %d, %s", code, errs)
	}
	if code, _, errs := run(t, "", "resume", "--db", dbPath, "--quiet"); code != ExitOK {
		t.Fatalf("resume: %s", errs)
	}
	code, out, errs := run(t, "", "recrawl", "--db", dbPath, "--quiet")
	if code != ExitOK || !strings.Contains(out, "cycle 1 of crawl 1: 0 new, 0 changed, 5 unchanged") {
		t.Errorf("recrawl: exit %d\n%s\n%s", code, out, errs)
	}
}

// TestOnCompletionLoop runs `crawl --on-completion loop` in a child
// process: it re-crawls each time a cycle ends, until interrupted.
func TestOnCompletionLoop(t *testing.T) {
	site := &testsite.Changing{Pages: 30}
	srv := httptest.NewServer(site)
	defer srv.Close()
	site.SetCycle(0)
	dbPath := filepath.Join(t.TempDir(), "t.db")
	child := startChild(t, "crawl", "--db", dbPath, "--depth", "50", "--on-completion", "loop", "--quiet", srv.URL+"/")
	d, err := db.Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	waitFor(t, "three finished cycles", func() bool {
		cycles, err := d.Cycles(context.Background(), 1)
		return err == nil && len(cycles) >= 3 && !cycles[2].FinishedAt.IsZero()
	})
	child.Process.Signal(os.Interrupt)
	if err := child.Wait(); err == nil || child.ProcessState.ExitCode() != ExitInterrupted {
		t.Errorf("the looping child ended with %v, want exit %d", err, ExitInterrupted)
	}
	for cycle := 1; cycle <= 2; cycle++ {
		r, err := d.ChangeReport(context.Background(), 1, cycle)
		if err != nil || r.Unchanged != 30 || r.Visits() != 30 {
			t.Errorf("cycle %d: %+v, %v; want 30 unchanged pages", cycle, r, err)
		}
	}
}
