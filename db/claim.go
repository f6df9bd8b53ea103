package db

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/trawler/trawler/crawl"
)

// claimURLs leases waiting URLs. %[1]s is the order, %[2]s the lock
// clause: on PostgreSQL, where several processes claim at once, each
// claim skips the rows another is taking (FOR UPDATE SKIP LOCKED), which
// also checks a row again if it changed meanwhile; SQLite's one writer
// needs none.
const claimURLs = `
UPDATE urls SET owner = ?1, leased_at = ?2
WHERE id IN (SELECT id FROM urls WHERE crawl_id = ?3 AND state = 0 AND owner = ''
             ORDER BY depth %[1]s, id %[1]s LIMIT ?4 %[2]s)
RETURNING id, url, fp, depth, parent, resource, revisit, priority`

// claimUrgent leases the priority lane's URLs: free ones, and those whose
// lease is older than ?5 (their run died).
const claimUrgent = `
UPDATE urls SET owner = ?1, leased_at = ?2
WHERE id IN (SELECT id FROM urls WHERE crawl_id = ?3 AND priority > 0 AND state = 0
                 AND (owner = '' OR leased_at < ?5)
             ORDER BY priority DESC, id LIMIT ?4 %s)
RETURNING id, url, fp, depth, parent, resource, revisit, priority`

// urgentWaiting tells, from the read pool, whether ClaimUrgent would find
// anything: the engine asks several times a second.
const urgentWaiting = `
SELECT EXISTS (SELECT 1 FROM urls WHERE crawl_id = ?1 AND priority > 0 AND state = 0
                   AND (owner = '' OR leased_at < ?2))`

// urgentLease is how long a lease on a priority-lane URL protects it: a
// run that holds one longer has died.
const urgentLease = 5 * time.Minute

// claimValidators reads the validators of the stored pages of revisited
// URLs (a JSON array of URL fingerprints).
const claimValidators = `
SELECT fp, etag, last_modified FROM pages
WHERE crawl_id = ? AND fp IN %s AND (etag <> '' OR last_modified IS NOT NULL)`

// Claim leases up to n waiting, free URLs to owner: the priority lane
// first, then breadth-first (and mixed) takes the smallest depth first and,
// within a depth, the URLs discovered first; depth-first takes the largest
// depth and the newest. URLs a re-crawl revisits carry their stored page's
// validators.
func (s *CrawlStore) Claim(ctx context.Context, owner string, n int, order crawl.Strategy) ([]crawl.Item, error) {
	if n <= 0 {
		return nil, nil
	}
	if s.shared != nil {
		return s.claimShared(ctx, owner, n, order)
	}
	dir := "ASC"
	if order == crawl.DFS {
		dir = "DESC"
	}
	return s.claim(ctx, func(tx *sql.Tx, now int64) ([]claimed, error) {
		urgent, err := s.claimLane(ctx, tx, owner, now, n)
		if err != nil || len(urgent) == n {
			return urgent, err
		}
		rest, err := claimRows(ctx, tx, fmt.Sprintf(claimURLs, dir, s.d.skipLocked()), owner, now, s.id, n-len(urgent))
		if err != nil {
			return nil, err
		}
		sort.Slice(rest, func(i, j int) bool {
			a, b := rest[i], rest[j]
			if order == crawl.DFS {
				a, b = b, a
			}
			if a.item.Depth != b.item.Depth {
				return a.item.Depth < b.item.Depth
			}
			return a.id < b.id
		})
		return append(urgent, rest...), nil
	})
}

// ClaimUrgent leases up to n URLs of the priority lane to owner.
func (s *CrawlStore) ClaimUrgent(ctx context.Context, owner string, n int) ([]crawl.Item, error) {
	if n <= 0 || s.shared != nil { // a robot's Claim serves the lane first, with its host
		return nil, nil
	}
	stale := time.Now().Add(-urgentLease).UnixNano()
	var any bool
	if err := s.d.r.QueryRowContext(ctx, urgentWaiting, s.id, stale).Scan(&any); err != nil {
		return nil, wrap(err, "look for urgent urls")
	}
	if !any {
		return nil, nil
	}
	return s.claim(ctx, func(tx *sql.Tx, now int64) ([]claimed, error) {
		return s.claimLane(ctx, tx, owner, now, n)
	})
}

// claim runs pick in a write transaction, gives revisits their
// validators and returns the items in pick's order.
func (s *CrawlStore) claim(ctx context.Context, pick func(*sql.Tx, int64) ([]claimed, error)) ([]crawl.Item, error) {
	var items []crawl.Item
	err := s.d.retry(ctx, func() error {
		var err error
		items, err = s.claimOnce(ctx, pick)
		return err
	})
	return items, err
}

func (s *CrawlStore) claimOnce(ctx context.Context, pick func(*sql.Tx, int64) ([]claimed, error)) ([]crawl.Item, error) {
	tx, err := s.d.w.BeginTx(ctx, nil)
	if err != nil {
		return nil, wrap(err, "claim urls: begin")
	}
	defer tx.Rollback()
	got, err := pick(tx, time.Now().UnixNano())
	if err != nil {
		return nil, err
	}
	if err := s.validators(ctx, tx, got); err != nil {
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, wrap(err, "claim urls: commit")
	}
	items := make([]crawl.Item, len(got))
	for i, c := range got {
		items[i] = c.item
	}
	return items, nil
}

// claimRows runs one of the claim statements and reads what it leased.
func claimRows(ctx context.Context, tx *sql.Tx, query string, args ...any) ([]claimed, error) {
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, wrap(err, "claim urls")
	}
	defer rows.Close()
	var got []claimed
	for rows.Next() {
		var c claimed
		var fp, priority int64
		if err := rows.Scan(&c.id, &c.item.URL, &fp, &c.item.Depth, &c.item.Parent, &c.item.Resource, &c.revisit, &priority); err != nil {
			return nil, wrap(err, "claim urls: read")
		}
		c.item.FP = uint64(fp)
		c.item.Urgent = priority > 0
		got = append(got, c)
	}
	if err := rows.Err(); err != nil {
		return nil, wrap(err, "claim urls: read")
	}
	return got, nil
}

// claimLane leases the priority lane's URLs, oldest push first.
func (s *CrawlStore) claimLane(ctx context.Context, tx *sql.Tx, owner string, now int64, n int) ([]claimed, error) {
	got, err := claimRows(ctx, tx, fmt.Sprintf(claimUrgent, s.d.skipLocked()), owner, now, s.id, n, now-int64(urgentLease))
	sort.Slice(got, func(i, j int) bool { return got[i].id < got[j].id })
	return got, err
}

// claimed is one URL Claim leased.
type claimed struct {
	id      int64
	item    crawl.Item
	revisit bool
}

// validators gives the claimed URLs that are revisits the ETag and
// Last-Modified of their stored pages.
func (s *CrawlStore) validators(ctx context.Context, tx *sql.Tx, got []claimed) error {
	var revisits []int64
	for _, c := range got {
		if c.revisit {
			revisits = append(revisits, int64(c.item.FP))
		}
	}
	if len(revisits) == 0 {
		return nil
	}
	fps, _ := json.Marshal(revisits)
	rows, err := tx.QueryContext(ctx, fmt.Sprintf(claimValidators, s.d.idsIn()), s.id, string(fps))
	if err != nil {
		return wrap(err, "claim urls: read validators")
	}
	defer rows.Close()
	found := map[uint64]*crawl.Validators{}
	for rows.Next() {
		var fp int64
		var v crawl.Validators
		var lastMod sql.NullInt64
		if err := rows.Scan(&fp, &v.ETag, &lastMod); err != nil {
			return wrap(err, "claim urls: read validators")
		}
		v.LastModified = fromSeconds(lastMod)
		found[uint64(fp)] = &v
	}
	if err := rows.Err(); err != nil {
		return wrap(err, "claim urls: read validators")
	}
	for i := range got {
		got[i].item.Validators = found[got[i].item.FP]
	}
	return nil
}
