package pgtest

import (
	"context"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
)

func TestMain(m *testing.M) { os.Exit(Main(m)) }

// TestSchemasApart: each URL is an empty schema of its own, and its
// search_path is where unqualified names go.
func TestSchemasApart(t *testing.T) {
	ctx := context.Background()
	a, b := URL(t), URL(t)
	ca, err := pgx.Connect(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	defer ca.Close(ctx)
	cb, err := pgx.Connect(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	defer cb.Close(ctx)
	if _, err := ca.Exec(ctx, "CREATE TABLE notes (body text)"); err != nil {
		t.Fatal(err)
	}
	var schema string
	if err := ca.QueryRow(ctx, "SELECT table_schema FROM information_schema.tables WHERE table_name = 'notes'").Scan(&schema); err != nil {
		t.Fatal(err)
	}
	var current string
	ca.QueryRow(ctx, "SELECT current_schema()").Scan(&current)
	if schema != current || schema == "public" {
		t.Errorf("the table went to schema %q, the search path's is %q", schema, current)
	}
	if _, err := cb.Exec(ctx, "SELECT * FROM notes"); err == nil {
		t.Error("a table of one URL's schema is seen through another's")
	}
}

func TestSkipOrFail(t *testing.T) {
	t.Setenv("CI", "true")
	if !mustRun() {
		t.Error("CI=true must make PostgreSQL tests fail rather than skip")
	}
	t.Setenv("CI", "")
	if mustRun() {
		t.Error("outside CI the tests skip")
	}
}
