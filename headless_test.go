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
	run := func(args ...string) (string, string) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home, "DISPLAY=")
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		if err := cmd.Run(); err != nil {
			t.Fatalf("trawler %s: %v\n%s", strings.Join(args, " "), err, errOut.String())
		}
		return out.String(), errOut.String()
	}
	out, errOut := run()
	if !strings.Contains(errOut, "no window") || !strings.Contains(out, "crawl") {
		t.Errorf("with no arguments: stderr %q, stdout %q; want a word on the missing window, then the help", errOut, out)
	}

	site := &testsite.Site{Pages: 40, OutDegree: 3}
	srv := httptest.NewServer(site)
	defer srv.Close()
	dbPath := filepath.Join(t.TempDir(), "headless.db")
	run("crawl", "--db", dbPath, "--depth", "10", "--quiet", srv.URL+"/")
	csvText, _ := run("export", "--db", dbPath)
	rows, err := csv.NewReader(strings.NewReader(csvText)).ReadAll()
	if err != nil {
		t.Fatalf("export: %v\n%s", err, csvText)
	}
	if len(rows) != site.Pages+1 || rows[0][0] != "url" {
		t.Errorf("export has %d rows (header %v), want a header and %d pages", len(rows), rows[0], site.Pages)
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
