// Package secrettest runs tests against a real keychain without touching
// the user's: on Linux it re-runs the calling test in a child process under
// dbus-run-session, with a private gnome-keyring-daemon unlocked by a
// throw-away password and a temporary home directory holding its keyring
// files. No mock: the child talks to the real Secret Service over D-Bus.
package secrettest

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// childEnv marks the child process in which the test body runs.
const childEnv = "TRAWLER_KEYCHAIN_CHILD"

// OSKeychainEnv, set to 1, lets the tests use this machine's own keychain
// where no private one can be started (macOS, Windows).
const OSKeychainEnv = "TRAWLER_TEST_OS_KEYCHAIN"

// unlock starts the keyring daemon with its secrets component, creating and
// unlocking a "login" keyring with the password on standard input (the
// daemon forks into the background and exits with the session bus), then
// runs the test binary with the arguments that follow.
const unlock = `printf %s throwaway-keyring-pw | gnome-keyring-daemon --unlock --components=secrets >"$GKD_LOG" 2>&1 || { cat "$GKD_LOG" >&2; exit 97; }
exec "$@"`

// Run reports whether the calling test's body should run in this process.
// In the parent it re-runs the test in a private Secret Service session,
// fails t if the child fails or does not run the test, and returns false;
// in that child (or with OSKeychainEnv=1) it returns true. It skips t,
// saying what to install, where no keychain can be started.
func Run(t *testing.T) bool {
	t.Helper()
	if os.Getenv(childEnv) == "1" {
		return true
	}
	if runtime.GOOS != "linux" {
		if os.Getenv(OSKeychainEnv) == "1" {
			return true
		}
		t.Skipf("no private keychain on %s; set %s=1 to test against this machine's keychain", runtime.GOOS, OSKeychainEnv)
	}
	for _, tool := range []string{"dbus-run-session", "gnome-keyring-daemon"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("the keychain test needs %s (Debian: apt-get install dbus-daemon gnome-keyring; `.ci/install-deps ci` installs them)", tool)
		}
	}
	runChild(t)
	return false
}

func runChild(t *testing.T) {
	t.Helper()
	home := t.TempDir()
	runDir := filepath.Join(home, "run")
	if err := os.Mkdir(runDir, 0o700); err != nil {
		t.Fatal(err)
	}
	args := []string{"--", "sh", "-c", unlock, "sh", os.Args[0], "-test.run=" + runPattern(t.Name()), "-test.v", "-test.count=1"}
	cmd := exec.Command("dbus-run-session", args...)
	cmd.Env = append(cleanEnv(),
		childEnv+"=1",
		"HOME="+home,
		"XDG_DATA_HOME="+filepath.Join(home, "data"),
		"XDG_CONFIG_HOME="+filepath.Join(home, "config"),
		"XDG_CACHE_HOME="+filepath.Join(home, "cache"),
		"XDG_RUNTIME_DIR="+runDir,
		"GKD_LOG="+filepath.Join(home, "gnome-keyring-daemon.log"),
	)
	out, err := cmd.CombinedOutput()
	t.Logf("under dbus-run-session with a private gnome-keyring-daemon:\n%s", out)
	if err != nil {
		t.Fatalf("keychain child: %v", err)
	}
	if !strings.Contains(string(out), "--- PASS: "+t.Name()) {
		t.Fatalf("keychain child did not run and pass %s", t.Name())
	}
}

// runPattern matches exactly the test named name, subtests included.
func runPattern(name string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return strings.Join(parts, "/")
}

// cleanEnv is this process's environment without the session bus and the
// home and XDG directories, which the child gets afresh.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case name == "DBUS_SESSION_BUS_ADDRESS", name == "HOME", strings.HasPrefix(name, "XDG_"),
			strings.HasPrefix(name, "GNOME_KEYRING"):
			continue
		}
		env = append(env, kv)
	}
	return env
}
