package cli

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trawler/trawler/crawl/testsite"
)

func TestLogBesideDatabase(t *testing.T) {
	srv := httptest.NewServer(&testsite.Site{Pages: 12, OutDegree: 3})
	defer srv.Close()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "my crawls.db")
	if code, out, errs := run(t, "", "crawl", "--db", dbPath, "--quiet", "--log-level", "0", srv.URL+"/"); code != ExitOK {
		t.Fatalf("exit %d %s %s", code, out, errs)
	}
	b, err := os.ReadFile(filepath.Join(dir, "my crawls.log"))
	if err != nil {
		t.Fatal(err)
	}
	if len(b) != 0 {
		t.Errorf("log level 0 wrote non-errors:\n%s", b)
	}
	if code, out, errs := run(t, "", "crawl", "--db", dbPath, "--quiet", "--log-level", "3", srv.URL+"/"); code != ExitOK {
		t.Fatalf("exit %d %s %s", code, out, errs)
	}
	b, _ = os.ReadFile(filepath.Join(dir, "my crawls.log"))
	if n := strings.Count(string(b), "msg=fetched"); n != 12 || !strings.Contains(string(b), "crawl=2") {
		t.Errorf("log level 3: %d fetch lines, want 12, each with crawl=2:\n%s", n, b)
	}
	if fi, err := os.Stat(filepath.Join(dir, "my crawls.log")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("log file mode %v, %v; want 0600", fi.Mode(), err)
	}
}

func TestHook(t *testing.T) {
	srv := httptest.NewServer(&testsite.Site{Pages: 3, OutDegree: 2})
	defer srv.Close()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "t.db")
	script := filepath.Join(dir, "hook.sh")
	record := filepath.Join(dir, "hook.out")
	os.WriteFile(script, []byte("#!/bin/sh\necho \"$@ $TRAWLER_CRAWL_STATE\" > "+record+"\necho hook says hi\n"), 0o755)

	code, out, errs := run(t, "", "crawl", "--db", dbPath, "--quiet", "--hook", script+" --flag", srv.URL+"/")
	if code != ExitOK || !strings.Contains(errs, "hook says hi") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	b, _ := os.ReadFile(record)
	if got, want := strings.TrimSpace(string(b)), "--flag 1 "+dbPath+" done"; got != want {
		t.Errorf("hook got %q, want %q", got, want)
	}

	code, _, errs = run(t, "", "crawl", "--db", dbPath, "--quiet", "--hook", filepath.Join(dir, "missing-hook"), srv.URL+"/")
	if code != ExitOK || !strings.Contains(errs, "hook") || !strings.Contains(errs, "failed") {
		t.Errorf("failing hook: exit %d, stderr %q; want exit 0 and the failure reported", code, errs)
	}
	log, _ := os.ReadFile(filepath.Join(dir, "t.log"))
	if !strings.Contains(string(log), "hook failed") || !strings.Contains(string(log), "hook ran") {
		t.Errorf("log does not record the hooks:\n%s", log)
	}
}
