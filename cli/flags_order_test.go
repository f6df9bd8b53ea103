package cli

import (
	"flag"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trawler/trawler/crawl/testsite"
)

func TestFlagsFirst(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.String("db", "", "")
	fs.Int("depth", 0, "")
	fs.Bool("json", false, "")
	tests := []struct{ in, want string }{
		{"q --db f", "--db f -- q"},
		{"--db f q", "--db f -- q"},
		{"URL --depth 0", "--depth 0 -- URL"},
		{"a --json b", "--json -- a b"},
		{"a --depth=3 b", "--depth=3 -- a b"},
		{"a -- --db f", "-- a --db f"},
		{"- --json", "--json -- -"},
		{"a --nosuch b", "--nosuch -- a b"},
		{"a --db", "missing --db"},
	}
	for _, tt := range tests {
		ordered, bare := flagsFirst(fs, strings.Fields(tt.in))
		got := strings.Join(ordered, " ")
		if bare != "" {
			got = "missing " + bare
		}
		if got != tt.want {
			t.Errorf("flagsFirst(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestFlagsAfterArguments: flags after positional arguments are used, not
// ignored (search used to answer from the default database).
func TestFlagsAfterArguments(t *testing.T) {
	site := &testsite.Site{Pages: 20, OutDegree: 3}
	site.Record()
	srv := httptest.NewServer(site)
	defer srv.Close()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "cli.db")
	t.Setenv("HOME", dir) // a default database would land here
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	code, out, errs := run(t, "", "crawl", srv.URL+"/", "--depth", "0", "--db", dbPath)
	if code != ExitOK || !strings.Contains(out, "1 done") {
		t.Fatalf("crawl URL --depth 0: exit %d\n%s%s", code, out, errs)
	}
	if got := site.Requests(); !slices.Equal(got, []string{"/robots.txt", "/"}) && !slices.Equal(got, []string{"/"}) {
		t.Errorf("crawl URL --depth 0 requested %v; want the seed only", got)
	}
	code, out, errs = run(t, "", "search", "page-0", "--db", dbPath)
	if code != ExitOK || !strings.Contains(out, srv.URL+"/") {
		t.Errorf("search Q --db F: exit %d\n%s%s", code, out, errs)
	}
	if _, err := os.Stat(filepath.Join(dir, "config", "trawler", "trawler.db")); err == nil {
		t.Error("a default database was created")
	}
	code, _, errs = run(t, "", "search", "--db", dbPath, "--", "-page")
	if code != ExitOK {
		t.Errorf("search -- -page: exit %d, %s", code, errs)
	}
	if code, _, errs = run(t, "", "stats", dbPath); code != ExitUsage {
		t.Errorf("stats FILE: exit %d, %s; want a usage error, not the default database", code, errs)
	}
}
