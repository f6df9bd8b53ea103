package main

import (
	"debug/pe"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestWindowsExeUnderWine runs the Windows package's command line under
// Wine: version, the Rabin polynomial, and a crawl of a local site into
// the default database under %AppData%, exported to CSV. The .exe is the
// one `make package-windows` made, named by TRAWLER_WINDOWS_EXE (make
// test's package check sets it); without it the test skips.
func TestWindowsExeUnderWine(t *testing.T) {
	exe := os.Getenv("TRAWLER_WINDOWS_EXE")
	if exe == "" {
		t.Skip("TRAWLER_WINDOWS_EXE names no .exe: make package-windows, then run with it (make test does)")
	}
	exe, _ = filepath.Abs(exe)
	checkPE(t, exe)
	wine, err := exec.LookPath("wine")
	if err != nil {
		t.Fatalf("wine is missing (apt-get install wine wine64): %v", err)
	}
	prefix := newWinePrefix(t, wine)
	run := trawlerRun(t, []string{"WINEPREFIX=" + prefix, "WINEDEBUG=-all", "DISPLAY="}, wine, exe)

	if v, _ := run("version"); !strings.Contains(v, "windows/amd64") || !strings.Contains(v, "window and command line") {
		t.Errorf("version says %q, want the desktop build for windows/amd64", v)
	}
	if poly, _ := run("fingerprint", "--poly"); strings.TrimSpace(poly) != "391a68062509249b" {
		t.Errorf("fingerprint --poly says %q, want the polynomial every build uses", strings.TrimSpace(poly))
	}
	checkCrawlExport(t, run, 30)
	user := os.Getenv("USER")
	if user == "" {
		user = "root"
	}
	dbFile := filepath.Join(prefix, "drive_c", "users", user, "AppData", "Roaming", "trawler", "trawler.db")
	if _, err := os.Stat(dbFile); err != nil {
		t.Errorf("the database is not under %%AppData%%: %v", err)
	}
}

// checkPE: the .exe is a GUI-subsystem program (no console flashes up),
// carries resources (icon, version) and needs only Windows' own DLLs.
func checkPE(t *testing.T, exe string) {
	t.Helper()
	f, err := pe.Open(exe)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if oh, ok := f.OptionalHeader.(*pe.OptionalHeader64); !ok || oh.Subsystem != pe.IMAGE_SUBSYSTEM_WINDOWS_GUI {
		t.Errorf("%s is not a 64-bit GUI-subsystem program", exe)
	}
	if f.Section(".rsrc") == nil {
		t.Errorf("%s has no resources (icon, version)", exe)
	}
	libs, err := f.ImportedLibraries()
	if err != nil {
		t.Fatal(err)
	}
	system := map[string]bool{"advapi32.dll": true, "gdi32.dll": true, "kernel32.dll": true, "msvcrt.dll": true,
		"opengl32.dll": true, "shell32.dll": true, "user32.dll": true, "ole32.dll": true, "ws2_32.dll": true,
		"winmm.dll": true, "dwmapi.dll": true, "imm32.dll": true, "crypt32.dll": true, "bcrypt.dll": true}
	for _, l := range libs {
		if !system[strings.ToLower(l)] {
			t.Errorf("%s needs %s, which Windows does not ship", exe, l)
		}
	}
}

// newWinePrefix makes a Wine prefix of the test's own. Wine 8 (Debian 12)
// lacks bcryptprimitives.dll, which Go's runtime loads since Go 1.22 for
// ProcessPrng (Windows 8 and later have it); a stand-in built here from
// testdata/wine calls BCryptGenRandom, which Wine has.
func newWinePrefix(t *testing.T, wine string) string {
	t.Helper()
	prefix := filepath.Join(t.TempDir(), "wine")
	boot := exec.Command(wine, "wineboot", "--init")
	boot.Env = append(os.Environ(), "WINEPREFIX="+prefix, "WINEDEBUG=-all", "DISPLAY=")
	start := time.Now()
	if out, err := boot.CombinedOutput(); err != nil {
		t.Fatalf("wineboot: %v\n%s", err, out)
	}
	t.Logf("Wine prefix made in %v", time.Since(start).Round(time.Millisecond))
	dll := filepath.Join(prefix, "drive_c", "windows", "system32", "bcryptprimitives.dll")
	if _, err := os.Stat(dll); err == nil {
		return prefix // a Wine that has it
	}
	gcc, err := exec.LookPath("x86_64-w64-mingw32-gcc")
	if err != nil {
		t.Fatalf("x86_64-w64-mingw32-gcc is missing (apt-get install gcc-mingw-w64-x86-64): %v", err)
	}
	src := filepath.Join("testdata", "wine", "bcryptprimitives.c")
	if out, err := exec.Command(gcc, "-shared", "-O2", "-o", dll, src, "-lbcrypt").CombinedOutput(); err != nil {
		t.Fatalf("build %s: %v\n%s", src, err, out)
	}
	return prefix
}
