// Package pgtest gives tests a real PostgreSQL database: an empty schema
// of their own on a private server that the test process starts (Debian's
// postgresql package, run from a temporary folder, as an unprivileged
// user even when the tests run as root) and that dies with it, or on the
// server TRAWLER_TEST_PG names.
//
// Where neither is available the tests that need it skip, saying why,
// except under CI=true, where they fail: CI must not pass by skipping.
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// server is the private server of this test process, started once.
var server struct {
	once sync.Once
	url  string // postgres://…/postgres of the server, without a schema
	dir  string
	cmd  *exec.Cmd
	err  error
}

// URL returns a postgres:// URL whose search_path is a fresh, empty
// schema, dropped when the test ends.
func URL(tb testing.TB) string {
	tb.Helper()
	base, err := baseURL()
	if err != nil {
		skipOrFail(tb, err.Error())
	}
	ctx := context.Background()
	schema := fmt.Sprintf("t_%d", rand.Uint64()>>1)
	if err := exec1(ctx, base, "CREATE SCHEMA "+schema); err != nil {
		tb.Fatalf("pgtest: create a schema: %v", err)
	}
	tb.Cleanup(func() { _ = exec1(ctx, base, "DROP SCHEMA "+schema+" CASCADE") })
	return withSearchPath(base, schema)
}

// Available reports whether PostgreSQL tests can run here, and why not.
func Available() (ok bool, why string) {
	if os.Getenv("TRAWLER_TEST_PG") != "" {
		return true, ""
	}
	if _, err := binaries(); err != nil {
		return false, err.Error()
	}
	return true, ""
}

// Main runs the tests, then stops and removes the private server.
func Main(m *testing.M) int {
	code := m.Run()
	stop()
	return code
}

// skipOrFail skips the test, or fails it under CI=true.
func skipOrFail(tb testing.TB, why string) {
	tb.Helper()
	msg := "PostgreSQL tests skipped: " + why
	if mustRun() {
		tb.Fatal(msg + " (CI=true: they must run)")
	}
	tb.Skip(msg)
}

// mustRun reports whether PostgreSQL tests may not be skipped.
func mustRun() bool { return os.Getenv("CI") == "true" }

func baseURL() (string, error) {
	if u := os.Getenv("TRAWLER_TEST_PG"); u != "" {
		return u, nil
	}
	server.once.Do(start)
	return server.url, server.err
}

func withSearchPath(base, schema string) string {
	u, err := url.Parse(base)
	if err != nil {
		return base
	}
	q := u.Query()
	q.Set("search_path", schema)
	if q.Get("sslmode") == "" {
		q.Set("sslmode", "disable")
	}
	u.RawQuery = q.Encode()
	return u.String()
}

func exec1(ctx context.Context, base, sql string) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	c, err := pgx.Connect(ctx, base)
	if err != nil {
		return err
	}
	defer c.Close(ctx)
	_, err = c.Exec(ctx, sql)
	return err
}

// bins are the server programs this machine has.
type bins struct{ initdb, postgres string }

// binaries finds initdb and postgres: on PATH, else the newest
// /usr/lib/postgresql/*/bin (Debian keeps them off PATH).
func binaries() (bins, error) {
	if i, err := exec.LookPath("initdb"); err == nil {
		if p, err := exec.LookPath("postgres"); err == nil {
			return bins{i, p}, nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		b := bins{filepath.Join(d, "initdb"), filepath.Join(d, "postgres")}
		if isFile(b.initdb) && isFile(b.postgres) {
			return b, nil
		}
	}
	return bins{}, errors.New("no initdb and postgres found (apt-get install postgresql) and TRAWLER_TEST_PG is not set")
}

func version(dir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(dir)))
	return n
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}
