package db

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/trawler/trawler/crawl"
)

const (
	findDup = `
SELECT url FROM pages
WHERE crawl_id = ?1 AND content_fp = ?2 AND content_fp <> 0 AND fp <> ?3
ORDER BY id LIMIT 1`
	// insertPage stores a new page. Its duplicate_of is looked up in the
	// same statement (the query of findDup), which saves the writer a
	// statement per page; the page's own DuplicateOf is kept when no
	// earlier page has its text. Its placeholders are plain ?, in the
	// order pageArgs gives the values: the driver looks the name of every
	// numbered one up and copies it, per page.
	insertPage = `
INSERT INTO pages (crawl_id, fp, url, host, ip, depth, parent, status, final_url, content_type,
    charset, content_encoding, content_length, length, last_modified, expires, etag, title,
    description, keywords, author, robots, text, content_fp, duplicate_of, fetched_at, duration,
    redirects, resource, err, cycle, change, sketch, near_group, near_of, near_similarity,
    redirect_to, truncated, links, near)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
    coalesce((SELECT url FROM pages WHERE crawl_id = ? AND content_fp = ? AND content_fp <> 0 AND fp <> ?
              ORDER BY id LIMIT 1), ?),
    ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (crawl_id, fp) DO NOTHING`
	// returningID ends insertPage on PostgreSQL, whose driver has no
	// LastInsertId.
	returningID = `
RETURNING id`
	insertError = `INSERT INTO errors (crawl_id, url, status, message, at) VALUES (?, ?, ?, ?, ?)`

	// unindexPages removes pages from the full-text index; they must be in it.
	unindexPages = `
INSERT INTO pages_fts (pages_fts, rowid, title, text, url)
SELECT 'delete', id, title, text, url FROM pages_fulltext WHERE `
)

// pageWriter stores the pages of one batch within its transaction.
type pageWriter struct {
	d        *DB
	tx       *sql.Tx
	crawl    int64
	cycle    int      // the crawl's current cycle
	hist     settings // versions kept, revisit bounds
	st       statements
	fresh    freshPages     // pages stored by this batch, not yet in the full-text index
	counts   countDeltas    // what the batch changes in page_counts
	targets  pendingTargets // link targets of the batch's pages, not yet in their index (SQLite)
	args     []any          // reused arguments of the links statement
	pageArgs []any          // reused arguments of insertPage
	pg       bool           // PostgreSQL keeps its index itself (pages.fts): nothing to index or unindex
	touched  touchedGroups  // near-duplicate groups whose pages' near column may be out of date
}

// statements are the prepared statements of a pageWriter.
type statements struct {
	dup, page, errRow, finish *sql.Stmt
	prior, prevVisit, visit   *sql.Stmt
	keepRow, confirm          *sql.Stmt
	rewrite, refresh          *sql.Stmt
	unlink                    *sql.Stmt // nil on PostgreSQL, which indexes links itself
	saveVersion, pruneVers    *sql.Stmt
	mark                      *sql.Stmt
	all                       []*sql.Stmt
}

// pageQueries returns the pageWriter's statements, each with where it goes.
func (w *pageWriter) pageQueries() []struct {
	dst **sql.Stmt
	sql string
} {
	return []struct {
		dst **sql.Stmt
		sql string
	}{
		{&w.st.dup, findDup}, {&w.st.page, pageInsert(w.pg)},
		{&w.st.errRow, insertError}, {&w.st.finish, finishURL},
		{&w.st.prior, selectPrior}, {&w.st.prevVisit, selectPrevVisit}, {&w.st.visit, upsertVisit},
		{&w.st.keepRow, updateKeptRow}, {&w.st.confirm, confirmRow},
		{&w.st.rewrite, rewriteRow}, {&w.st.refresh, refreshRow},
		{&w.st.saveVersion, saveVersion}, {&w.st.pruneVers, pruneVersions},
		{&w.st.mark, markPending},
	}
}

// pageInsert is insertPage in the form the store's driver needs.
func pageInsert(pg bool) string {
	if pg {
		return insertPage + returningID
	}
	return insertPage
}

// writerQueries lists every statement a batch may run, for DB.prepare.
func writerQueries(pg bool) []string {
	qs := []string{insertURL, insertSkipped, settleNearGroup}
	for _, q := range (&pageWriter{pg: pg}).pageQueries() {
		qs = append(qs, q.sql)
	}
	if !pg {
		qs = append(qs, removeTargets)
	}
	return qs
}

func newPageWriter(ctx context.Context, d *DB, tx *sql.Tx, crawlID int64, cycle int, hist settings) (*pageWriter, error) {
	w := &pageWriter{d: d, tx: tx, crawl: crawlID, cycle: cycle, hist: hist, pg: d.pg, counts: countDeltas{}}
	for _, q := range w.pageQueries() {
		st, err := d.stmt(ctx, tx, q.sql)
		if err != nil {
			w.close()
			return nil, wrap(err, "apply batch: prepare")
		}
		*q.dst = st
		w.st.all = append(w.st.all, st)
	}
	if !w.pg {
		st, err := d.stmt(ctx, tx, removeTargets)
		if err != nil {
			w.close()
			return nil, wrap(err, "apply batch: prepare")
		}
		w.st.unlink = st
		w.st.all = append(w.st.all, st)
	}
	return w, nil
}

func (w *pageWriter) close() {
	for _, st := range w.st.all {
		st.Close()
	}
}

// write stores one page with its visit, and finishes its URL. A page seen
// before is compared with its previous visit (see classify); a revisit
// answered 304, or failed for a reason other than 404 or 410, keeps the
// stored page (its text and links) and updates only what the answer
// changed. Any other visit rewrites the stored page; its old text joins
// the kept versions when it changed or the page is gone.
func (w *pageWriter) write(ctx context.Context, p *crawl.Page, now int64) error {
	pr, err := w.lookup(ctx, p.FP)
	if err != nil {
		return wrap(err, "store page %s: read its previous visit", p.URL)
	}
	v := classify(p, pr.visit)
	switch {
	case pr.row == nil:
		if err := w.replace(ctx, p, v.change, now); err != nil {
			return err
		}
	case pr.visit != nil && (p.Status == http.StatusNotModified || v.change == crawl.ChangeError):
		v.contentFP = pr.row.contentFP
		if err := w.keep(ctx, p, pr.row, v.change, now); err != nil {
			return wrap(err, "store page %s", p.URL)
		}
	default:
		if pr.row.cycle < w.cycle && (v.change == crawl.ChangeChanged || v.change == crawl.ChangeGone) {
			if err := w.archive(ctx, p, pr.row, &v); err != nil {
				return wrap(err, "store page %s: keep the previous version", p.URL)
			}
		}
		if err := w.rewrite(ctx, p, pr.row, v.change, now); err != nil {
			return wrap(err, "store page %s", p.URL)
		}
	}
	state := crawl.Done
	if p.Failed() {
		state = crawl.Error
		if _, err := w.st.errRow.ExecContext(ctx, w.crawl, p.URL, p.Status, failure(p), now); err != nil {
			return wrap(err, "log error of %s", p.URL)
		}
	}
	at := fetchedAt(p, now)
	due, err := w.record(ctx, p, v, pr.visit, at)
	if err != nil {
		return wrap(err, "record the visit of %s", p.URL)
	}
	_, err = w.st.finish.ExecContext(ctx, w.crawl, int64(p.FP), p.URL, int64(p.Depth), p.Parent, p.Resource, int64(state), now, due)
	if err != nil {
		return wrap(err, "finish url %s", p.URL)
	}
	if w.hist.score && !p.Failed() && !p.Resource {
		_, err = w.st.mark.ExecContext(ctx, w.crawl, int64(p.FP))
	}
	return wrap(err, "mark %s for scoring", p.URL)
}

// replace stores p as the crawl's page for its URL, with its links; a page
// already stored for the URL is deleted first.
func (w *pageWriter) replace(ctx context.Context, p *crawl.Page, change crawl.Change, now int64) error {
	id, err := w.insert(ctx, p, change, now)
	if err == errExists {
		if err = w.remove(ctx, int64(p.FP)); err == nil {
			id, err = w.insert(ctx, p, change, now)
			w.touch(int64(p.NearGroup)) // pages stored before may have matched the old row
		}
	}
	if err != nil {
		return wrap(err, "store page %s", p.URL)
	}
	if p.NearOf != 0 {
		w.touch(int64(p.NearGroup))
	}
	w.counts.add(pageKey(p), p.Length, 1)
	w.fresh.add(id, p)
	w.addTargets(id, p)
	return nil
}

// duplicate returns the URL of an earlier page with p's text, or
// p.DuplicateOf.
func (w *pageWriter) duplicate(ctx context.Context, p *crawl.Page) (string, error) {
	if p.ContentFP == 0 {
		return p.DuplicateOf, nil
	}
	var earlier string
	switch err := w.st.dup.QueryRowContext(ctx, w.crawl, int64(p.ContentFP), int64(p.FP)).Scan(&earlier); err {
	case nil:
		return earlier, nil
	case sql.ErrNoRows:
		return p.DuplicateOf, nil
	default:
		return "", wrap(err, "store page %s: find duplicate", p.URL)
	}
}

// errExists says the crawl already has a page for the URL.
var errExists = errors.New("page exists")

// insert stores p as a new page and returns its id, or errExists when the
// crawl has a page for its URL already.
func (w *pageWriter) insert(ctx context.Context, p *crawl.Page, change crawl.Change, now int64) (int64, error) {
	redirects, err := hopsJSON(p.Redirects)
	if err != nil {
		return 0, fmt.Errorf("encode redirects: %w", err)
	}
	sketch, _ := p.Sketch.MarshalBinary()
	crawlID, fp, contentFP := any(w.crawl), any(int64(p.FP)), any(int64(p.ContentFP))
	args := append(w.pageArgs[:0], crawlID, fp, p.URL, p.Host, p.IP, int64(p.Depth), p.Parent, int64(p.Status),
		p.FinalURL, p.ContentType, p.Charset, p.ContentEncoding, p.ContentLength, p.Length,
		unixSeconds(p.LastModified), unixSeconds(p.Expires), p.ETag, p.Title, p.Description,
		p.Keywords, p.Author, p.Robots, p.Text, contentFP,
		crawlID, contentFP, fp, p.DuplicateOf, // the duplicate_of subquery
		fetchedAt(p, now), int64(p.Duration), redirects, p.Resource, p.Err, int64(w.cycle), string(change), sketch,
		int64(p.NearGroup), int64(p.NearOf), p.NearSimilarity, p.RedirectTo, p.Truncated, linksJSON(p.Links),
		p.NearOf != 0)
	w.pageArgs = args
	if w.pg {
		var id int64
		err := w.st.page.QueryRowContext(ctx, args...).Scan(&id)
		if err == sql.ErrNoRows {
			return 0, errExists
		}
		return id, err
	}
	res, err := w.st.page.ExecContext(ctx, args...)
	if err != nil {
		return 0, err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return 0, cmp.Or(err, errExists)
	}
	return res.LastInsertId()
}

// remove deletes the crawl's page with fingerprint fp, its links and its
// full-text entry, so that a page fetched again replaces it.
func (w *pageWriter) remove(ctx context.Context, fp int64) error {
	var id, length, group int64
	var k countKey
	err := w.tx.QueryRowContext(ctx, `SELECT id, host, content_type, status, depth, length, near_group FROM pages
WHERE crawl_id = ? AND fp = ?`, w.crawl, fp).Scan(&id, &k.host, &k.ctype, &k.status, &k.depth, &length, &group)
	if err != nil {
		return err
	}
	w.counts.add(k, length, -1)
	w.touch(group)
	if !w.fresh.remove(id) && !w.pg {
		if _, err := w.tx.ExecContext(ctx, unindexPages+`id = ?`, id); err != nil {
			return err
		}
	}
	if err := w.dropTargets(ctx, id); err != nil {
		return err
	}
	_, err = w.tx.ExecContext(ctx, `DELETE FROM pages WHERE id = ?`, id)
	return err
}

// index adds the batch's pages to the full-text index.
func (w *pageWriter) index(ctx context.Context) error {
	if w.pg { // PostgreSQL keeps its indexes itself (pages.fts, trawler_link_urls)
		return nil
	}
	if err := w.targets.write(ctx, w.tx); err != nil {
		return err
	}
	return w.fresh.index(ctx, w.tx)
}

// fetchedAt is when p was fetched, or now when the engine did not say.
func fetchedAt(p *crawl.Page, now int64) int64 {
	if p.FetchedAt.IsZero() {
		return now
	}
	return p.FetchedAt.UnixNano()
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
