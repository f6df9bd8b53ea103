package db

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/trawler/trawler/crawl"
)

// CrawlStore is the crawl.Store of one crawl in the database.
type CrawlStore struct {
	d  *DB
	id int64

	mu   sync.Mutex
	hist *settings // read from the crawl's settings on first use

	shared *sharing // nil unless several robots crawl the crawl (SharedCrawl)
}

var _ crawl.Store = (*CrawlStore)(nil)

// Crawl returns the engine's view of crawl id. It does not check that the
// crawl exists; writing to a missing crawl fails on its foreign key.
func (d *DB) Crawl(id int64) *CrawlStore { return &CrawlStore{d: d, id: id} }

// ID returns the crawl the store is bound to.
func (s *CrawlStore) ID() int64 { return s.id }

// Known URLs keep their state; a waiting one takes the smaller depth (and
// the parent that gave it), stays a resource only if reached as one again,
// and is leased to the writer if held and free (unless it is in the
// priority lane, which ClaimUrgent serves). A URL skipped for a
// link-bound reason (depth, nofollow) that another link admits waits again,
// with that link's depth and parent.
const insertURL = `
INSERT INTO urls (crawl_id, fp, url, depth, parent, resource, owner, leased_at, discovered_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (crawl_id, fp) DO UPDATE SET
    parent      = CASE WHEN urls.state = 4 OR excluded.depth < urls.depth THEN excluded.parent ELSE urls.parent END,
    depth       = CASE WHEN urls.state = 4 OR excluded.depth < urls.depth THEN excluded.depth ELSE urls.depth END,
    resource    = CASE WHEN urls.state = 4 THEN excluded.resource
                       WHEN urls.resource <> 0 AND excluded.resource <> 0 THEN 1 ELSE 0 END,
    leased_at   = CASE WHEN urls.owner = '' AND excluded.owner <> '' AND urls.priority = 0 THEN excluded.leased_at
                       ELSE urls.leased_at END,
    owner       = CASE WHEN urls.owner = '' AND urls.priority = 0 THEN excluded.owner ELSE urls.owner END,
    state       = 0,
    skip_reason = ''
WHERE urls.state = 0 OR (urls.state = 4 AND urls.skip_reason IN ('depth', 'nofollow'))`

// insertSkipped records a URL found and not fetched; a URL already known
// keeps its row.
const insertSkipped = `
INSERT INTO urls (crawl_id, fp, url, depth, parent, resource, state, skip_reason, discovered_at)
VALUES (?, ?, ?, ?, ?, ?, 4, ?, ?)
ON CONFLICT (crawl_id, fp) DO NOTHING`

// skipClaimed turns a URL the run holds into a skipped one: robots.txt
// refused it when its turn came.
const skipClaimed = `
UPDATE urls SET state = 4, skip_reason = ?1, owner = '', leased_at = NULL
WHERE crawl_id = ?2 AND fp = ?3 AND state IN (0, 1)`

// finishURL records the outcome of a fetch on its URL row, creating the row
// if the engine never wrote it (it should have).
const finishURL = `
INSERT INTO urls (crawl_id, fp, url, depth, parent, resource, state, discovered_at, next_due)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (crawl_id, fp) DO UPDATE SET state = excluded.state, owner = '', leased_at = NULL,
    revisit = 0, next_due = excluded.next_due, priority = 0`

// Apply commits a batch in one transaction: new URLs join the frontier,
// pages are stored with their links, errors and full-text entry, each
// visit joins the page's history, their URLs turn done or error, and the
// crawl's page counts follow (see db/counts.go). A
// page whose non-zero ContentFP equals an earlier page's is stored with
// that page's URL as DuplicateOf; the Page passed in is not modified. A
// page stored again for the same URL replaces the old, except after a 304
// or a failed revisit (see History).
func (s *CrawlStore) Apply(ctx context.Context, owner string, b *crawl.Batch) error {
	if b == nil || b.Empty() {
		return nil
	}
	return s.d.retry(ctx, func() error { return s.apply(ctx, owner, b) })
}

func (s *CrawlStore) apply(ctx context.Context, owner string, b *crawl.Batch) error {
	if err := s.d.prepareWriter(ctx); err != nil {
		return err
	}
	tx, err := s.d.w.BeginTx(ctx, nil)
	if err != nil {
		return wrap(err, "apply batch: begin")
	}
	defer tx.Rollback()
	// Cancelling ctx rolls the transaction back (database/sql watches it);
	// the statements themselves run without it, because the driver starts
	// a watcher goroutine for every statement given a cancellable context.
	wctx := context.WithoutCancel(ctx)
	now := time.Now().UnixNano()
	if err := s.applySkipped(wctx, tx, owner, b.Skipped, false, now); err != nil {
		return err
	}
	if err := s.applyNew(wctx, tx, owner, b, now); err != nil {
		return err
	}
	if err := s.applySkipped(wctx, tx, owner, b.Skipped, true, now); err != nil {
		return err
	}
	if len(b.Pages) > 0 {
		hist, err := s.settings(wctx)
		if err != nil {
			return err
		}
		var cycle int
		if err := tx.QueryRowContext(wctx, `SELECT cycle FROM crawls WHERE id = ?`, s.id).Scan(&cycle); err != nil {
			return wrap(err, "apply batch: read the crawl's cycle")
		}
		w, err := newPageWriter(wctx, s.d, tx, s.id, cycle, hist)
		if err != nil {
			return err
		}
		defer w.close()
		for _, p := range b.Pages {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("apply batch: %w", err)
			}
			if keep, err := s.fenced(wctx, tx, owner, p.FP, now, p.FetchedAt.UnixNano()); err != nil || !keep {
				if err != nil {
					return err
				}
				continue
			}
			if err := w.write(wctx, p, now); err != nil {
				return err
			}
		}
		if err := w.index(wctx); err != nil {
			return err
		}
		if err := w.settleNear(wctx); err != nil {
			return err
		}
		if err := s.d.updateCounts(wctx, tx, s.id, w.counts); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return wrap(err, "apply batch: commit")
	}
	s.d.ckpt.stored(len(b.Pages))
	return nil
}

// settings returns the crawl's settings the store applies, read once.
func (s *CrawlStore) settings(ctx context.Context) (settings, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.hist != nil {
		return *s.hist, nil
	}
	c, err := s.d.Settings(ctx, s.id)
	if err != nil {
		return settings{}, err
	}
	h := settingsOf(c)
	s.hist = &h
	return h, nil
}

// applySkipped records the batch's skipped URLs that are claimed or not.
// Found ones go before the new URLs, so a link that admits a URL skipped
// in the same batch revives it; claimed ones after, as the batch may have
// added them.
func (s *CrawlStore) applySkipped(ctx context.Context, tx *sql.Tx, owner string, skips []crawl.Skip, claimed bool, now int64) error {
	if !slices.ContainsFunc(skips, func(sk crawl.Skip) bool { return sk.Claimed == claimed }) {
		return nil
	}
	ins, err := s.d.stmt(ctx, tx, insertSkipped)
	if err != nil {
		return wrap(err, "apply batch: prepare")
	}
	defer ins.Close()
	for _, sk := range skips {
		if sk.Claimed != claimed {
			continue
		}
		if sk.Claimed {
			if keep, ferr := s.fenced(ctx, tx, owner, sk.FP, now, now); ferr != nil || !keep {
				if ferr != nil {
					return ferr
				}
				continue
			}
			_, err = tx.ExecContext(ctx, skipClaimed, string(sk.Reason), s.id, int64(sk.FP))
		} else {
			_, err = ins.ExecContext(ctx, s.id, int64(sk.FP), sk.URL, int64(sk.Depth), sk.Parent, sk.Resource, string(sk.Reason), now)
		}
		if err != nil {
			return wrap(err, "apply batch: skip url %s", sk.URL)
		}
	}
	return nil
}

func (s *CrawlStore) applyNew(ctx context.Context, tx *sql.Tx, owner string, b *crawl.Batch, now int64) error {
	if len(b.New) == 0 {
		return nil
	}
	st, err := s.d.stmt(ctx, tx, insertURL)
	if err != nil {
		return wrap(err, "apply batch: prepare")
	}
	defer st.Close()
	order := make([]int, len(b.New))
	for i := range order {
		order[i] = i
	}
	if s.d.pg { // robots lock the rows they touch in one order, so no two wait for each other in a circle
		sort.Slice(order, func(i, j int) bool { return b.New[order[i]].FP < b.New[order[j]].FP })
	}
	for _, i := range order {
		it := b.New[i]
		var lease string
		var leasedAt any
		if i < len(b.Held) && b.Held[i] {
			lease, leasedAt = owner, now
		}
		_, err := st.ExecContext(ctx, s.id, int64(it.FP), it.URL, int64(it.Depth), it.Parent, it.Resource, lease, leasedAt, now)
		if err != nil {
			return wrap(err, "apply batch: add url %s", it.URL)
		}
	}
	return nil
}

// Release frees every waiting URL leased to owner, and a robot's hosts.
func (s *CrawlStore) Release(ctx context.Context, owner string) error {
	if s.shared != nil {
		return s.releaseShared(ctx, owner)
	}
	_, err := s.d.w.ExecContext(ctx,
		`UPDATE urls SET owner = '', leased_at = NULL WHERE crawl_id = ? AND state = 0 AND owner = ?`, s.id, owner)
	return wrap(err, "release urls of %s", owner)
}

// Recover frees every lease of the crawl and turns any URL stored as
// processing back to waiting. SQLite serves one machine and Trawler runs a
// crawl in one process, so a lease found when a crawl starts belongs to a
// run that died.
func (s *CrawlStore) Recover(ctx context.Context) error {
	_, err := s.d.w.ExecContext(ctx, `
UPDATE urls SET owner = '', leased_at = NULL, state = 0
WHERE crawl_id = ? AND state IN (0, 1) AND (owner <> '' OR state = 1)`, s.id)
	return wrap(err, "recover leases")
}

// Fingerprints calls fn with the fingerprint of every URL of the crawl,
// and the skip reason of skipped ones. It reads in one pass, so fn should
// not call back into the database.
func (s *CrawlStore) Fingerprints(ctx context.Context, fn func(fp uint64, skip crawl.SkipReason)) error {
	rows, err := s.d.r.QueryContext(ctx, `SELECT fp, skip_reason FROM urls WHERE crawl_id = ?`, s.id)
	if err != nil {
		return wrap(err, "read fingerprints")
	}
	defer rows.Close()
	for rows.Next() {
		var fp int64
		var skip string
		if err := rows.Scan(&fp, &skip); err != nil {
			return wrap(err, "read fingerprints")
		}
		fn(uint64(fp), crawl.SkipReason(skip))
	}
	return wrap(rows.Err(), "read fingerprints")
}

// SkipWaiting turns the crawl's free waiting URLs into skipped ones.
func (s *CrawlStore) SkipWaiting(ctx context.Context, reason crawl.SkipReason) (int64, error) {
	r, err := s.d.w.ExecContext(ctx, `UPDATE urls SET state = 4, skip_reason = ?
WHERE crawl_id = ? AND state = 0 AND owner = ''`, string(reason), s.id)
	if err != nil {
		return 0, wrap(err, "skip waiting urls (%s)", reason)
	}
	n, err := r.RowsAffected()
	return n, wrap(err, "skip waiting urls (%s)", reason)
}

// Unskip turns the crawl's URLs skipped for reason back to waiting.
func (s *CrawlStore) Unskip(ctx context.Context, reason crawl.SkipReason) (int64, error) {
	r, err := s.d.w.ExecContext(ctx, `UPDATE urls SET state = 0, skip_reason = ''
WHERE crawl_id = ? AND state = 4 AND skip_reason = ?`, s.id, string(reason))
	if err != nil {
		return 0, wrap(err, "queue skipped urls (%s) again", reason)
	}
	n, err := r.RowsAffected()
	return n, wrap(err, "queue skipped urls (%s) again", reason)
}

// Counts returns how many URLs of the crawl are in each state; leased URLs
// count as waiting.
func (s *CrawlStore) Counts(ctx context.Context) (crawl.Counts, error) {
	return countURLs(ctx, s.d.r, s.id)
}

// countURLs counts a crawl's URLs in each state, one range of urls_claim
// per state: SQLite counts a range faster than it groups its entries.
func countURLs(ctx context.Context, q querier, id int64) (crawl.Counts, error) {
	var c crawl.Counts
	err := q.QueryRowContext(ctx, `SELECT
    (SELECT count(*) FROM urls WHERE crawl_id = ?1 AND state = ?2), (SELECT count(*) FROM urls WHERE crawl_id = ?1 AND state = ?3),
    (SELECT count(*) FROM urls WHERE crawl_id = ?1 AND state = ?4), (SELECT count(*) FROM urls WHERE crawl_id = ?1 AND state = ?5),
    (SELECT count(*) FROM urls WHERE crawl_id = ?1 AND state = ?6)`,
		id, int(crawl.Waiting), int(crawl.Processing), int(crawl.Done), int(crawl.Error), int(crawl.Skipped)).Scan(
		&c.Waiting, &c.Processing, &c.Done, &c.Error, &c.Skipped)
	return c, wrap(err, "count urls")
}

// querier is what *sql.DB, *sql.Tx and *sql.Conn share for reading.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// queryColumn runs a query of one column and returns its values in order;
// what says what was being read, for the error.
func queryColumn[T any](ctx context.Context, q querier, what, query string, args ...any) ([]T, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, wrap(err, "%s", what)
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		var v T
		if err := rows.Scan(&v); err != nil {
			return nil, wrap(err, "%s", what)
		}
		out = append(out, v)
	}
	return out, wrap(rows.Err(), "%s", what)
}

// AddRunTime adds d to the crawling time of the crawl's current cycle.
func (s *CrawlStore) AddRunTime(ctx context.Context, d time.Duration) error {
	_, err := s.d.w.ExecContext(ctx, `UPDATE cycles SET elapsed = elapsed + ?
WHERE crawl_id = ? AND cycle = (SELECT cycle FROM crawls WHERE id = ?)`, int64(d), s.id, s.id)
	return wrap(err, "add the run time of crawl %d", s.id)
}
