package db

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"time"

	"github.com/trawler/trawler/urlfilter"
)

// ListEntry is an entry of the black or white list as stored: what a
// person added by hand or imported, with where it came from.
type ListEntry struct {
	ID int64
	urlfilter.Entry
	Source  string // manual or import
	Note    string
	AddedAt time.Time
}

// Sources of list entries.
const (
	SourceManual = "manual"
	SourceImport = "import"
)

const upsertEntry = `
INSERT INTO filter_entries (list, kind, value, category, source, note, added_at) VALUES (?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (kind, value) DO UPDATE SET list = excluded.list, category = excluded.category,
    source = excluded.source, note = excluded.note, added_at = excluded.added_at
WHERE filter_entries.list <> excluded.list OR filter_entries.category <> excluded.category
    OR filter_entries.note <> excluded.note`

// AddListEntries adds entries to the lists in one transaction and returns
// how many were new or changed. An entry of the same kind and value moves
// to the new list and category: a URL, host or prefix is on one list.
func (d *DB) AddListEntries(ctx context.Context, source, note string, es []urlfilter.Entry) (int64, error) {
	tx, err := d.w.BeginTx(ctx, nil)
	if err != nil {
		return 0, wrap(err, "add list entries")
	}
	defer tx.Rollback()
	st, err := tx.PrepareContext(ctx, upsertEntry)
	if err != nil {
		return 0, wrap(err, "add list entries")
	}
	defer st.Close()
	now := time.Now().UnixNano()
	var n int64
	for _, e := range es {
		if e.List == urlfilter.None || e.Kind == 0 || e.Value == "" {
			return 0, fmt.Errorf("%w: list entry %+v is incomplete", ErrInput, e)
		}
		res, err := st.ExecContext(ctx, e.List.String(), e.Kind.String(), e.Value, e.Category, source, note, now)
		if err != nil {
			return 0, wrap(err, "add list entry %s", e.Value)
		}
		k, _ := res.RowsAffected()
		n += k
	}
	return n, wrap(tx.Commit(), "add list entries")
}

// RemoveListEntries removes entries by kind and value (from whichever
// list holds them) and returns how many there were.
func (d *DB) RemoveListEntries(ctx context.Context, es []urlfilter.Entry) (int64, error) {
	tx, err := d.w.BeginTx(ctx, nil)
	if err != nil {
		return 0, wrap(err, "remove list entries")
	}
	defer tx.Rollback()
	var n int64
	for _, e := range es {
		res, err := tx.ExecContext(ctx, `DELETE FROM filter_entries WHERE kind = ? AND value = ?`, e.Kind.String(), e.Value)
		if err != nil {
			return 0, wrap(err, "remove list entry %s", e.Value)
		}
		k, _ := res.RowsAffected()
		n += k
	}
	return n, wrap(tx.Commit(), "remove list entries")
}

// ListEntries calls fn with every entry of list (both lists for
// urlfilter.None), hosts first, then prefixes, then URLs, each sorted.
func (d *DB) ListEntries(ctx context.Context, list urlfilter.List, fn func(ListEntry) error) error {
	q := `SELECT id, list, kind, value, category, source, note, added_at FROM filter_entries`
	var args []any
	if list != urlfilter.None {
		q += ` WHERE list = ?`
		args = append(args, list.String())
	}
	q += ` ORDER BY CASE kind WHEN 'host' THEN 0 WHEN 'prefix' THEN 1 ELSE 2 END, value`
	rows, err := d.r.QueryContext(ctx, q, args...)
	if err != nil {
		return wrap(err, "read list entries")
	}
	defer rows.Close()
	for rows.Next() {
		var e ListEntry
		var l, k string
		var at int64
		if err := rows.Scan(&e.ID, &l, &k, &e.Value, &e.Category, &e.Source, &e.Note, &at); err != nil {
			return wrap(err, "read list entries")
		}
		e.List, e.Kind, e.AddedAt = listOf(l), kindOf(k), time.Unix(0, at).UTC()
		if err := fn(e); err != nil {
			return err
		}
	}
	return wrap(rows.Err(), "read list entries")
}

// FindListEntry returns the stored entry of a kind and value; ok is false
// when there is none.
func (d *DB) FindListEntry(ctx context.Context, k urlfilter.Kind, value string) (e ListEntry, ok bool, err error) {
	var l, kind string
	var at int64
	err = d.r.QueryRowContext(ctx, `SELECT id, list, kind, value, category, source, note, added_at FROM filter_entries
WHERE kind = ? AND value = ?`, k.String(), value).Scan(&e.ID, &l, &kind, &e.Value, &e.Category, &e.Source, &e.Note, &at)
	if err == sql.ErrNoRows {
		return e, false, nil
	}
	if err != nil {
		return e, false, wrap(err, "read list entry %s", value)
	}
	e.List, e.Kind, e.AddedAt = listOf(l), kindOf(kind), time.Unix(0, at).UTC()
	return e, true, nil
}

// ListsVersion counts the changes made to the stored lists: a gateway
// reloads when it moves, whoever made the change.
func (d *DB) ListsVersion(ctx context.Context) (int64, error) {
	var v int64
	err := d.r.QueryRowContext(ctx, `SELECT value FROM filter_meta WHERE key = 'version'`).Scan(&v)
	return v, wrap(err, "read the lists' version")
}

func listOf(s string) urlfilter.List {
	l, _ := urlfilter.ParseList(s)
	return l
}

func kindOf(s string) urlfilter.Kind {
	switch s {
	case "url":
		return urlfilter.KindURL
	case "host":
		return urlfilter.KindHost
	case "prefix":
		return urlfilter.KindPrefix
	}
	return 0
}

// ExportLists writes the lists one entry per line, as
// urlfilter.ReadEntries reads them: each list (or only the one asked for)
// under a heading comment, and after its entries, when crawlID is not 0,
// that crawl's verdicts on it.
func (d *DB) ExportLists(ctx context.Context, w io.Writer, only urlfilter.List, crawlID int64) error {
	for _, l := range []urlfilter.List{urlfilter.Black, urlfilter.White} {
		if only != urlfilter.None && l != only {
			continue
		}
		if _, err := fmt.Fprintf(w, "# %s list, exported by Trawler %s\n", l, time.Now().UTC().Format(time.RFC3339)); err != nil {
			return err
		}
		err := d.ListEntries(ctx, l, func(e ListEntry) error { return urlfilter.WriteEntry(w, e.Entry) })
		if err != nil {
			return err
		}
		if crawlID == 0 {
			continue
		}
		fmt.Fprintf(w, "# verdicts of crawl %d\n", crawlID)
		err = d.VerdictEntries(ctx, crawlID, time.Time{}, func(e VerdictEntry) error {
			if e.List != l {
				return nil
			}
			return urlfilter.WriteEntry(w, e.Entry)
		})
		if err != nil {
			return err
		}
	}
	return nil
}
