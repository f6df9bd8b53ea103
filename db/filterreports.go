package db

import (
	"context"
	"time"
)

// MistakeReport is a "this is a mistake" report sent from the gateway's block
// page, kept for review in the window.
type MistakeReport struct {
	ID       int64
	URL      string // what was asked for
	Client   string // the address it was asked from
	List     string // black or white, of the entry that decided
	Kind     string // url, host or prefix
	Entry    string // the entry that decided
	Category string
	Comment  string // what the person wrote, if anything
	At       time.Time
	Resolved bool
}

// AddReport records a report and returns its id.
func (d *DB) AddReport(ctx context.Context, r MistakeReport) (int64, error) {
	if r.At.IsZero() {
		r.At = time.Now()
	}
	var id int64
	err := d.w.QueryRowContext(ctx, `INSERT INTO filter_reports (url, client, list, kind, entry, category, comment, at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, r.URL, r.Client, r.List, r.Kind, r.Entry, r.Category, r.Comment,
		r.At.UnixNano()).Scan(&id)
	return id, wrap(err, "record a report on %s", r.URL)
}

// Reports returns the latest reports, newest first: only those not
// resolved yet when open is true.
func (d *DB) Reports(ctx context.Context, open bool, limit int) ([]MistakeReport, error) {
	q := `SELECT id, url, client, list, kind, entry, category, comment, at, resolved FROM filter_reports`
	if open {
		q += ` WHERE resolved = 0`
	}
	q += ` ORDER BY at DESC, id DESC LIMIT ?`
	rows, err := d.r.QueryContext(ctx, q, limit)
	if err != nil {
		return nil, wrap(err, "read reports")
	}
	defer rows.Close()
	var out []MistakeReport
	for rows.Next() {
		var r MistakeReport
		var at int64
		if err := rows.Scan(&r.ID, &r.URL, &r.Client, &r.List, &r.Kind, &r.Entry, &r.Category, &r.Comment, &at, &r.Resolved); err != nil {
			return nil, wrap(err, "read reports")
		}
		r.At = time.Unix(0, at).UTC()
		out = append(out, r)
	}
	return out, wrap(rows.Err(), "read reports")
}

// ResolveReport marks a report as dealt with.
func (d *DB) ResolveReport(ctx context.Context, id int64) error {
	res, err := d.w.ExecContext(ctx, `UPDATE filter_reports SET resolved = 1 WHERE id = ?`, id)
	if err != nil {
		return wrap(err, "resolve report %d", id)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return wrap(ErrNotFound, "report %d", id)
	}
	return nil
}
