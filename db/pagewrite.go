package db

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/rabin"
)

const (
	findDup = `
SELECT url FROM pages
WHERE crawl_id = ?1 AND content_fp = ?2 AND content_fp <> 0 AND fp <> ?3
ORDER BY id LIMIT 1`
	insertPage = `
INSERT INTO pages (crawl_id, fp, url, host, ip, depth, parent, status, final_url, content_type,
    charset, content_encoding, content_length, length, last_modified, expires, etag, title,
    description, keywords, author, robots, text, content_fp, duplicate_of, fetched_at, duration,
    redirects, resource, err)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (crawl_id, fp) DO NOTHING`
	insertLink = `
INSERT INTO links (page_id, seq, crawl_id, to_url, to_fp, kind, text, nofollow) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`
	insertError = `INSERT INTO errors (crawl_id, url, status, message, at) VALUES (?, ?, ?, ?, ?)`

	// indexPages adds pages to the full-text index, all of a batch at once.
	indexPages = `
INSERT INTO pages_fts (rowid, title, text, url)
SELECT id, title, text, url FROM pages WHERE id IN (SELECT value FROM json_each(?))`
	// unindexPages removes pages from the full-text index; they must be in it.
	unindexPages = `
INSERT INTO pages_fts (pages_fts, rowid, title, text, url)
SELECT 'delete', id, title, text, url FROM pages WHERE `
)

// pageWriter stores the pages of one batch within its transaction.
type pageWriter struct {
	tx                              *sql.Tx
	crawl                           int64
	dup, page, link, errRow, finish *sql.Stmt
	all                             []*sql.Stmt
	fresh                           []int64 // pages stored by this batch, not yet in the full-text index
}

func newPageWriter(ctx context.Context, tx *sql.Tx, crawlID int64) (*pageWriter, error) {
	w := &pageWriter{tx: tx, crawl: crawlID}
	for _, p := range []struct {
		dst **sql.Stmt
		sql string
	}{
		{&w.dup, findDup}, {&w.page, insertPage}, {&w.link, insertLink},
		{&w.errRow, insertError}, {&w.finish, finishURL},
	} {
		st, err := tx.PrepareContext(ctx, p.sql)
		if err != nil {
			w.close()
			return nil, wrap(err, "apply batch: prepare")
		}
		*p.dst = st
		w.all = append(w.all, st)
	}
	return w, nil
}

func (w *pageWriter) close() {
	for _, st := range w.all {
		st.Close()
	}
}

// write stores one page, its links and error row, and finishes its URL.
func (w *pageWriter) write(ctx context.Context, p *crawl.Page, now int64) error {
	fp := int64(p.FP)
	dup := p.DuplicateOf
	if p.ContentFP != 0 {
		var earlier string
		err := w.dup.QueryRowContext(ctx, w.crawl, int64(p.ContentFP), fp).Scan(&earlier)
		switch {
		case err == nil:
			dup = earlier
		case err != sql.ErrNoRows:
			return wrap(err, "store page %s: find duplicate", p.URL)
		}
	}
	id, err := w.insert(ctx, p, dup, now)
	if err == errExists {
		if err = w.remove(ctx, fp); err == nil {
			id, err = w.insert(ctx, p, dup, now)
		}
	}
	if err != nil {
		return wrap(err, "store page %s", p.URL)
	}
	w.fresh = append(w.fresh, id)
	for i, l := range p.Links {
		_, err := w.link.ExecContext(ctx, id, i, w.crawl, l.URL, int64(rabin.FingerprintString(l.URL)), string(l.Kind), l.Text, l.NoFollow)
		if err != nil {
			return wrap(err, "store links of %s", p.URL)
		}
	}
	state := crawl.Done
	if p.Failed() {
		state = crawl.Error
		if _, err := w.errRow.ExecContext(ctx, w.crawl, p.URL, p.Status, failure(p), now); err != nil {
			return wrap(err, "log error of %s", p.URL)
		}
	}
	_, err = w.finish.ExecContext(ctx, w.crawl, fp, p.URL, p.Depth, p.Parent, p.Resource, int(state), now)
	return wrap(err, "finish url %s", p.URL)
}

// errExists says the crawl already has a page for the URL.
var errExists = errors.New("page exists")

func (w *pageWriter) insert(ctx context.Context, p *crawl.Page, dup string, now int64) (int64, error) {
	fetched := p.FetchedAt.UnixNano()
	if p.FetchedAt.IsZero() {
		fetched = now
	}
	redirects, err := hopsJSON(p.Redirects)
	if err != nil {
		return 0, fmt.Errorf("encode redirects: %w", err)
	}
	res, err := w.page.ExecContext(ctx, w.crawl, int64(p.FP), p.URL, p.Host, p.IP, p.Depth, p.Parent, p.Status,
		p.FinalURL, p.ContentType, p.Charset, p.ContentEncoding, p.ContentLength, p.Length,
		unixSeconds(p.LastModified), unixSeconds(p.Expires), p.ETag, p.Title, p.Description,
		p.Keywords, p.Author, p.Robots, p.Text, int64(p.ContentFP), dup, fetched,
		int64(p.Duration), redirects, p.Resource, p.Err)
	if err != nil {
		return 0, err
	}
	if n, err := res.RowsAffected(); err != nil {
		return 0, err
	} else if n == 0 {
		return 0, errExists
	}
	return res.LastInsertId()
}

// remove deletes the crawl's page with fingerprint fp, its links and its
// full-text entry, so that a page fetched again replaces it.
func (w *pageWriter) remove(ctx context.Context, fp int64) error {
	var id int64
	err := w.tx.QueryRowContext(ctx, `SELECT id FROM pages WHERE crawl_id = ? AND fp = ?`, w.crawl, fp).Scan(&id)
	if err != nil {
		return err
	}
	if i := slices.Index(w.fresh, id); i >= 0 {
		w.fresh = slices.Delete(w.fresh, i, i+1)
	} else if _, err := w.tx.ExecContext(ctx, unindexPages+`id = ?`, id); err != nil {
		return err
	}
	if _, err := w.tx.ExecContext(ctx, `DELETE FROM links WHERE page_id = ?`, id); err != nil {
		return err
	}
	_, err = w.tx.ExecContext(ctx, `DELETE FROM pages WHERE id = ?`, id)
	return err
}

// index adds the batch's pages to the full-text index in one statement.
func (w *pageWriter) index(ctx context.Context) error {
	if len(w.fresh) == 0 {
		return nil
	}
	ids, err := json.Marshal(w.fresh)
	if err != nil {
		return err
	}
	_, err = w.tx.ExecContext(ctx, indexPages, string(ids))
	return wrap(err, "index pages for search")
}

// failure is the error log's message for a failed page.
func failure(p *crawl.Page) string {
	if p.Err != "" {
		return p.Err
	}
	return fmt.Sprintf("HTTP %d %s", p.Status, http.StatusText(p.Status))
}

func hopsJSON(h []crawl.Hop) (any, error) {
	if len(h) == 0 {
		return nil, nil
	}
	b, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	return string(b), nil
}

// unixNanos and unixSeconds store times; the zero time is NULL.
func unixNanos(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UnixNano()
}

func unixSeconds(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.Unix()
}

func fromNanos(n sql.NullInt64) time.Time {
	if !n.Valid {
		return time.Time{}
	}
	return time.Unix(0, n.Int64).UTC()
}

func fromSeconds(n sql.NullInt64) time.Time {
	if !n.Valid {
		return time.Time{}
	}
	return time.Unix(n.Int64, 0).UTC()
}
