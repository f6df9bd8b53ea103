package db

import (
	"context"
	"database/sql"
	"slices"

	"github.com/trawler/trawler/crawl"
)

// freshPages are the pages a batch stored or rewrote that are not in the
// full-text index yet; the batch indexes them all at its end (see
// pageWriter.index). Most pages need nothing of fulltext (no CJK text):
// they are indexed from the pages table itself, which saves calling back
// into Go twice a page and copying its text each way; the others go
// through the pages_fulltext view. Both give the index the same words.
type freshPages struct {
	plain, spaced []int64
}

// add notes page id as p's content, in the list its text needs.
func (f *freshPages) add(id int64, p *crawl.Page) {
	f.remove(id)
	if needsFulltext(p.Title) || needsFulltext(p.Text) {
		f.spaced = append(f.spaced, id)
	} else {
		f.plain = append(f.plain, id)
	}
}

// has reports whether page id waits to be indexed.
func (f *freshPages) has(id int64) bool {
	return slices.Contains(f.plain, id) || slices.Contains(f.spaced, id)
}

// remove forgets page id and reports whether it was waiting.
func (f *freshPages) remove(id int64) bool {
	for _, l := range []*[]int64{&f.plain, &f.spaced} {
		if i := slices.Index(*l, id); i >= 0 {
			*l = slices.Delete(*l, i, i+1)
			return true
		}
	}
	return false
}

// Statements adding pages to the full-text index, each for a JSON array
// of page ids.
const (
	indexPlain = `
INSERT INTO pages_fts (rowid, title, text, url)
SELECT id, title, text, url FROM pages WHERE id IN (SELECT value FROM json_each(?))`
	indexSpaced = `
INSERT INTO pages_fts (rowid, title, text, url)
SELECT id, title, text, url FROM pages_fulltext WHERE id IN (SELECT value FROM json_each(?))`
)

// index adds the pages to the full-text index, a statement for each list.
func (f *freshPages) index(ctx context.Context, tx *sql.Tx) error {
	for _, l := range []struct {
		ids []int64
		sql string
	}{{f.plain, indexPlain}, {f.spaced, indexSpaced}} {
		if len(l.ids) == 0 {
			continue
		}
		if _, err := tx.ExecContext(ctx, l.sql, jsonInts(l.ids)); err != nil {
			return wrap(err, "index pages for search")
		}
	}
	return nil
}
