package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// TestQuietUnderCLocales runs the built binary under the locales of
// containers and CI: a successful command prints nothing on stderr (Fyne
// used to complain that it cannot parse the locale "C").
func TestQuietUnderCLocales(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "trawler")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	home := t.TempDir()
	dbPath := filepath.Join(dir, "t.db")
	commands := [][]string{{"fingerprint", "--poly"}, {"stats", "--db", dbPath}, {"help"}}
	for _, env := range []string{"LANG=C.UTF-8", "LANG=C", "LANG=POSIX", "LC_ALL=C.UTF-8", "LC_MESSAGES=C.UTF-8"} {
		for _, args := range commands {
			t.Run(env+" "+args[0], func(t *testing.T) {
				cmd := exec.Command(bin, args...)
				cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_CONFIG_HOME=" + home, env}
				var stdout, stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				if err := cmd.Run(); err != nil {
					t.Fatalf("%v: %v\n%s", args, err, stderr.String())
				}
				if stderr.Len() > 0 {
					t.Errorf("%s trawler %v wrote to stderr:\n%s", env, args, stderr.String())
				}
				if stdout.Len() == 0 {
					t.Errorf("%s trawler %v printed nothing", env, args)
				}
			})
		}
	}
}
