package db

import (
	"context"
	"database/sql"
	"net/http"
	"time"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/textdiff"
)

// Statements of a page's history: its stored row, its visits and its
// kept versions.
const (
	selectPrior = `
SELECT id, cycle, content_fp FROM pages WHERE crawl_id = ? AND fp = ?`
	selectPrevVisit = `
SELECT status, content_fp, change FROM page_visits
WHERE crawl_id = ? AND fp = ? AND cycle < ? ORDER BY cycle DESC LIMIT 1`
	upsertVisit = `
INSERT INTO page_visits (crawl_id, fp, cycle, at, status, content_fp, length, change, changed, words_added, words_removed)
VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
ON CONFLICT (crawl_id, fp, cycle) DO UPDATE SET at = ?4, status = ?5, content_fp = ?6, length = ?7,
    change = ?8, changed = ?9, words_added = ?10, words_removed = ?11`
	selectVisitStats = `
SELECT count(*), coalesce(sum(changed), 0), min(at), max(at) FROM page_visits WHERE crawl_id = ? AND fp = ?`
	// updateKeptRow brings a kept page up to date after a 304 or a failed
	// revisit: NULL status and err leave them; an empty ETag, NULL date and
	// zero near-duplicate group leave theirs.
	updateKeptRow = `
UPDATE pages SET status = coalesce(?1, status), err = coalesce(?2, err), fetched_at = ?3, duration = ?4,
    cycle = ?5, change = ?6,
    etag = CASE WHEN ?7 <> '' THEN ?7 ELSE etag END,
    last_modified = coalesce(?8, last_modified),
    near_group = CASE WHEN ?9 <> 0 THEN ?9 ELSE near_group END,
    near_of = CASE WHEN ?9 <> 0 THEN ?10 ELSE near_of END,
    near_similarity = CASE WHEN ?9 <> 0 THEN ?11 ELSE near_similarity END
WHERE id = ?12`
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
}

func settingsOf(c crawl.Config) settings {
	s := settings{keep: c.KeepVersions, min: c.RevisitMin, max: c.RevisitMax}
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
}

// priorVisit is a page's latest visit in an earlier cycle.
type priorVisit struct {
	status    int
	contentFP int64
	change    crawl.Change
}

type prior struct {
	row   *priorRow   // nil when no page is stored for the URL
	visit *priorVisit // nil when the URL was not visited in an earlier cycle
}

func (w *pageWriter) lookup(ctx context.Context, fp uint64) (prior, error) {
	var pr prior
	var r priorRow
	switch err := w.st.prior.QueryRowContext(ctx, w.crawl, int64(fp)).Scan(&r.id, &r.cycle, &r.contentFP); err {
	case nil:
		pr.row = &r
	case sql.ErrNoRows:
		return pr, nil // never stored: never visited
	default:
		return pr, err
	}
	var v priorVisit
	switch err := w.st.prevVisit.QueryRowContext(ctx, w.crawl, int64(fp), w.cycle).Scan(&v.status, &v.contentFP, &v.change); err {
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
// 304 is unchanged; 404 and 410 are gone; other failures are errors; a
// body is unchanged when its fingerprint equals the previous visit's (and
// the page was not gone then), changed otherwise.
func classify(p *crawl.Page, prev *priorVisit) visitRow {
	v := visitRow{contentFP: int64(p.ContentFP)}
	switch {
	case prev == nil && p.Failed():
		v.change = crawl.ChangeError
	case prev == nil:
		v.change = crawl.ChangeNew
	case p.Status == http.StatusNotModified:
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
func (w *pageWriter) keep(ctx context.Context, p *crawl.Page, id int64, change crawl.Change, now int64) error {
	var status, errText any
	if p.Status != http.StatusNotModified {
		status, errText = p.Status, p.Err
	}
	_, err := w.st.keepRow.ExecContext(ctx, status, errText, fetchedAt(p, now), int64(p.Duration), w.cycle,
		string(change), p.ETag, unixSeconds(p.LastModified), int64(p.NearGroup), int64(p.NearOf), p.NearSimilarity, id)
	return err
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
	_, err := w.st.pruneVers.ExecContext(ctx, w.crawl, int64(p.FP), w.hist.keep-1)
	return err
}

// record writes the visit and returns when the URL is next due (Unix
// nanoseconds) by the revisit schedule, crawl.NextVisit.
func (w *pageWriter) record(ctx context.Context, p *crawl.Page, v visitRow, revisit bool, at int64) (int64, error) {
	length := p.Length
	if p.Status == http.StatusNotModified {
		length = 0
	}
	_, err := w.st.visit.ExecContext(ctx, w.crawl, int64(p.FP), w.cycle, at, p.Status, v.contentFP, length,
		string(v.change), v.changed, v.added, v.removed)
	if err != nil || !revisit {
		return at, err
	}
	var s crawl.VisitStats
	var first, last int64
	if err := w.st.stats.QueryRowContext(ctx, w.crawl, int64(p.FP)).Scan(&s.Visits, &s.Changes, &first, &last); err != nil {
		return 0, err
	}
	s.First, s.Last = time.Unix(0, first), time.Unix(0, last)
	return crawl.NextVisit(s, w.hist.min, w.hist.max).UnixNano(), nil
}
