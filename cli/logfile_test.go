package cli

import (
	"bytes"
	"encoding/base64"
	"log/slog"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/testsite"
)

func TestLogPath(t *testing.T) {
	for in, want := range map[string]string{
		"/data/trawler.db": "/data/trawler.log",
		"crawls.sqlite":    "crawls.log",
		"/data/x":          "/data/x.log",
		"/a.b/x":           "/a.b/x.log",
		"x.log":            "x.log.log",
	} {
		if got := logPath(in); got != want {
			t.Errorf("logPath(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRedactor(t *testing.T) {
	c := crawl.DefaultConfig()
	c.Auth = []crawl.HostAuth{{Host: "a:80", User: "me", Password: "p@ss w/rd"}}
	c.Proxy = "http://px:pr0xy-pw@proxy:3128"
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(newRedactor(&buf, c), nil))
	log.Info("tried p@ss w/rd", "url", "http://me:"+url.PathEscape("p@ss w/rd")+"@a/", "q", url.QueryEscape("p@ss w/rd"),
		"header", "Basic "+base64.StdEncoding.EncodeToString([]byte("me:p@ss w/rd")), "proxy", c.Proxy, "auth", c.Auth[0])
	got := buf.String()
	for _, s := range []string{"p@ss", "ss w", "p%40ss", "pr0xy-pw", base64.StdEncoding.EncodeToString([]byte("me:p@ss w/rd"))} {
		if strings.Contains(got, s) {
			t.Errorf("log holds %q: %s", s, got)
		}
	}
	if strings.Count(got, "***") < 5 || !strings.Contains(got, "auth.host=a:80") {
		t.Errorf("log line %s", got)
	}
}

// TestLogBesideDatabase checks the log lands beside the database and
// follows --log-level: 0 keeps errors only, 3 adds a line per fetch.
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
