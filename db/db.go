// Package db is Trawler's storage: one SQLite file holding every crawl, its
// frontier (the urls table, worked by leases), the resource description of
// each fetched page (paper 003 tables 1 and 2), links, errors and a
// full-text index. It implements crawl.Store for the engine (DB.Crawl) and
// serves the reads the window and the command line need: keyset-paged
// browsing, search, detail and CSV export.
//
// Re-crawls: a crawl has cycles (BeginRecrawl starts one); every visit of a
// page is a row of its history (History), its older texts are kept
// (Versions), and each cycle has a change report (ChangeReport, Changes,
// ExportChangesCSV). Near-duplicate groups found by the engine are stored
// with each page (NearDuplicates, PageQuery.NearDuplicates).
//
// The file is opened in WAL mode, so readers never wait for the writer.
// Writes go through one connection, reads through a small pool; nothing is
// cached in Go memory, and SQLite's page cache is kept modest, so a crawl of
// a million URLs costs disk, not RAM.
package db

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// migrations are the schema steps; file N (0001_….sql, …) takes the schema
// from version N-1 to N. Each runs in one transaction.
//
//go:embed migrations/*.sql
var migrations embed.FS

// appID marks the file as Trawler's ("TRWL") in the SQLite header.
const appID = 0x5452574c

// Page-cache sizes in KiB (negative cache_size is KiB in SQLite).
const (
	writerCacheKiB = 16 << 10
	readerCacheKiB = 8 << 10
	readerConns    = 4
)

// DB is an open Trawler database. It is safe for concurrent use.
type DB struct {
	path string        // the file, or the server's URL without its password
	w    *sql.DB       // SQLite: one connection for every write, so writers never collide
	r    *sql.DB       // SQLite: read-only pool; PostgreSQL: the same pool as w
	pg   bool          // a PostgreSQL server rather than a SQLite file
	ckpt *checkpointer // SQLite: copies the log into the file as pages are stored

	stmts    stmtCache // the writer's statements, prepared once
	rankings rankings  // SQLite: the latest rankings of searches by relevance
	keepsAll keepsAll  // SQLite: whether the latest searches matched every page
}

// DefaultPath returns where the window and the command line keep their
// database when none is named: trawler.db in the user's configuration
// folder, which it creates.
func DefaultPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", wrap(err, "find the configuration folder")
	}
	dir = filepath.Join(dir, "trawler")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", wrap(err, "create %s", dir)
	}
	return filepath.Join(dir, "trawler.db"), nil
}

// busyTimeout is how long a connection waits for a lock another process
// holds before SQLite answers "database is locked". The writer waits
// longer: SQLite's busy handler polls instead of queueing, so while
// another process on the file (a second crawl, the gateway) commits
// batch after batch, a waiting writer can miss its turn for seconds, and
// a failed commit ends the crawl. Readers only wait in WAL's rare
// recoveries.
func busyTimeout(write bool) time.Duration {
	if write {
		return 30 * time.Second
	}
	return 5 * time.Second
}

func dsn(path string, cacheKiB int, write bool) string {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout(write).Milliseconds()))
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", fmt.Sprintf("cache_size(-%d)", cacheKiB))
	if write {
		q.Add("_pragma", "journal_mode(WAL)")
		q.Add("_pragma", "synchronous(NORMAL)")
		q.Add("_pragma", "wal_autocheckpoint(8192)")
		// Statement journals (every insert under foreign keys keeps one)
		// stay in memory: in a temp file they cost the writer a pwrite per
		// page it touched, a fifth of its time. They hold one statement's
		// pages at most.
		q.Add("_pragma", "temp_store(MEMORY)")
		q.Set("_txlock", "immediate")
	} else {
		q.Add("_pragma", "query_only(1)")
	}
	return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
}

// Open opens the database at path, creating it if needed, and brings its
// schema up to date. A file from a newer Trawler (ErrNewerSchema), a file
// that is not a Trawler database (ErrNotDatabase) and a place that cannot
// be written (ErrCannotOpen) are refused; every error matches ErrStorage.
//
// A path that is a postgres:// URL opens a PostgreSQL database instead
// (the schema of its search_path), which several Trawler processes can
// share; its password is never kept, shown or logged.
func Open(path string) (*DB, error) {
	open := open
	if IsServerURL(path) {
		open = openPostgres
	}
	d, err := open(path)
	if err != nil {
		return nil, wrap(err, "open database %s", RedactURL(path))
	}
	return d, nil
}

func open(path string) (*DB, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return nil, fmt.Errorf("%w: it is a folder", ErrCannotOpen)
	}
	w, err := sql.Open("sqlite", dsn(path, writerCacheKiB, true))
	if err != nil {
		return nil, err
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	d := &DB{path: path, w: w}
	if err := w.Ping(); err != nil {
		w.Close()
		return nil, classifyOpen(err)
	}
	if err := d.migrate(context.Background()); err != nil {
		w.Close()
		return nil, classifyOpen(err)
	}
	r, err := sql.Open("sqlite", dsn(path, readerCacheKiB, false))
	if err != nil {
		w.Close()
		return nil, err
	}
	r.SetMaxOpenConns(readerConns)
	r.SetMaxIdleConns(readerConns)
	if err := r.Ping(); err != nil {
		w.Close()
		r.Close()
		return nil, classifyOpen(err)
	}
	d.r = r
	if d.ckpt, err = startCheckpointer(path); err != nil {
		w.Close()
		r.Close()
		return nil, classifyOpen(err)
	}
	return d, nil
}

// Path returns the file the database was opened from.
func (d *DB) Path() string { return d.path }

// Postgres reports whether the database is a PostgreSQL server, which
// several Trawler processes may share (see db/postgres.go).
func (d *DB) Postgres() bool { return d.pg }

// Close closes the database. Pending transactions are rolled back.
func (d *DB) Close() error {
	d.closeStmts()
	if d.pg {
		return wrap(d.w.Close(), "close database %s", d.path)
	}
	// The writer closes last: its close copies what is left of the log
	// into the file and removes the log.
	err := errors.Join(d.ckpt.close(), d.r.Close(), d.w.Close())
	return wrap(err, "close database %s", d.path)
}

// SchemaVersion is the schema version this build of Trawler writes.
func SchemaVersion() int {
	steps, _ := migrationFiles()
	return len(steps)
}

func migrationFiles() ([]string, error) {
	names, err := migrations.ReadDir("migrations")
	if err != nil {
		return nil, err
	}
	var files []string
	for _, n := range names {
		files = append(files, "migrations/"+n.Name())
	}
	sort.Strings(files)
	return files, nil
}

// migrate applies the missing schema steps in one transaction that also
// records the new version, so a crash leaves the old version whole. The
// version is read inside the write transaction, so two processes opening a
// new file at once cannot both apply a step. A new file takes every step
// at once: committing each alone made opening it cost three times as much.
func (d *DB) migrate(ctx context.Context) error {
	steps, err := migrationFiles()
	if err != nil {
		return err
	}
	tx, err := d.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	version, err := checkHeader(ctx, tx, len(steps))
	if err != nil || version == len(steps) {
		return err
	}
	for v := version; v < len(steps); v++ {
		body, err := migrations.ReadFile(steps[v])
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, string(body)); err != nil {
			return fmt.Errorf("migrate schema to version %d (%s): %w", v+1, steps[v], err)
		}
	}
	set := fmt.Sprintf("PRAGMA user_version = %d; PRAGMA application_id = %d", len(steps), appID)
	if _, err := tx.ExecContext(ctx, set); err != nil {
		return err
	}
	return tx.Commit()
}

// checkHeader returns the file's schema version after making sure the file
// is Trawler's (or empty) and not newer than this build.
func checkHeader(ctx context.Context, tx *sql.Tx, ours int) (int, error) {
	var id, version, objects int
	if err := tx.QueryRowContext(ctx, "PRAGMA application_id").Scan(&id); err != nil {
		return 0, err
	}
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return 0, err
	}
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&objects); err != nil {
		return 0, err
	}
	switch {
	case id != appID && id != 0:
		return 0, fmt.Errorf("%w: the file belongs to another application (SQLite application id %#x)", ErrNotDatabase, id)
	case id == 0 && objects > 0:
		return 0, fmt.Errorf("%w: it is a SQLite database made by another program", ErrNotDatabase)
	case version > ours:
		return 0, fmt.Errorf("%w: the file has schema version %d, this Trawler knows up to version %d; use a newer Trawler",
			ErrNewerSchema, version, ours)
	}
	return version, nil
}
