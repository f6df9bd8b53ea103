package db

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Errors callers tell apart with errors.Is. Every failure to open, read or
// write the database matches ErrStorage (the command line exits with code 3
// for them); ErrNewerSchema, ErrNotDatabase and ErrCannotOpen say more about
// why Open failed and match ErrStorage too. ErrNotFound and ErrBadQuery are
// the caller's mistakes, not the database's, and do not; nor do
// ErrUnfinished, a re-crawl asked of a crawl that has not ended, and
// ErrInput, input that is not valid.
var (
	ErrStorage     = errors.New("database error")
	ErrNewerSchema = errors.New("database was made by a newer version of Trawler")
	ErrNotDatabase = errors.New("not a Trawler database")
	ErrCannotOpen  = errors.New("cannot open or create the database file (does the folder exist, is it writable?)")
	ErrNotFound    = errors.New("not found")
	ErrBadQuery    = errors.New("bad search query")
	ErrUnfinished  = errors.New("the crawl is not done: resume it before a re-crawl")
	ErrInput       = errors.New("bad input") // a URL, list entry or word list the caller gave is not valid
)

// IsStorageError reports whether err came from the database itself, as
// opposed to bad input or cancellation.
func IsStorageError(err error) bool { return errors.Is(err, ErrStorage) }

// storageError marks an error as ErrStorage without adding words to it.
type storageError struct{ err error }

func (e *storageError) Error() string   { return e.err.Error() }
func (e *storageError) Unwrap() []error { return []error{ErrStorage, e.err} }

// wrap says what was being done when err happened and marks it as a
// storage error, unless it is a cancellation or already classified.
func wrap(err error, format string, a ...any) error {
	if err == nil {
		return nil
	}
	err = fmt.Errorf(format+": %w", append(a, err)...)
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) ||
		errors.Is(err, ErrNotFound) || errors.Is(err, ErrBadQuery) || errors.Is(err, ErrUnfinished) ||
		errors.Is(err, ErrInput) || errors.Is(err, ErrStorage) {
		return err
	}
	return &storageError{err}
}

// sqliteCode returns the primary SQLite result code inside err, or 0.
func sqliteCode(err error) int {
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code() & 0xff
	}
	return 0
}

// classifyOpen turns the SQLite errors that opening a file can give into
// the package's sentinel errors, keeping SQLite's words beside them.
func classifyOpen(err error) error {
	switch sqliteCode(err) {
	case sqlite3.SQLITE_NOTADB:
		return fmt.Errorf("%w: %w", ErrNotDatabase, err)
	case sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_PERM:
		return fmt.Errorf("%w: %w", ErrCannotOpen, err)
	}
	return err
}

// badQuery turns an SQLite error from running a user's full-text query into
// ErrBadQuery: our own SQL is fixed and tested, so a generic SQL error
// there comes from the query text (fts5: syntax error near …).
func badQuery(err error, query string) error {
	if err != nil && (sqliteCode(err) == sqlite3.SQLITE_ERROR || pgCode(err) == "42601") {
		return fmt.Errorf("%w %q: %s (type plain words and \"phrases\", or see %s in the help)",
			ErrBadQuery, query, ftsReason(err), AdvancedPrefix)
	}
	return err
}

// ftsReason is what FTS5 said about a query, without SQLite's framing.
func ftsReason(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, "fts5: "); i >= 0 {
		return msg[i+len("fts5: "):]
	}
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		return msg[i+2:]
	}
	return msg
}
