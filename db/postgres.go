package db

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"net/url"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// pgMigrations are the PostgreSQL schema's steps, numbered like the
// SQLite ones but counted on their own (trawler_schema.version).
//
//go:embed pgmigrations/*.sql
var pgMigrations embed.FS

// pgConns is the most connections one process opens to the server: the
// writer, the scorer, the readers of the window and the claims share
// them. Robots × pgConns must stay under the server's max_connections
// (100 by default); PgBouncer in transaction mode lifts that bound.
const pgConns = 8

// IsServerURL reports whether a database name is a PostgreSQL URL
// (postgres:// or postgresql://) rather than a SQLite file.
func IsServerURL(name string) bool {
	return strings.HasPrefix(name, "postgres://") || strings.HasPrefix(name, "postgresql://")
}

// RedactURL returns a database name fit to show and to store: a server
// URL without its password.
func RedactURL(name string) string {
	if !IsServerURL(name) {
		return name
	}
	u, err := url.Parse(name)
	if err != nil {
		return "postgres://(unreadable URL)"
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.User(u.User.Username())
	}
	return u.String()
}

// openPostgres connects to a PostgreSQL server and brings its schema up to
// date.
func openPostgres(rawURL string) (*DB, error) {
	cfg, err := pgx.ParseConfig(rawURL)
	if err != nil {
		return nil, fmt.Errorf("%w: %s is not a PostgreSQL URL: %v", ErrCannotOpen, RedactURL(rawURL), redact(err, rawURL))
	}
	conns := sql.OpenDB(pgConnector{stdlib.GetConnector(*cfg)})
	conns.SetMaxOpenConns(pgConns)
	conns.SetMaxIdleConns(pgConns)
	d := &DB{path: RedactURL(rawURL), w: conns, r: conns, pg: true}
	ctx := context.Background()
	if err := conns.PingContext(ctx); err != nil {
		conns.Close()
		return nil, fmt.Errorf("%w: %v", ErrCannotOpen, redact(err, rawURL))
	}
	if err := d.migratePG(ctx); err != nil {
		conns.Close()
		return nil, err
	}
	return d, nil
}

// redact removes a URL's password from an error's words.
func redact(err error, rawURL string) error {
	u, perr := url.Parse(rawURL)
	if perr != nil || u.User == nil {
		return err
	}
	pw, ok := u.User.Password()
	if !ok || pw == "" || !strings.Contains(err.Error(), pw) {
		return err
	}
	return errors.New(strings.ReplaceAll(err.Error(), pw, "xxxxx"))
}

// migratePG applies the missing PostgreSQL schema steps, each in one
// transaction with the new version, under an advisory lock, so robots
// starting together against a new database apply each step once.
func (d *DB) migratePG(ctx context.Context) error {
	names, err := pgMigrations.ReadDir("pgmigrations")
	if err != nil {
		return err
	}
	for {
		done, err := d.migratePGOne(ctx, names)
		if err != nil || done {
			return err
		}
	}
}

// pgLockMigrate is the advisory lock key of schema changes ("TRWL").
const pgLockMigrate = 0x5452574c

func (d *DB) migratePGOne(ctx context.Context, steps []fs.DirEntry) (done bool, err error) {
	tx, err := d.w.BeginTx(ctx, nil)
	if err != nil {
		return false, wrap(err, "migrate schema")
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(?)`, pgLockMigrate); err != nil {
		return false, wrap(err, "migrate schema: lock")
	}
	version, err := pgVersion(ctx, tx, len(steps))
	if err != nil || version == len(steps) {
		return true, err
	}
	body, err := pgMigrations.ReadFile("pgmigrations/" + steps[version].Name())
	if err != nil {
		return false, err
	}
	if _, err := tx.ExecContext(ctx, string(body)); err != nil {
		return false, wrap(err, "migrate schema to version %d (%s)", version+1, steps[version].Name())
	}
	if _, err := tx.ExecContext(ctx, `UPDATE trawler_schema SET version = ?`, version+1); err != nil {
		return false, wrap(err, "migrate schema to version %d", version+1)
	}
	return false, wrap(tx.Commit(), "migrate schema to version %d", version+1)
}

// pgVersion reads the schema version of the search path's schema: 0 for an
// empty one; an error for a schema of another program or of a newer
// Trawler.
func pgVersion(ctx context.Context, tx *sql.Tx, ours int) (int, error) {
	var ok bool
	if err := tx.QueryRowContext(ctx, `SELECT to_regclass('trawler_schema') IS NOT NULL`).Scan(&ok); err != nil {
		return 0, wrap(err, "read the schema version")
	}
	if !ok {
		var tables int
		err := tx.QueryRowContext(ctx, `SELECT count(*) FROM information_schema.tables
WHERE table_schema = current_schema() AND table_name IN ('crawls', 'urls', 'pages')`).Scan(&tables)
		if err != nil {
			return 0, wrap(err, "read the schema")
		}
		if tables > 0 {
			return 0, fmt.Errorf("%w: its schema has tables named like Trawler's but is not Trawler's", ErrNotDatabase)
		}
		return 0, nil
	}
	var version int
	if err := tx.QueryRowContext(ctx, `SELECT version FROM trawler_schema`).Scan(&version); err != nil {
		return 0, wrap(err, "read the schema version")
	}
	if version > ours {
		return 0, fmt.Errorf("%w: the database has schema version %d, this Trawler knows up to version %d; use a newer Trawler",
			ErrNewerSchema, version, ours)
	}
	return version, nil
}

// idsIn is a subquery of the integers of a JSON array given as its one
// argument: json_each on SQLite, jsonb_array_elements_text on PostgreSQL.
func (d *DB) idsIn() string {
	if d.pg {
		return `(SELECT CAST(v AS BIGINT) FROM jsonb_array_elements_text(CAST(? AS JSONB)) AS v)`
	}
	return `(SELECT value FROM json_each(?))`
}

// skipLocked is the lock clause of a claim's SELECT: FOR UPDATE SKIP
// LOCKED on PostgreSQL, nothing on SQLite (see claimURLs).
func (d *DB) skipLocked() string {
	if d.pg {
		return "FOR UPDATE SKIP LOCKED"
	}
	return ""
}

// retry runs a transaction again when PostgreSQL chose it as the victim
// of a deadlock or a serialization failure between robots: the whole
// transaction was rolled back, so running it again is safe.
func (d *DB) retry(ctx context.Context, tx func() error) error {
	for attempt := 0; ; attempt++ {
		err := tx()
		code := pgCode(err)
		if !d.pg || attempt == 8 || (code != "40P01" && code != "40001") {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(time.Duration(5+rand.IntN(20*(attempt+1))) * time.Millisecond):
		}
	}
}

// pgCode returns the SQLSTATE of a PostgreSQL error, or "".
func pgCode(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

// ServerPID is the process ID of a PostgreSQL server process serving this
// database, for measuring what the server spends (trawler bench robots).
func (d *DB) ServerPID(ctx context.Context) (int, error) {
	if !d.pg {
		return 0, fmt.Errorf("%s is not a PostgreSQL database", d.path)
	}
	var pid int
	err := d.w.QueryRowContext(ctx, `SELECT pg_backend_pid()`).Scan(&pid)
	return pid, wrap(err, "read the server's process ID")
}
