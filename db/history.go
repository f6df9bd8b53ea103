package db

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"time"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/textdiff"
)

// Statements of a page's history: its stored row, its visits and its
// kept versions.
const (
	selectPrior = `
SELECT id, cycle, content_fp, title, host, depth, status, content_type, length, near_group, near_of,
    redirect_to, err <> '', coalesce(links, '')
FROM pages WHERE crawl_id = ? AND fp = ?`
	// rewriteRow brings a stored page up to date with a new visit, in
	// place (cheaper than a delete and an insert, which touch every index
	// of pages). A NULL duplicate_of keeps the stored one.
	rewriteRow = `
UPDATE pages SET host = ?, ip = ?, depth = ?, parent = ?, status = ?, final_url = ?, content_type = ?,
    charset = ?, content_encoding = ?, content_length = ?, length = ?, last_modified = ?, expires = ?,
    etag = ?, title = ?, description = ?, keywords = ?, author = ?, robots = ?, text = ?, content_fp = ?,
    duplicate_of = coalesce(?, duplicate_of), fetched_at = ?, duration = ?, redirects = ?, resource = ?,
    err = ?, cycle = ?, change = ?, sketch = ?, near_group = ?, near_of = ?, near_similarity = ?,
    redirect_to = ?, truncated = ?, links = ?
WHERE id = ?`
	// refreshRow is rewriteRow for a revisit that leaves every indexed
	// column but fetched_at as it was: SQLite updates the indexes of the
	// columns an UPDATE sets, changed or not, so this one sets no others.
	refreshRow = `
UPDATE pages SET ip = ?, parent = ?, final_url = ?, charset = ?, content_encoding = ?, content_length = ?,
    last_modified = ?, expires = ?, etag = ?, description = ?, keywords = ?, author = ?, robots = ?,
    text = ?, duplicate_of = coalesce(?, duplicate_of), fetched_at = ?, duration = ?, redirects = ?,
    resource = ?, err = ?, cycle = ?, change = ?, sketch = ?, near_similarity = ?, truncated = ?, links = ?
WHERE id = ?`
	// selectPrevVisit reads a URL's latest visit of an earlier cycle with
	// the counts of those visits, for the revisit schedule.
	selectPrevVisit = `
SELECT v.status, v.content_fp, v.change, s.n, s.x, s.first FROM page_visits v,
    (SELECT count(*) AS n, coalesce(sum(changed), 0) AS x, min(at) AS first FROM page_visits
     WHERE crawl_id = ?1 AND fp = ?2 AND cycle < ?3) s
WHERE v.crawl_id = ?1 AND v.fp = ?2 AND v.cycle < ?3 ORDER BY v.cycle DESC LIMIT 1`
	upsertVisit = `
INSERT INTO page_visits (crawl_id, fp, cycle, at, status, content_fp, length, change, changed, words_added, words_removed)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (crawl_id, fp, cycle) DO UPDATE SET at = excluded.at, status = excluded.status,
    content_fp = excluded.content_fp, length = excluded.length, change = excluded.change,
    changed = excluded.changed, words_added = excluded.words_added, words_removed = excluded.words_removed`
	// updateKeptRow brings a kept page up to date after a 304 or a failed
	// revisit. A 304 (NULL status and err) confirms the stored version, so
	// a page kept through an earlier failure is ok again. An empty ETag, a
	// NULL date and a zero near-duplicate group leave the stored ones. The
	// group is cast where it is first met: PostgreSQL would take ?9 <> 0
	// for a 32-bit comparison and refuse a fingerprint.
	updateKeptRow = `
UPDATE pages SET status = coalesce(?1, CASE WHEN status >= 400 OR err <> '' THEN 200 ELSE status END),
    err = coalesce(?2, ''), fetched_at = ?3, duration = ?4,
    cycle = ?5, change = ?6,
    etag = CASE WHEN ?7 <> '' THEN ?7 ELSE etag END,
    last_modified = coalesce(?8, last_modified),
    near_group = CASE WHEN CAST(?9 AS BIGINT) <> 0 THEN ?9 ELSE near_group END,
    near_of = CASE WHEN ?9 <> 0 THEN ?10 ELSE near_of END,
    near_similarity = CASE WHEN ?9 <> 0 THEN ?11 ELSE near_similarity END
WHERE id = ?12`
	// confirmRow is updateKeptRow for a 304 that leaves the stored status
	// and near-duplicate group as they are: SQLite updates every index
	// holding a column an UPDATE sets, changed or not, and every sort
	// index holds the status, so this one sets no indexed column but
	// fetched_at.
	confirmRow = `
UPDATE pages SET err = '', fetched_at = ?1, duration = ?2, cycle = ?3, change = ?4,
    etag = CASE WHEN ?5 <> '' THEN ?5 ELSE etag END,
    last_modified = coalesce(?6, last_modified),
    near_similarity = CASE WHEN CAST(?7 AS BIGINT) <> 0 THEN ?8 ELSE near_similarity END
WHERE id = ?9`
	saveVersion = `
INSERT INTO page_versions (crawl_id, fp, cycle, fetched_at, content_fp, title, text)
SELECT crawl_id, fp, cycle, fetched_at, content_fp, title, text FROM pages WHERE id = ? AND text <> ''
ON CONFLICT (crawl_id, fp, cycle) DO NOTHING`
	pruneVersions = `
DELETE FROM page_versions WHERE crawl_id = ?1 AND fp = ?2 AND id NOT IN (
    SELECT id FROM page_versions WHERE crawl_id = ?1 AND fp = ?2 ORDER BY cycle DESC LIMIT ?3)`
)

// settings are the crawl settings the store itself applies.
type settings struct {
	keep     int // texts kept per page, the current one included
	min, max time.Duration
	score    bool // the crawl has word lists: stored pages are marked for scoring
}

func settingsOf(c crawl.Config) settings {
	s := settings{keep: c.KeepVersions, min: c.RevisitMin, max: c.RevisitMax, score: len(c.WordLists) > 0}
	if s.keep <= 0 {
		s.keep = crawl.DefaultKeepVersions
	}
	if s.min <= 0 {
		s.min = crawl.DefaultRevisitMin
	}
	if s.max <= 0 {
		s.max = crawl.DefaultRevisitMax
	}
	s.max = max(s.max, s.min)
	return s
}

// priorRow is what write needs of a page's stored row.
type priorRow struct {
	id        int64
	cycle     int
	contentFP int64
	title     string
	failed    bool   // it holds an error message
	links     string // their stored form, "" for none
	indexed   indexedColumns
}

// countKey is the combination of page_counts the row counts in.
func (r *priorRow) countKey() countKey {
	return countKey{host: r.indexed.host, ctype: r.indexed.contentType,
		status: int64(r.indexed.status), depth: int64(r.indexed.depth)}
}

// indexedColumns are the columns of pages that its indexes hold, apart
// from the URL (which never changes for a row) and fetched_at (which
// always does). When a revisit leaves them all as they were, the row is
// rewritten without touching those indexes.
type indexedColumns struct {
	host, contentType, redirectTo string
	depth, status                 int
	length, nearGroup, nearOf     int64
}

// indexedOf returns the indexed columns p would store.
func indexedOf(p *crawl.Page) indexedColumns {
	return indexedColumns{host: p.Host, contentType: p.ContentType, redirectTo: p.RedirectTo,
		depth: p.Depth, status: p.Status, length: p.Length, nearGroup: int64(p.NearGroup), nearOf: int64(p.NearOf)}
}

// priorVisit is a page's latest visit in an earlier cycle, with the count
// of those visits (n), how many found a change (x) and the first one's time.
type priorVisit struct {
	status    int
	contentFP int64
	change    crawl.Change
	n, x      int
	first     int64
}

// failed reports whether the previous visit failed: an error or gone.
func (v *priorVisit) failed() bool {
	return v.change == crawl.ChangeError || v.change == crawl.ChangeGone || v.status >= 400 || v.status == 0
}

type prior struct {
	row   *priorRow   // nil when no page is stored for the URL
	visit *priorVisit // nil when the URL was not visited in an earlier cycle
}

func (w *pageWriter) lookup(ctx context.Context, fp uint64) (prior, error) {
	var pr prior
	if w.cycle == 0 {
		return pr, nil // no earlier cycle; a page stored again replaces its row
	}
	var r priorRow
	switch err := w.st.prior.QueryRowContext(ctx, w.crawl, int64(fp)).Scan(&r.id, &r.cycle, &r.contentFP, &r.title,
		&r.indexed.host, &r.indexed.depth, &r.indexed.status, &r.indexed.contentType, &r.indexed.length,
		&r.indexed.nearGroup, &r.indexed.nearOf, &r.indexed.redirectTo, &r.failed, &r.links); err {
	case nil:
		pr.row = &r
	case sql.ErrNoRows:
		return pr, nil // never stored: never visited
	default:
		return pr, err
	}
	var v priorVisit
	switch err := w.st.prevVisit.QueryRowContext(ctx, w.crawl, int64(fp), w.cycle).Scan(&v.status, &v.contentFP, &v.change, &v.n, &v.x, &v.first); err {
	case nil:
		pr.visit = &v
	case sql.ErrNoRows:
	default:
		return pr, err
	}
	return pr, nil
}

// visitRow is one row of page_visits in the making.
type visitRow struct {
	change         crawl.Change
	changed        bool // counts as a change for the revisit schedule
	contentFP      int64
	added, removed int
}

// classify compares a visit with the URL's previous one (nil for a first
// visit), as crawl.Change documents: a first visit is new, or an error; a
// 304 is unchanged; a page that failed before and fails again is unchanged
// (still broken); 404 and 410 are gone; other failures are errors; a body
// is unchanged when its fingerprint equals the previous visit's (and the
// page was not gone then), changed otherwise.
func classify(p *crawl.Page, prev *priorVisit) visitRow {
	v := visitRow{contentFP: int64(p.ContentFP)}
	switch {
	case prev == nil && p.Failed():
		v.change = crawl.ChangeError
	case prev == nil:
		v.change = crawl.ChangeNew
	case p.Status == http.StatusNotModified:
		v.change = crawl.ChangeUnchanged
	case p.Failed() && prev.failed():
		v.change = crawl.ChangeUnchanged
	case crawl.Gone(p.Status):
		v.change = crawl.ChangeGone
		v.changed = prev.change != crawl.ChangeGone
	case p.Failed():
		v.change = crawl.ChangeError
	case int64(p.ContentFP) == prev.contentFP && prev.change != crawl.ChangeGone:
		v.change = crawl.ChangeUnchanged
	default:
		v.change, v.changed = crawl.ChangeChanged, true
	}
	return v
}

// keep updates the stored page after a revisit that brought no new body:
// a 304 keeps its status, a failure records its own.
func (w *pageWriter) keep(ctx context.Context, p *crawl.Page, row *priorRow, change crawl.Change, now int64) error {
	sameGroup := p.NearGroup == 0 || (int64(p.NearGroup) == row.indexed.nearGroup && int64(p.NearOf) == row.indexed.nearOf)
	if p.Status == http.StatusNotModified && row.indexed.status < 400 && !row.failed && sameGroup {
		_, err := w.st.confirm.ExecContext(ctx, fetchedAt(p, now), int64(p.Duration), int64(w.cycle), string(change),
			p.ETag, unixSeconds(p.LastModified), int64(p.NearGroup), p.NearSimilarity, row.id)
		return err
	}
	var status, errText any
	after := row.countKey()
	switch {
	case p.Status != http.StatusNotModified:
		status, errText = int64(p.Status), p.Err
		after.status = int64(p.Status)
	case row.indexed.status >= 400 || row.failed:
		after.status = http.StatusOK // as updateKeptRow: confirmed, so ok again
	}
	_, err := w.st.keepRow.ExecContext(ctx, status, errText, fetchedAt(p, now), int64(p.Duration), int64(w.cycle),
		string(change), p.ETag, unixSeconds(p.LastModified), int64(p.NearGroup), int64(p.NearOf), p.NearSimilarity, row.id)
	if err == nil {
		w.counts.add(row.countKey(), row.indexed.length, -1)
		w.counts.add(after, row.indexed.length, 1)
		if p.NearGroup != 0 { // as updateKeptRow: a zero group keeps the stored one
			w.touchMoved(row.indexed.nearGroup, row.indexed.nearOf, int64(p.NearGroup), int64(p.NearOf))
		}
	}
	return err
}

// rewrite brings the stored page row up to date with p in place, and
// replaces its links. Its full-text entry is made again only when the
// title or the text changed.
func (w *pageWriter) rewrite(ctx context.Context, p *crawl.Page, row *priorRow, change crawl.Change, now int64) error {
	var dup any
	if int64(p.ContentFP) != row.contentFP {
		d, err := w.duplicate(ctx, p)
		if err != nil {
			return err
		}
		dup = d
	}
	if (p.Title != row.title || int64(p.ContentFP) != row.contentFP) && !w.pg {
		if !w.fresh.has(row.id) {
			if _, err := w.tx.ExecContext(ctx, unindexPages+`id = ?`, row.id); err != nil {
				return err
			}
		}
		w.fresh.add(row.id, p) // its new text may need the other list
	}
	redirects, err := hopsJSON(p.Redirects)
	if err != nil {
		return fmt.Errorf("encode redirects: %w", err)
	}
	sketch, _ := p.Sketch.MarshalBinary()
	links := linksJSON(p.Links)
	if p.Title == row.title && int64(p.ContentFP) == row.contentFP && indexedOf(p) == row.indexed {
		_, err = w.st.refresh.ExecContext(ctx, p.IP, p.Parent, p.FinalURL, p.Charset, p.ContentEncoding,
			p.ContentLength, unixSeconds(p.LastModified), unixSeconds(p.Expires), p.ETag, p.Description,
			p.Keywords, p.Author, p.Robots, p.Text, dup, fetchedAt(p, now), int64(p.Duration), redirects,
			p.Resource, p.Err, int64(w.cycle), string(change), sketch, p.NearSimilarity, p.Truncated, links, row.id)
	} else {
		_, err = w.st.rewrite.ExecContext(ctx, p.Host, p.IP, int64(p.Depth), p.Parent, int64(p.Status), p.FinalURL,
			p.ContentType, p.Charset, p.ContentEncoding, p.ContentLength, p.Length, unixSeconds(p.LastModified),
			unixSeconds(p.Expires), p.ETag, p.Title, p.Description, p.Keywords, p.Author, p.Robots, p.Text,
			int64(p.ContentFP), dup, fetchedAt(p, now), int64(p.Duration), redirects, p.Resource, p.Err,
			int64(w.cycle), string(change), sketch, int64(p.NearGroup), int64(p.NearOf), p.NearSimilarity,
			p.RedirectTo, p.Truncated, links, row.id)
	}
	if err != nil {
		return err
	}
	w.counts.add(row.countKey(), row.indexed.length, -1)
	w.counts.add(pageKey(p), p.Length, 1)
	w.touchMoved(row.indexed.nearGroup, row.indexed.nearOf, int64(p.NearGroup), int64(p.NearOf))
	return w.relink(ctx, p, row.id, row.links, links)
}

// archive keeps the stored text of a page about to be replaced as one of
// its versions, dropping the oldest beyond the crawl's KeepVersions, and
// measures a change in words.
func (w *pageWriter) archive(ctx context.Context, p *crawl.Page, row *priorRow, v *visitRow) error {
	if v.change == crawl.ChangeChanged {
		var old string
		if err := w.tx.QueryRowContext(ctx, `SELECT text FROM pages WHERE id = ?`, row.id).Scan(&old); err != nil {
			return err
		}
		size := textdiff.Measure(old, p.Text)
		v.added, v.removed = size.Added, size.Removed
	}
	if w.hist.keep < 2 {
		return nil
	}
	if _, err := w.st.saveVersion.ExecContext(ctx, row.id); err != nil {
		return err
	}
	if w.cycle < w.hist.keep { // a cycle adds at most one version: no more than cycle are kept yet
		return nil
	}
	_, err := w.st.pruneVers.ExecContext(ctx, w.crawl, int64(p.FP), w.hist.keep-1)
	return err
}

// record writes the visit and returns when the URL is next due (Unix
// nanoseconds) by the revisit schedule, crawl.NextVisit.
func (w *pageWriter) record(ctx context.Context, p *crawl.Page, v visitRow, prev *priorVisit, at int64) (int64, error) {
	length := p.Length
	if p.Status == http.StatusNotModified {
		length = 0
	}
	_, err := w.st.visit.ExecContext(ctx, w.crawl, int64(p.FP), int64(w.cycle), at, int64(p.Status), v.contentFP, length,
		string(v.change), v.changed, int64(v.added), int64(v.removed))
	if err != nil || prev == nil {
		return at, err
	}
	s := crawl.VisitStats{Visits: prev.n + 1, Changes: prev.x, First: time.Unix(0, prev.first), Last: time.Unix(0, at)}
	if v.changed {
		s.Changes++
	}
	return crawl.NextVisit(s, w.hist.min, w.hist.max).UnixNano(), nil
}
