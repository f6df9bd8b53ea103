package pgtest

import (
	"bufio"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// privateServer returns the private server, or skips when the tests run
// against TRAWLER_TEST_PG.
func privateServer(t *testing.T) *instance {
	t.Helper()
	if os.Getenv(envServer) != "" {
		t.Skip("the tests use " + envServer + ", not a private server")
	}
	base(t)
	return private.inst
}

// TestServerSettings: the private server is set up as the package says
// (C locale: text sorts by bytes, as in SQLite), runs as the right user,
// and says how long it took to start.
func TestServerSettings(t *testing.T) {
	s := privateServer(t)
	t.Logf("private server: initdb %v, taking connections after %v (port %d, %s)", s.initdb.Round(time.Millisecond), s.took.Round(time.Millisecond), s.port, s.dir)
	c := connect(t, s.base)
	for setting, want := range map[string]string{
		"lc_collate": "C", "lc_ctype": "C.UTF-8", "server_encoding": "UTF8", "fsync": "off", "synchronous_commit": "off",
		"full_page_writes": "off", "max_connections": "200", "listen_addresses": "127.0.0.1",
	} {
		if got := queryString(t, c, "SHOW "+setting); got != want {
			t.Errorf("%s = %q, want %q", setting, got, want)
		}
	}
	if got := queryString(t, c, "SELECT string_agg(w, ' ' ORDER BY w) FROM unnest(ARRAY['b', 'B', 'a', 'é', 'A']) w"); got != "A B a b é" {
		t.Errorf("text sorts as %q, want byte order %q", got, "A B a b é")
	}
	want := os.Geteuid()
	if want == 0 {
		u, err := serverUser(0, "postgres", "nobody")
		if err != nil {
			t.Fatal(err)
		}
		want = atoi(t, u.Uid)
	}
	if got := uidOf(t, s.proc.cmd.Process.Pid); got != want {
		t.Errorf("the server runs as uid %d, want %d", got, want)
	}
}

// TestServerUser: root runs the server as the first user that exists;
// anyone else as themselves.
func TestServerUser(t *testing.T) {
	if u, err := serverUser(1000, "postgres"); u != nil || err != nil {
		t.Errorf("not root: %v, %v; want nil, nil", u, err)
	}
	nobody, err := user.Lookup("nobody")
	if err != nil {
		t.Skip("no user nobody here")
	}
	if u, err := serverUser(0, "no-such-user-pgtest", "nobody"); err != nil || u.Uid != nobody.Uid {
		t.Errorf("root, no first user: %v, %v; want nobody", u, err)
	}
	if _, err := serverUser(0, "no-such-user-pgtest"); err == nil || !strings.Contains(err.Error(), "no-such-user-pgtest") {
		t.Errorf("root, no user: error %v, want one naming the users looked for", err)
	}
}

// TestSecondServer: a second server starts beside the first, as nobody
// when root has no postgres user to use, on another port when the free
// one it picked was taken before it could listen; stop removes its
// folder.
func TestSecondServer(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server: not with -short")
	}
	first := privateServer(t)
	var who *user.User
	if os.Geteuid() == 0 {
		var err error
		if who, err = user.Lookup("nobody"); err != nil {
			t.Skip("root, and no user nobody here")
		}
	}
	b, err := installed()
	if err != nil {
		t.Fatal(err)
	}
	picks := 0
	pickPort = func() (int, error) {
		picks++
		if picks == 1 {
			return first.port, nil // taken
		}
		return freePort()
	}
	defer func() { pickPort = freePort }()
	s, err := startServerAs(b, who)
	if err != nil {
		t.Fatal(err)
	}
	defer s.stop()
	t.Logf("a second server: ready after %v, on its %d. port", s.took.Round(time.Millisecond), picks)
	if picks != 2 || s.port == first.port {
		t.Errorf("%d ports picked, port %d (the first's is %d); want a second pick", picks, s.port, first.port)
	}
	if who != nil {
		if got := uidOf(t, s.proc.cmd.Process.Pid); got != atoi(t, who.Uid) {
			t.Errorf("runs as uid %d, want nobody's %s", got, who.Uid)
		}
	}
	c := connect(t, s.base)
	if got := queryString(t, c, "SELECT current_user"); got != "postgres" {
		t.Errorf("superuser %q, want postgres", got)
	}
	c.Close(t.Context())
	if err := s.stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(s.dir); !os.IsNotExist(err) {
		t.Errorf("%s is still there after stop: %v", s.dir, err)
	}
}

// TestRemoveStale: a folder whose lock is free and old is removed; one
// locked, or just made, is kept.
func TestRemoveStale(t *testing.T) {
	tmp := t.TempDir()
	mk := func(name string, age time.Duration) string {
		d := filepath.Join(tmp, name)
		if err := os.MkdirAll(filepath.Join(d, "data"), 0o700); err != nil {
			t.Fatal(err)
		}
		lock := filepath.Join(d, lockName)
		if err := os.WriteFile(lock, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		old := time.Now().Add(-age)
		if err := os.Chtimes(lock, old, old); err != nil {
			t.Fatal(err)
		}
		return d
	}
	stale := mk("trawler-pg-1", time.Hour)
	young := mk("trawler-pg-2", time.Second)
	inUse := mk("trawler-pg-3", time.Hour)
	other := mk("someone-else", time.Hour)
	noLock := filepath.Join(tmp, "trawler-pg-4")
	if err := os.Mkdir(noLock, 0o700); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(inUse, lockName))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	removeStale(tmp)
	for d, kept := range map[string]bool{stale: false, young: true, inUse: true, other: true, noLock: true} {
		if _, err := os.Stat(d); (err == nil) != kept {
			t.Errorf("%s: kept %v, want %v", filepath.Base(d), err == nil, kept)
		}
	}
}

// uidOf reads a process's real uid from /proc.
func uidOf(t *testing.T, pid int) int {
	t.Helper()
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "Uid:"); ok {
			return atoi(t, strings.Fields(rest)[0])
		}
	}
	t.Fatalf("no Uid in /proc/%d/status", pid)
	return -1
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	var n int
	if _, err := fmt.Sscan(s, &n); err != nil {
		t.Fatal(err)
	}
	return n
}
