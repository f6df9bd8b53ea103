package pgtest

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver "pgx", as db uses
)

func TestMain(m *testing.M) { os.Exit(Main(m)) }

// connect opens a connection to u, closed when the test ends.
func connect(t *testing.T, u string) *pgx.Conn {
	t.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatalf("connect to %s: %v", u, err)
	}
	t.Cleanup(func() { c.Close(ctx) })
	return c
}

// queryString runs a one-value query.
func queryString(t *testing.T, c *pgx.Conn, sql string, args ...any) string {
	t.Helper()
	var s string
	if err := c.QueryRow(context.Background(), sql, args...).Scan(&s); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return s
}

// schemaOf is the search_path a URL of URL names.
func schemaOf(t *testing.T, u string) string {
	t.Helper()
	p, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	s := p.Query().Get("search_path")
	if !strings.HasPrefix(s, "t_") {
		t.Fatalf("URL %s has no t_… search_path", u)
	}
	return s
}

// schemaExists asks the server at base whether a schema exists.
func schemaExists(t *testing.T, base, name string) bool {
	t.Helper()
	c := connect(t, base)
	var n int
	if err := c.QueryRow(context.Background(), "SELECT count(*) FROM pg_namespace WHERE nspname = $1", name).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n == 1
}

// base returns the URL of the server URL makes schemas on.
func base(t *testing.T) string {
	t.Helper()
	URL(t) // skips, or fails, like the tests that use it
	b, err := target()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSchemasApart: two URLs are two schemas; what one creates the other
// does not see, and each can have a table of the same name.
func TestSchemasApart(t *testing.T) {
	ctx := context.Background()
	a, b := URL(t), URL(t)
	if schemaOf(t, a) == schemaOf(t, b) {
		t.Fatalf("two URLs, one schema: %s", a)
	}
	ca, cb := connect(t, a), connect(t, b)
	if _, err := ca.Exec(ctx, "CREATE TABLE notes (body text); INSERT INTO notes VALUES ('a')"); err != nil {
		t.Fatal(err)
	}
	if _, err := cb.Exec(ctx, "SELECT * FROM notes"); err == nil {
		t.Error("a table of one URL's schema is seen through another's")
	}
	if _, err := cb.Exec(ctx, "CREATE TABLE notes (body text)"); err != nil {
		t.Errorf("the second schema cannot have its own notes: %v", err)
	}
	if got := queryString(t, ca, "SELECT count(*)::text FROM notes"); got != "1" {
		t.Errorf("the first schema's notes have %s rows, want 1", got)
	}
}

// TestSearchPath: the URL's search_path is where unqualified names go, on
// a single connection and on every connection of a database/sql pool (as
// db opens it).
func TestSearchPath(t *testing.T) {
	u := URL(t)
	schema := schemaOf(t, u)
	if p, _ := url.Parse(u); p.Query().Get("sslmode") != "disable" && os.Getenv(envServer) == "" {
		t.Errorf("URL %s: want sslmode=disable", u)
	}
	c := connect(t, u)
	if got := queryString(t, c, "SHOW search_path"); got != schema {
		t.Errorf("search_path is %q, want %q", got, schema)
	}
	if _, err := c.Exec(context.Background(), "CREATE TABLE pages (id int)"); err != nil {
		t.Fatal(err)
	}
	if got := queryString(t, c, "SELECT table_schema FROM information_schema.tables WHERE table_name = 'pages'"); got != schema {
		t.Errorf("an unqualified CREATE TABLE went to schema %q, want %q", got, schema)
	}

	pool, err := sql.Open("pgx", u)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	ctx := context.Background()
	var conns []*sql.Conn
	for range 3 {
		sc, err := pool.Conn(ctx) // three at once: three connections
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, sc)
		var cur string
		if err := sc.QueryRowContext(ctx, "SELECT current_schema()").Scan(&cur); err != nil {
			t.Fatal(err)
		}
		if cur != schema {
			t.Errorf("a pooled connection's schema is %q, want %q", cur, schema)
		}
	}
	for _, sc := range conns {
		sc.Close()
	}
}

// TestManyURLs: the server outlives many schemas, each dropped with its
// test and everything in it.
func TestManyURLs(t *testing.T) {
	srv := base(t)
	admin := connect(t, srv)
	startedAt := queryString(t, admin, "SELECT pg_postmaster_start_time()::text")
	var names []string
	for i := range 60 {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			u := URL(t)
			names = append(names, schemaOf(t, u))
			c := connect(t, u)
			if _, err := c.Exec(context.Background(), "CREATE TABLE t (n int); INSERT INTO t VALUES (1)"); err != nil {
				t.Fatal(err)
			}
		})
	}
	if got := queryString(t, admin, "SELECT pg_postmaster_start_time()::text"); got != startedAt {
		t.Errorf("the server restarted: started at %s, now %s", startedAt, got)
	}
	var left int
	if err := admin.QueryRow(context.Background(), "SELECT count(*) FROM pg_namespace WHERE nspname = ANY($1)", names).Scan(&left); err != nil {
		t.Fatal(err)
	}
	if len(names) != 60 || left != 0 {
		t.Errorf("%d schemas made, %d left after their tests; want 60 and 0", len(names), left)
	}
}

// TestParallelURLs: tests asking at once get schemas of their own.
func TestParallelURLs(t *testing.T) {
	var mu sync.Mutex
	seen := map[string]bool{}
	t.Run("group", func(t *testing.T) {
		for i := range 16 {
			t.Run(fmt.Sprint(i), func(t *testing.T) {
				t.Parallel()
				u := URL(t)
				c := connect(t, u)
				if _, err := c.Exec(context.Background(), "CREATE TABLE mine (n int)"); err != nil {
					t.Error(err)
				}
				mu.Lock()
				defer mu.Unlock()
				if seen[schemaOf(t, u)] {
					t.Errorf("schema %s handed out twice", schemaOf(t, u))
				}
				seen[schemaOf(t, u)] = true
			})
		}
	})
	if len(seen) != 16 {
		t.Errorf("%d schemas for 16 tests", len(seen))
	}
}

// TestEnvServer: with TRAWLER_TEST_PG set, URL makes its schemas on that
// server (here the private one under a URL of its own, recognisable by
// its application_name), keeps the URL's parameters, and drops only what
// it made.
func TestEnvServer(t *testing.T) {
	srv := base(t)
	admin := connect(t, srv)
	keep := fmt.Sprintf("keep_%d", rand.Uint32())
	if _, err := admin.Exec(context.Background(), "CREATE SCHEMA "+keep); err != nil {
		t.Fatal(err)
	}
	defer admin.Exec(context.Background(), "DROP SCHEMA "+keep)

	env, err := url.Parse(srv)
	if err != nil {
		t.Fatal(err)
	}
	q := env.Query()
	q.Set("application_name", "pgtest-env")
	q.Set("search_path", "public")
	env.RawQuery = q.Encode()
	t.Setenv(envServer, env.String())
	if ok, why := Available(); !ok {
		t.Fatalf("Available with %s set: %s", envServer, why)
	}
	var made string
	t.Run("inner", func(t *testing.T) {
		u := URL(t)
		made = schemaOf(t, u)
		c := connect(t, u)
		if got := queryString(t, c, "SHOW application_name"); got != "pgtest-env" {
			t.Errorf("application_name %q: the URL is not %s's", got, envServer)
		}
		if got := queryString(t, c, "SELECT current_schema()"); got != made {
			t.Errorf("current_schema %q, want %q (the environment's search_path must give way)", got, made)
		}
	})
	if schemaExists(t, srv, made) {
		t.Errorf("schema %s outlived its test", made)
	}
	if !schemaExists(t, srv, keep) {
		t.Errorf("schema %s, not pgtest's, was dropped", keep)
	}

	t.Setenv(envServer, "host=127.0.0.1 port=5432")
	if _, err := newSchema(t, os.Getenv(envServer)); err == nil || !strings.Contains(err.Error(), "not a postgres:// URL") {
		t.Errorf("a keyword/value %s: error %v, want one saying it is not a postgres:// URL", envServer, err)
	}
}

// TestUnavailable: without PostgreSQL, tests skip saying how to get it,
// and fail with the same words under CI=true (and only "true", as .ci/run
// and db's TestMain have it).
func TestUnavailable(t *testing.T) {
	const want = "PostgreSQL tests skipped: no initdb/postgres found (apt-get install postgresql) and TRAWLER_TEST_PG is not set"
	for _, tc := range []struct {
		ci   string
		fail bool
	}{{"true", true}, {"", false}, {"false", false}} {
		fail, msg := unavailable(notFound, tc.ci)
		if fail != tc.fail || msg != want {
			t.Errorf("CI=%q: fail %v, %q; want %v, %q", tc.ci, fail, msg, tc.fail, want)
		}
	}
	for _, ci := range []string{"true", ""} {
		t.Setenv("CI", ci)
		r := &recorder{TB: t}
		skipOrFail(r, notFound)
		if ci == "true" && (r.fatal != want || r.skip != "") || ci == "" && (r.skip != want || r.fatal != "") {
			t.Errorf("CI=%q: Fatal(%q), Skip(%q)", ci, r.fatal, r.skip)
		}
	}
}

// recorder is a testing.TB that notes Fatal and Skip instead of ending.
type recorder struct {
	testing.TB
	fatal, skip string
}

func (r *recorder) Helper()           {}
func (r *recorder) Fatal(args ...any) { r.fatal = fmt.Sprint(args...) }
func (r *recorder) Skip(args ...any)  { r.skip = fmt.Sprint(args...) }

// TestFindBinaries: initdb and postgres side by side, on PATH first, then
// the newest version's folder that has both; none, and the error says
// what to install.
func TestFindBinaries(t *testing.T) {
	root := t.TempDir()
	mk := func(dir string, names ...string) string {
		d := filepath.Join(root, dir)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, n := range names {
			if err := os.WriteFile(filepath.Join(d, n), []byte("#!/bin/sh\n"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		return d
	}
	mk("lib/9.6/bin", "initdb", "postgres")
	v15 := mk("lib/15/bin", "initdb", "postgres")
	mk("lib/16/bin", "initdb") // no server: skipped
	half := mk("path1", "postgres")
	both := mk("path2", "initdb", "postgres")
	glob := filepath.Join(root, "lib/*/bin")

	for _, tc := range []struct{ path, want string }{
		{"", v15},
		{half, v15},
		{half + string(os.PathListSeparator) + both, both},
	} {
		b, err := findBinaries(tc.path, glob)
		if err != nil || b.initdb != filepath.Join(tc.want, "initdb") || b.postgres != filepath.Join(tc.want, "postgres") {
			t.Errorf("PATH=%q: %+v, %v; want those of %s", tc.path, b, err, tc.want)
		}
	}
	if _, err := findBinaries("", filepath.Join(root, "none/*/bin")); err == nil || err.Error() != notFound {
		t.Errorf("nothing installed: error %v, want %q", err, notFound)
	}
}
