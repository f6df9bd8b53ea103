// Package pgtest gives tests a real PostgreSQL database: a fresh, empty
// schema of their own, on a private server that the test process starts
// once (Debian's postgresql package, run from a temporary folder, as an
// unprivileged user even when the tests run as root, and killed with the
// test process), or on the server TRAWLER_TEST_PG names.
//
// Where neither is available the tests that need PostgreSQL skip, saying
// why and how to fix it, except under CI=true, where they fail: CI must
// not pass by skipping them.
//
// A package whose tests use URL calls Main from its TestMain, so that the
// private server is stopped and its folder removed when the tests end.
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// envServer names the environment variable that points the tests at an
// existing server (a postgres:// URL) instead of a private one. pgtest only
// ever creates and drops schemas of its own there.
const envServer = "TRAWLER_TEST_PG"

// notFound says why PostgreSQL tests cannot run and how to make them.
const notFound = "no initdb/postgres found (apt-get install postgresql) and " + envServer + " is not set"

// libGlob is where Debian keeps the server programs (off PATH), one folder
// per major version.
const libGlob = "/usr/lib/postgresql/*/bin"

// opTimeout bounds each administrative step (connect, create, drop).
const opTimeout = 30 * time.Second

// private is this test process's own server, started by the first URL.
var private struct {
	once sync.Once
	inst *instance
	err  error
}

// installed finds the server programs once per process.
var installed = sync.OnceValues(func() (bins, error) {
	return findBinaries(os.Getenv("PATH"), libGlob)
})

// schemas counts the schemas this process has made, for their names.
var schemas atomic.Uint64

// URL returns a postgres:// URL whose search_path is a fresh, empty schema
// of its own, so tests can run in parallel, even against one shared
// server, without seeing each other's tables. The schema is on the private
// server (started by the first call, on a free loopback port) or on the
// server named by TRAWLER_TEST_PG, and is dropped with everything in it
// when the test ends. Without PostgreSQL the test is skipped, or failed
// under CI=true.
func URL(tb testing.TB) string {
	tb.Helper()
	if ok, why := Available(); !ok {
		skipOrFail(tb, why)
		return ""
	}
	base, err := target()
	if err != nil {
		tb.Fatal(err)
	}
	u, err := newSchema(tb, base)
	if err != nil {
		tb.Fatal(err)
	}
	return u
}

// Available reports whether PostgreSQL tests can run here: TRAWLER_TEST_PG
// is set, or initdb and postgres were found to start a private server. If
// not, why says what is missing and how to install it, for callers that
// decide before running anything (as db's TestMain does).
func Available() (ok bool, why string) {
	if os.Getenv(envServer) != "" {
		return true, ""
	}
	if !privateServers {
		return false, "private PostgreSQL servers are started on Linux only, and " + envServer + " is not set"
	}
	if _, err := installed(); err != nil {
		return false, err.Error()
	}
	return true, ""
}

// Main wraps testing.M.Run for a TestMain: it runs the tests, then stops
// the private server (if one was started) and removes its folder, and
// returns the code for os.Exit.
func Main(m *testing.M) int {
	code := m.Run()
	if err := stopPrivate(); err != nil {
		fmt.Fprintln(os.Stderr, err)
	}
	return code
}

// skipOrFail ends a test that cannot have PostgreSQL: skips it, or fails
// it under CI=true.
func skipOrFail(tb testing.TB, why string) {
	tb.Helper()
	fail, msg := unavailable(why, os.Getenv("CI"))
	if fail {
		tb.Fatal(msg)
	} else {
		tb.Skip(msg)
	}
}

// unavailable decides what a test does when PostgreSQL is missing: it
// skips with msg, unless ci (the CI variable) is "true" (as .ci/run and
// db's TestMain have it), when it fails with the same msg, so that CI
// cannot go green by skipping them.
func unavailable(why, ci string) (fail bool, msg string) {
	return ci == "true", "PostgreSQL tests skipped: " + why
}

// target returns the URL of the server to make schemas on:
// TRAWLER_TEST_PG, else the private server, started on first use.
func target() (string, error) {
	if u := os.Getenv(envServer); u != "" {
		return u, nil
	}
	private.once.Do(func() {
		b, err := installed()
		if err != nil {
			private.err = fmt.Errorf("pgtest: %w", err)
			return
		}
		private.inst, private.err = startServer(b)
	})
	if private.err != nil {
		return "", private.err
	}
	return private.inst.base, nil
}

// stopPrivate stops the private server, if one was started, and makes
// later URL calls fail rather than start another after Main.
func stopPrivate() error {
	private.once.Do(func() {
		private.err = errors.New("pgtest: URL called after Main stopped the server")
	})
	if private.inst == nil {
		return nil
	}
	err := private.inst.stop()
	private.inst = nil
	private.err = errors.New("pgtest: URL called after Main stopped the server")
	return err
}

// newSchema creates an empty schema on the server at base, to be dropped
// when tb ends, and returns base with that schema as its search_path.
// pgx sends query parameters it does not know, such as search_path, as
// run-time parameters of every connection, so pools get it too.
func newSchema(tb testing.TB, base string) (string, error) {
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		// Not %w: url.Parse's error quotes the URL, password and all.
		return "", fmt.Errorf("pgtest: the server's address is not a postgres:// URL (%s must be one)", envServer)
	}
	ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
	defer cancel()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		return "", fmt.Errorf("pgtest: connect to %s to create a schema: %w", u.Redacted(), err)
	}
	defer conn.Close(context.Background())
	var name string
	for attempt := 1; ; attempt++ {
		name = fmt.Sprintf("t_%d_%s", schemas.Add(1), strconv.FormatUint(rand.Uint64(), 36))
		_, err = conn.Exec(ctx, "CREATE SCHEMA "+pgx.Identifier{name}.Sanitize())
		var pgErr *pgconn.PgError
		if err == nil {
			break
		}
		if errors.As(err, &pgErr) && pgErr.Code == "42P06" && attempt < 3 { // duplicate_schema
			continue
		}
		return "", fmt.Errorf("pgtest: create schema %s on %s: %w", name, u.Redacted(), err)
	}
	tb.Cleanup(func() {
		if err := dropSchema(base, name); err != nil {
			tb.Errorf("%v (did the test leave a transaction open?)", err)
		}
	})
	q := u.Query()
	q.Del("search_path")
	if q.Encode() == "" {
		u.RawQuery = "search_path=" + name
	} else {
		u.RawQuery = q.Encode() + "&search_path=" + name
	}
	return u.String(), nil
}

// dropSchema drops a schema newSchema made, and everything in it.
func dropSchema(base, name string) error {
	ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
	defer cancel()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		return fmt.Errorf("pgtest: connect to drop schema %s: %w", name, err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "DROP SCHEMA "+pgx.Identifier{name}.Sanitize()+" CASCADE"); err != nil {
		return fmt.Errorf("pgtest: drop schema %s: %w", name, err)
	}
	return nil
}
