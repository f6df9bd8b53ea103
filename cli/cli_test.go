package cli

import (
	"bytes"
	"context"
	"encoding/csv"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trawler/trawler/crawl/neardup"
	"github.com/trawler/trawler/crawl/testsite"
	"github.com/trawler/trawler/db"
)

// TestMain lets a test run this test binary as the trawler command, to kill
// it mid-crawl like a user's machine might.
func TestMain(m *testing.M) {
	if os.Getenv("TRAWLER_TEST_AS_CLI") == "1" {
		os.Exit(Main(os.Args[1:], Std()))
	}
	os.Exit(m.Run())
}

// run calls Main with args and returns its exit code and output.
func run(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(args, IO{In: strings.NewReader(stdin), Out: &out, Err: &errb})
	return code, out.String(), errb.String()
}

func TestFingerprint(t *testing.T) {
	tests := []struct {
		name  string
		stdin string
		args  []string
		want  string
	}{
		{"args", "", []string{"fingerprint", "abc", ""}, "0000000001616263\tabc\n0000000000000001\t\n"},
		{"stdin lines", "abc\n\nabc", []string{"fingerprint"}, "0000000001616263\n0000000000000001\n0000000001616263\n"},
		{"stdin empty", "", []string{"fingerprint"}, ""},
		{"crlf stays in the line", "abc\r\n", []string{"fingerprint"}, "00000001616263" + "0d\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := run(t, tt.stdin, tt.args...)
			if code != ExitOK || out != tt.want {
				t.Errorf("exit %d, stdout %q (stderr %q), want %q", code, out, errs, tt.want)
			}
		})
	}
	t.Run("long line", func(t *testing.T) {
		long := strings.Repeat("x", 1<<20)
		_, viaStdin, _ := run(t, long+"\n", "fingerprint")
		_, viaArg, _ := run(t, "", "fingerprint", long)
		if !strings.HasPrefix(viaArg, strings.TrimSuffix(viaStdin, "\n")+"\t") {
			t.Errorf("stdin %q, arg %q", viaStdin, viaArg[:20])
		}
	})
	t.Run("poly", func(t *testing.T) {
		_, out, _ := run(t, "", "fingerprint", "--poly")
		if len(strings.TrimSpace(out)) != 16 {
			t.Errorf("--poly printed %q", out)
		}
	})
}

func TestUsageErrors(t *testing.T) {
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "t.db")
	garbage := filepath.Join(dir, "garbage.db")
	os.WriteFile(garbage, bytes.Repeat([]byte("not a database "), 1000), 0o644)
	tests := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"nonsense"}, ExitUsage, "unknown command"},
		{[]string{"bench", "robots", "--db", dbPath}, ExitUsage, "PostgreSQL"},
		{[]string{"bench", "robots", "--db", "postgres://u@127.0.0.1:1/x", "--robots", "0"}, ExitUsage, "robots like 1,2,3"},
		{[]string{"bench", "robots", "--db", "postgres://u@127.0.0.1:1/x", "--hosts", "0"}, ExitUsage, "hosts"},
		{[]string{"crawl", "--db", dbPath}, ExitUsage, "seed"},
		{[]string{"crawl", "--db", dbPath, "not a url"}, ExitUsage, "seeds"},
		{[]string{"crawl", "--db", dbPath, "--depth", "-1", "http://127.0.0.1:1/"}, ExitUsage, "depth"},
		{[]string{"crawl", "--db", dbPath, "--threads", "0", "http://127.0.0.1:1/"}, ExitUsage, "threads"},
		{[]string{"crawl", "--db", dbPath, "--threads", "1001", "http://127.0.0.1:1/"}, ExitUsage, "threads"},
		{[]string{"crawl", "--db", dbPath, "--max-size", "lots", "http://127.0.0.1:1/"}, ExitUsage, "max-size"},
		{[]string{"crawl", "--db", garbage, "http://127.0.0.1:1/"}, ExitStorage, "database"},
		{[]string{"crawl", "--db", filepath.Join(dir, "no", "such", "dir", "x.db"), "http://127.0.0.1:1/"}, ExitStorage, ""},
		{[]string{"resume", "--db", dbPath, "x"}, ExitUsage, "crawl ID"},
		{[]string{"stats", "--db", garbage}, ExitStorage, "database"},
		{[]string{"search", "--db", dbPath}, ExitUsage, "QUERY"},
		{[]string{"export", "--db", dbPath, "--format", "xml"}, ExitUsage, "format"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, _, errs := run(t, "", tt.args...)
			if code != tt.code || !strings.Contains(errs, tt.msg) {
				t.Errorf("exit %d, stderr %q; want exit %d mentioning %q", code, errs, tt.code, tt.msg)
			}
			if strings.Count(strings.TrimSpace(errs), "\n") > 0 && tt.code != ExitUsage {
				t.Errorf("stderr is more than one line: %q", errs)
			}
		})
	}
}

func TestCrawlExportSearchStats(t *testing.T) {
	site := &testsite.Site{Pages: 40, OutDegree: 3}
	srv := httptest.NewServer(site)
	defer srv.Close()
	dbPath := filepath.Join(t.TempDir(), "t.db")
	code, out, errs := run(t, "", "crawl", "--db", dbPath, "--depth", "10", srv.URL+"/")
	if code != ExitOK || !strings.Contains(out, "40 done") {
		t.Fatalf("crawl: exit %d\n%s\n%s", code, out, errs)
	}
	if v := storedSketchVersion(t, dbPath, 1); v != neardup.LatestVersion {
		t.Errorf("a crawl made by flags: sketch version %d, want %d", v, neardup.LatestVersion)
	}
	code, out, _ = run(t, "", "stats", "--db", dbPath)
	if code != ExitOK || !strings.Contains(out, "done") || !strings.Contains(out, srv.URL) {
		t.Errorf("stats: exit %d\n%s", code, out)
	}
	code, out, _ = run(t, "", "search", "--db", dbPath, `"page-17"`)
	if code != ExitOK || !strings.Contains(out, srv.URL+"/p/17") {
		t.Errorf("search: exit %d\n%s", code, out)
	}
	for _, typed := range []string{`"unbalanced`, srv.URL + "/p/17", `page*17`, `(page`, `p:17`, `page-17 -x`} {
		code, _, errs = run(t, "", "search", "--db", dbPath, typed)
		if code != ExitOK {
			t.Errorf("search %q: exit %d, %s; any typed text must search", typed, code, errs)
		}
	}
	code, out, _ = run(t, "", "search", "--db", dbPath, srv.URL+"/p/17")
	if !strings.HasPrefix(out, srv.URL+"/p/17 ") {
		t.Errorf("a pasted URL: %s", out)
	}
	code, _, errs = run(t, "", "search", "--db", dbPath, `fts: "unbalanced`)
	if code != ExitUsage || strings.Contains(errs, "SQL logic error") || !strings.Contains(errs, "fts:") {
		t.Errorf("bad FTS query: exit %d, %s; want usage and a plain message", code, errs)
	}
	code, out, _ = run(t, "", "export", "--db", dbPath)
	if code != ExitOK {
		t.Fatalf("export: exit %d", code)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 41 || strings.Join(rows[0][:8], ",") != "url,status,depth,title,content_type,length,fetched_at,content_fp" {
		t.Errorf("export: %d rows, header %v", len(rows), rows[0])
	}
	if strings.HasPrefix(out, "\uFEFF") {
		t.Error("export wrote a byte-order mark without --bom")
	}
	code, bomOut, _ := run(t, "", "export", "--db", dbPath, "--bom")
	if code != ExitOK || !strings.HasPrefix(bomOut, "\xEF\xBB\xBF") || strings.TrimPrefix(bomOut, "\uFEFF") != out {
		t.Errorf("export --bom: exit %d; want the same CSV after a byte-order mark", code)
	}
}

// TestKilledCrawlResumes runs a crawl in a child process, kills it with
// SIGKILL mid-run, and resumes it: every page ends up stored exactly once,
// and no page stored before the kill is fetched again.
func TestKilledCrawlResumes(t *testing.T) {
	site := &testsite.Site{Pages: 400, OutDegree: 4, Latency: 3e6}
	site.Record()
	srv := httptest.NewServer(site)
	defer srv.Close()
	dbPath := filepath.Join(t.TempDir(), "t.db")

	child := startChild(t, "crawl", "--db", dbPath, "--depth", "20", "--threads", "4", "--quiet", srv.URL+"/")
	d, err := db.Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	waitFor(t, "the child to store 60 pages", func() bool {
		n, err := d.CountPages(context.Background(), db.PageQuery{Crawl: 1})
		return err == nil && n >= 60
	})
	child.Process.Kill()
	child.Wait()

	storedBefore := map[string]bool{}
	rows, err := d.Pages(context.Background(), db.PageQuery{Crawl: 1, Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		storedBefore[strings.TrimPrefix(r.URL, srv.URL)] = true
	}
	if len(storedBefore) >= 400 {
		t.Fatalf("the child finished before it was killed")
	}
	requestsBefore := len(site.Requests())

	code, out, errs := run(t, "", "resume", "--db", dbPath, "--quiet")
	if code != ExitOK {
		t.Fatalf("resume: exit %d\n%s\n%s", code, out, errs)
	}
	n, _ := d.CountPages(context.Background(), db.PageQuery{Crawl: 1})
	if n != 400 {
		t.Errorf("after resume %d pages stored, want 400", n)
	}
	for _, p := range site.Requests()[requestsBefore:] {
		if storedBefore[p] {
			t.Errorf("%s was stored before the kill and fetched again", p)
		}
	}
	seen := map[string]int{}
	for _, p := range site.Requests() {
		seen[p]++
	}
	twice := 0
	for _, c := range seen {
		if c > 1 {
			twice++
		}
	}
	t.Logf("killed after %d stored pages; %d URLs in flight or awaiting their batch were fetched again", len(storedBefore), twice)
}

func TestSkippedInStatsAndExport(t *testing.T) {
	site := &testsite.Site{Pages: 40, OutDegree: 3}
	srv := httptest.NewServer(site)
	defer srv.Close()
	dbPath := filepath.Join(t.TempDir(), "t.db")
	code, out, errs := run(t, "", "crawl", "--db", dbPath, "--depth", "1", srv.URL+"/")
	if code != ExitOK || !strings.Contains(out, "skipped") {
		t.Fatalf("crawl: exit %d\n%s\n%s", code, out, errs)
	}
	code, out, _ = run(t, "", "stats", "--db", dbPath, "--crawl", "1")
	if code != ExitOK || !strings.Contains(out, "SKIPPED") || !strings.Contains(out, "beyond the depth limit") {
		t.Errorf("stats: exit %d\n%s", code, out)
	}
	code, out, errs = run(t, "", "export", "--db", dbPath, "--skipped")
	if code != ExitOK {
		t.Fatalf("export --skipped: exit %d: %s", code, errs)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 2 || strings.Join(rows[0], ",") != "url,reason,reason_text,depth,found_on,found_at" {
		t.Fatalf("export --skipped: %d rows, header %v", len(rows), rows[0])
	}
	for _, r := range rows[1:] {
		if r[1] != "depth" || r[3] != "2" || !strings.HasPrefix(r[0], srv.URL) {
			t.Errorf("skipped row %v; want a depth-2 URL of the site skipped for depth", r)
		}
	}
}
