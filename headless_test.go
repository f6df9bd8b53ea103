package main

import (
	"bytes"
	"debug/elf"
	"encoding/csv"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/trawler/trawler/crawl/testsite"
)

// TestHeadlessBinary: the headless build (CGO_ENABLED=0 -tags nogui) is a
// static executable that says it has no window, crawls a local site and
// exports it, as on a server or in a container.
func TestHeadlessBinary(t *testing.T) {
	bin := trawlerBinary(t)
	if runtime.GOOS == "linux" {
		f, err := elf.Open(bin)
		if err != nil {
			t.Fatal(err)
		}
		libs, _ := f.ImportedLibraries()
		for _, p := range f.Progs {
			if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
				t.Errorf("the headless binary is dynamic (program header %v), needs %v", p.Type, libs)
			}
		}
		f.Close()
		if ldd, err := exec.LookPath("ldd"); err == nil {
			out, _ := exec.Command(ldd, bin).CombinedOutput()
			if !bytes.Contains(out, []byte("not a dynamic executable")) && !bytes.Contains(out, []byte("statically linked")) {
				t.Errorf("ldd %s:\n%s", bin, out)
			}
		}
	}

	home := t.TempDir()
	run := trawlerRun(t, []string{"HOME=" + home, "XDG_CONFIG_HOME=" + home, "DISPLAY="}, bin)
	out, errOut := run()
	if !strings.Contains(errOut, "no window") || !strings.Contains(out, "crawl") {
		t.Errorf("with no arguments: stderr %q, stdout %q; want a word on the missing window, then the help", errOut, out)
	}
	checkCrawlExport(t, run, 40, "--db", filepath.Join(t.TempDir(), "headless.db"))
}

// trawlerRun returns a runner of trawler's command line: name and pre
// come before the arguments (the binary, or wine and the .exe), env is
// added to the test's. It returns standard output and error; the test
// fails when the command does.
func trawlerRun(t *testing.T, env []string, name string, pre ...string) func(args ...string) (stdout, stderr string) {
	return func(args ...string) (string, string) {
		t.Helper()
		cmd := exec.Command(name, append(slices.Clone(pre), args...)...)
		cmd.Env = append(os.Environ(), env...)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(append(slices.Clone(pre), args...), " "), err, errOut.String())
		}
		return out.String(), errOut.String()
	}
}

// checkCrawlExport crawls a synthetic site of n pages on 127.0.0.1 with
// run, into the database dbArgs names (none: the default one), and checks
// that the CSV export holds each page once, with status 200.
func checkCrawlExport(t *testing.T, run func(args ...string) (string, string), n int, dbArgs ...string) {
	t.Helper()
	site := &testsite.Site{Pages: n, OutDegree: 3}
	srv := httptest.NewServer(site)
	defer srv.Close()
	run(append([]string{"crawl", "--depth", "10", "--quiet", srv.URL + "/"}, dbArgs...)...)
	csvText, _ := run(append([]string{"export"}, dbArgs...)...)
	rows, err := csv.NewReader(strings.NewReader(csvText)).ReadAll()
	if err != nil {
		t.Fatalf("export: %v\n%s", err, csvText)
	}
	if len(rows) != n+1 || rows[0][0] != "url" {
		t.Fatalf("export has %d rows (header %v), want a header and %d pages", len(rows), rows[0], n)
	}
	for _, r := range rows[1:] {
		if r[1] != "200" || !strings.HasPrefix(r[0], srv.URL+"/") {
			t.Errorf("exported row %v, want a page of %s with status 200", r[:2], srv.URL)
		}
	}
}

// TestHeadlessCrossBuilds: the headless build compiles for the servers
// and machines the desktop build does not reach from here.
func TestHeadlessCrossBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-compiles the binary")
	}
	for _, target := range []string{"linux/arm64", "darwin/arm64"} {
		t.Run(strings.ReplaceAll(target, "/", "-"), func(t *testing.T) {
			goos, goarch, _ := strings.Cut(target, "/")
			cmd := exec.Command("go", "build", "-tags", "nogui", "-o", os.DevNull, ".")
			cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+goos, "GOARCH="+goarch)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("go build for %s: %v\n%s", target, err, out)
			}
		})
	}
}
