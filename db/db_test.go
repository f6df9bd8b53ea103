package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trawler/trawler/crawl"
)

func TestOpenFreshAndReopen(t *testing.T) {
	path := testDB(t)
	d := mustOpenPath(t, path)
	ctx := context.Background()
	cfg := crawl.DefaultConfig()
	cfg.Seeds = []string{"http://127.0.0.1/"}
	cfg.Auth = []crawl.HostAuth{{Host: "127.0.0.1:80", User: "u", Password: "secret"}}
	id, err := d.CreateCrawl(ctx, "first", cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !d.pg {
		checkSQLiteHeader(t, d)
	} else if v := pgSchemaVersion(t, d); v != pgSchemaSteps() {
		t.Errorf("schema version %d, want %d", v, pgSchemaSteps())
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}

	d = mustOpenPath(t, path)
	info, err := d.CrawlInfo(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if info.Name != "first" || len(info.Seeds) != 1 || info.State != StateStopped {
		t.Errorf("after reopening: %+v", info)
	}
	got, err := d.Settings(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if got.Depth != cfg.Depth || got.UserAgent != cfg.UserAgent || len(got.Auth) != 1 {
		t.Errorf("settings round trip: got %+v", got)
	}
	if got.Auth[0].Password != "" || got.Auth[0].User != "u" {
		t.Errorf("auth stored as %+v; want the user without the password", got.Auth[0])
	}
}

func TestOpenRefusesNewerSchema(t *testing.T) {
	path := testDB(t)
	d := mustOpenPath(t, path)
	set, ours := "PRAGMA user_version = 99", SchemaVersion()
	if d.pg {
		set, ours = "UPDATE trawler_schema SET version = 99", pgSchemaSteps()
	}
	if _, err := d.w.Exec(set); err != nil {
		t.Fatal(err)
	}
	d.Close()
	_, err := Open(path)
	t.Log(err)
	if !errors.Is(err, ErrNewerSchema) || !IsStorageError(err) {
		t.Fatalf("Open = %v; want ErrNewerSchema and a storage error", err)
	}
	for _, want := range []string{RedactURL(path), "version 99", fmt.Sprintf("up to version %d", ours)} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
}

func TestOpenRefusesOtherFiles(t *testing.T) {
	sqliteOnly(t)
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.db")
	if err := os.WriteFile(garbage, []byte(strings.Repeat("this is not sqlite\n", 300)), 0o644); err != nil {
		t.Fatal(err)
	}
	foreign := filepath.Join(dir, "foreign.db")
	f, err := sql.Open("sqlite", foreign)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Exec("CREATE TABLE notes (body TEXT)"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name, path string
		want       error
	}{
		{"garbage", garbage, ErrNotDatabase},
		{"another program's database", foreign, ErrNotDatabase},
		{"folder that is a file", filepath.Join(file, "trawler.db"), ErrCannotOpen},
		{"missing folder", filepath.Join(dir, "missing", "trawler.db"), ErrCannotOpen},
		{"a folder", dir, ErrCannotOpen},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Open(tt.path)
			if err == nil {
				d.Close()
				t.Fatal("Open succeeded")
			}
			t.Log(err)
			if !errors.Is(err, tt.want) || !IsStorageError(err) {
				t.Errorf("Open = %v; want %v, a storage error", err, tt.want)
			}
			if !strings.Contains(err.Error(), tt.path) {
				t.Errorf("error %q does not name the file", err)
			}
		})
	}
	if b, _ := os.ReadFile(garbage); !strings.HasPrefix(string(b), "this is not sqlite") {
		t.Error("Open changed the garbage file")
	}
}

func TestDefaultPath(t *testing.T) {
	sqliteOnly(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	p, err := DefaultPath()
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(p) != "trawler.db" || filepath.Base(filepath.Dir(p)) != "trawler" {
		t.Errorf("DefaultPath = %s", p)
	}
	if st, err := os.Stat(filepath.Dir(p)); err != nil || !st.IsDir() {
		t.Errorf("folder of %s not created: %v", p, err)
	}
}

func TestOpenOddPaths(t *testing.T) {
	sqliteOnly(t)
	for _, name := range []string{"Application Support", "what?", "hash#tag", "50% off", "网络 机器人", "semi;colon&amp"} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), name)
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "trawler.db")
			d := mustOpenPath(t, path)
			mustCrawl(t, d, "http://127.0.0.1/")
			d.Close()
			if st, err := os.Stat(path); err != nil || st.Size() == 0 {
				t.Fatalf("database not at %s: %v", path, err)
			}
			d = mustOpenPath(t, path)
			if list, err := d.Crawls(context.Background()); err != nil || len(list) != 1 {
				t.Errorf("reopened: %v, %v", list, err)
			}
		})
	}
}

// checkSQLiteHeader checks a SQLite file's version, owner and journal.
func checkSQLiteHeader(t *testing.T, d *DB) {
	t.Helper()
	var version, app int
	if err := d.r.QueryRow("PRAGMA user_version").Scan(&version); err != nil {
		t.Fatal(err)
	}
	if err := d.r.QueryRow("PRAGMA application_id").Scan(&app); err != nil {
		t.Fatal(err)
	}
	if version != SchemaVersion() || version < 1 || app != appID {
		t.Errorf("user_version %d application_id %#x, want %d and %#x", version, app, SchemaVersion(), appID)
	}
	var mode string
	if err := d.r.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode = %q, %v; want wal", mode, err)
	}
}

func pgSchemaVersion(t *testing.T, d *DB) int {
	t.Helper()
	var v int
	if err := d.r.QueryRow(`SELECT version FROM trawler_schema`).Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func pgSchemaSteps() int {
	steps, _ := pgMigrations.ReadDir("pgmigrations")
	return len(steps)
}
