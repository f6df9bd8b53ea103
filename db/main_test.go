package db

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"testing"

	"github.com/trawler/trawler/db/pgtest"
)

// TestMain runs the store's tests on SQLite, then runs this test binary
// again, with the same flags, against PostgreSQL: one suite, both stores.
// Where PostgreSQL is not installed the second run is skipped with a
// message, unless CI=true.
func TestMain(m *testing.M) {
	if onPostgres {
		os.Exit(pgtest.Main(m))
	}
	code := m.Run()
	if code == 0 && !benchmarking() {
		code = runOnPostgres()
	}
	os.Exit(code)
}

func benchmarking() bool {
	f := flag.Lookup("test.bench")
	return f != nil && f.Value.String() != ""
}

func runOnPostgres() int {
	if ok, why := pgtest.Available(); !ok {
		fmt.Fprintln(os.Stderr, "db: the store tests did not run against PostgreSQL:", why)
		if os.Getenv("CI") == "true" {
			return 1
		}
		return 0
	}
	cmd := exec.Command(os.Args[0], os.Args[1:]...)
	cmd.Env = append(os.Environ(), "TRAWLER_TEST_BACKEND=postgres")
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "db: the store tests failed against PostgreSQL:", err)
		return 1
	}
	return 0
}
