package cli

import (
	"context"
	"flag"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/neardup"
	"github.com/trawler/trawler/crawl/profile"
	"github.com/trawler/trawler/crawl/testsite"
	"github.com/trawler/trawler/db"
)

// TestEverySettingIsAFlag: each profile key but seeds (the SEED arguments)
// is a flag of trawler crawl and of trawler profile export.
func TestEverySettingIsAFlag(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	c := crawl.DefaultConfig()
	settingFlags(fs, &c)
	for _, k := range profile.Keys() {
		if k != "seeds" && fs.Lookup(k) == nil {
			t.Errorf("profile key %q has no flag", k)
		}
	}
	fs.VisitAll(func(f *flag.Flag) {
		if f.Usage == "" {
			t.Errorf("flag --%s has no help", f.Name)
		}
	})
}

// exportProfile runs trawler profile export with args and loads the result.
func exportProfile(t *testing.T, args ...string) crawl.Config {
	t.Helper()
	code, out, errs := run(t, "", append([]string{"profile", "export"}, args...)...)
	if code != ExitOK {
		t.Fatalf("profile export %v: exit %d: %s", args, code, errs)
	}
	c, err := profile.Load(strings.NewReader(out))
	if err != nil {
		t.Fatalf("the exported profile does not load: %v\n%s", err, out)
	}
	return c
}

func TestProfileExportFlags(t *testing.T) {
	c := exportProfile(t, "--robots=false", "--delay", "500ms", "--per-host", "3", "--rps", "2.5", "--sitemaps",
		"--content-types", "text/html, application/pdf", "--content-types", "text/plain", "--auth", "intranet:8080=me",
		"--max-size", "2MiB", "--include", "a", "--include", "b", "--log-level", "4", "--on-completion", "quit",
		"--store-ip=false", "--trap-budget", "10", "https://example.org/")
	want := crawl.DefaultConfig()
	want.Robots, want.Delay, want.PerHost, want.RPS, want.Sitemaps = false, 500*time.Millisecond, 3, 2.5, true
	want.ContentTypes = []string{"text/html", "application/pdf", "text/plain"}
	want.Auth = []crawl.HostAuth{{Host: "intranet:8080", User: "me"}}
	want.MaxSize, want.Include, want.LogLevel, want.OnCompletion = 2<<20, []string{"a", "b"}, 4, "quit"
	want.StoreIP, want.TrapBudget, want.Seeds = false, 10, []string{"https://example.org/"}
	if d := diff(c, want); d != "" {
		t.Errorf("exported profile differs: %s", d)
	}
}

func TestProfileThenFlags(t *testing.T) {
	dir := t.TempDir()
	prof := filepath.Join(dir, "p.toml")
	os.WriteFile(prof, []byte("threads = 3\ndepth = 2\ndelay = '2s'\nseeds = ['https://example.org/']\n"), 0o644)

	c := exportProfile(t, "--profile", prof, "--depth", "7")
	if c.Threads != 3 || c.Depth != 7 || c.Delay != 2*time.Second || c.Seeds[0] != "https://example.org/" {
		t.Errorf("profile then flags: threads %d depth %d delay %v seeds %v; want 3, 7 (the flag), 2s, the profile's seed",
			c.Threads, c.Depth, c.Delay, c.Seeds)
	}
	c = exportProfile(t, "--preset", "polite", "--profile", prof, "--per-host", "2", "https://example.net/")
	if c.PerHost != 2 || c.Threads != 3 || c.Delay != 2*time.Second || c.Seeds[0] != "https://example.net/" {
		t.Errorf("preset, profile, flags, seeds: %+v", c)
	}
	c = exportProfile(t, "--preset", "polite")
	if c.PerHost != 1 || c.Delay != time.Second || !c.Robots || c.Threads != 4 {
		t.Errorf("polite preset: per-host %d delay %v robots %v threads %d", c.PerHost, c.Delay, c.Robots, c.Threads)
	}

	// A full export read back as a profile gives the same export.
	code, first, _ := run(t, "", "profile", "export", "--preset", "archive", "--auth", "h:81=u", "https://example.org/")
	os.WriteFile(prof, []byte(first), 0o644)
	code2, second, _ := run(t, "", "profile", "export", "--profile", prof)
	if code != ExitOK || code2 != ExitOK || first != second {
		t.Errorf("export → profile → export changed it:\n%s\n---\n%s", first, second)
	}
	if code, out, _ := run(t, "", "profile", "check", prof); code != ExitOK || !strings.Contains(out, "ok") {
		t.Errorf("check of an exported profile: exit %d %q", code, out)
	}
}

func TestBadProfileRefused(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.toml")
	os.WriteFile(bad, []byte("depth = 2\n\n# many workers\nthreads = 5000\n"), 0o644)
	dbPath := filepath.Join(dir, "t.db")
	for _, args := range [][]string{
		{"crawl", "--db", dbPath, "--profile", bad, "http://127.0.0.1:1/"},
		{"profile", "check", bad},
		{"profile", "export", "--profile", bad},
	} {
		code, _, errs := run(t, "", args...)
		want := bad + `: profile line 4: key "threads": must be between 1 and 1000, got 5000`
		if code != ExitUsage || !strings.Contains(errs, want) || strings.Count(strings.TrimSpace(errs), "\n") > 0 {
			t.Errorf("%v: exit %d, stderr %q; want one line with %q", args[:2], code, errs, want)
		}
	}
	if _, err := os.Stat(dbPath); err == nil {
		t.Error("a refused profile still created the database")
	}
	code, _, errs := run(t, "", "crawl", "--db", dbPath, "--profile", filepath.Join(dir, "missing.toml"), "http://127.0.0.1:1/")
	if code != ExitUsage || !strings.Contains(errs, "missing.toml") {
		t.Errorf("missing profile: exit %d %q", code, errs)
	}
	for _, args := range [][]string{
		{"crawl", "--auth", "h=me:pw", "http://127.0.0.1:1/"},
		{"crawl", "--auth", "nouser", "http://127.0.0.1:1/"},
		{"crawl", "--preset", "rude", "http://127.0.0.1:1/"},
		{"crawl", "--delay", "-1s", "http://127.0.0.1:1/"},
		{"crawl", "--log-level", "9", "http://127.0.0.1:1/"},
		{"profile", "export", "--mix", "2"},
		{"profile", "nonsense"},
	} {
		if code, _, errs := run(t, "", args...); code != ExitUsage {
			t.Errorf("%v: exit %d (%s), want %d", args, code, errs, ExitUsage)
		}
	}
}

// TestCrawlWithProfile crawls with a profile and a flag beside it, and the
// stored settings show both, and the latest sketch version.
func TestCrawlWithProfile(t *testing.T) {
	srv := httptest.NewServer(&testsite.Site{Pages: 20, OutDegree: 3})
	defer srv.Close()
	dir := t.TempDir()
	prof := filepath.Join(dir, "p.toml")
	os.WriteFile(prof, []byte("depth = 1\nthreads = 2\nseeds = ['"+srv.URL+"/']\n"), 0o644)
	dbPath := filepath.Join(dir, "t.db")
	code, out, errs := run(t, "", "crawl", "--db", dbPath, "--quiet", "--profile", prof, "--threads", "3")
	if code != ExitOK {
		t.Fatalf("exit %d %s %s", code, out, errs)
	}
	c := exportProfile(t, "--db", dbPath, "--crawl", "1")
	if c.Depth != 1 || c.Threads != 3 || c.Seeds[0] != srv.URL+"/" {
		t.Errorf("stored settings: depth %d threads %d seeds %v", c.Depth, c.Threads, c.Seeds)
	}
	if v := storedSketchVersion(t, dbPath, 1); v != neardup.LatestVersion {
		t.Errorf("stored sketch version %d, want %d", v, neardup.LatestVersion)
	}
	if code, out, _ := run(t, "", "profile", "presets"); code != ExitOK || !strings.Contains(out, "polite") || !strings.Contains(out, "archive") {
		t.Errorf("profile presets: exit %d %q", code, out)
	}
}

// storedSketchVersion returns the sketch version of crawl id in the
// database at path.
func storedSketchVersion(t *testing.T, path string, id int64) int {
	t.Helper()
	d, err := db.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	c, err := d.Settings(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return c.SketchVersion
}

// diff names the first setting in which a and b differ, or "".
func diff(a, b crawl.Config) string {
	var sa, sb strings.Builder
	profile.Save(&sa, a)
	profile.Save(&sb, b)
	la, lb := strings.Split(sa.String(), "\n"), strings.Split(sb.String(), "\n")
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			return "got " + la[i] + ", want " + lb[i]
		}
	}
	if len(la) != len(lb) {
		return "different auth entries"
	}
	return ""
}
