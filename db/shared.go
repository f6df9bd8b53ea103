package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"sync/atomic"
	"time"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/robot"
)

// Several robots (crawler processes, paper 003) crawl one crawl of a
// PostgreSQL database at once. The store keeps them apart with leases that
// expire, on URLs and on hosts:
//
//   - A claim locks candidate URL rows with FOR UPDATE SKIP LOCKED, so two
//     robots never take one URL, and leases them until now+lease. A robot
//     renews its leases with every beat (robot.Store.Beat); a robot that
//     died stops renewing, and its URLs go to whoever claims next.
//   - A URL is claimed only with its host: a host is leased to one robot
//     at a time, and handed on no earlier than next_allowed_at, so one
//     robot's per-host limit and delay are the crawl's. A robot holds at
//     most MaxHosts hosts, so the hosts spread over the robots.
//   - A page is stored only while its URL's lease holds (fencing): a robot
//     that stalled past its lease does not overwrite the page another
//     robot fetched meanwhile.

// sharing is a CrawlStore's robot mode.
type sharing struct {
	lease    time.Duration
	maxHosts atomic.Int64
	lost     atomic.Int64 // pages not stored: their lease had gone
}

// DefaultLease is how long a robot's leases last without a beat.
const DefaultLease = robot.DefaultLease

// SharedCrawl returns the view of crawl id that a robot works through:
// leases that expire after lease (DefaultLease when 0) unless renewed,
// hosts leased with their URLs, and pages stored only under a live lease.
// It needs a PostgreSQL database.
func (d *DB) SharedCrawl(id int64, lease time.Duration) (*CrawlStore, error) {
	if !d.pg {
		return nil, fmt.Errorf("%w: robots share a PostgreSQL database (--db postgres://…), not a SQLite file", ErrInput)
	}
	if lease <= 0 {
		lease = DefaultLease
	}
	s := d.Crawl(id)
	s.shared = &sharing{lease: lease}
	s.shared.maxHosts.Store(1)
	return s, nil
}

// SetMaxHosts sets how many hosts a robot works at once (its threads
// divided by the per-host limit, at least 1).
func (s *CrawlStore) SetMaxHosts(n int) {
	if s.shared != nil {
		s.shared.maxHosts.Store(int64(max(n, 1)))
	}
}

// LostPages counts the pages this robot fetched and did not store because
// its lease had gone.
func (s *CrawlStore) LostPages() int64 {
	if s.shared == nil {
		return 0
	}
	return s.shared.lost.Load()
}

// freeHosts walks the waiting URLs in claim order for hosts no robot
// holds and none must wait for; takeHost is then the arbiter.
const freeHosts = `
SELECT u.host FROM urls u
WHERE u.crawl_id = ?1 AND u.state = 0 AND (u.owner = '' OR u.lease_until < ?2)
  AND NOT EXISTS (SELECT 1 FROM host_leases h WHERE h.crawl_id = u.crawl_id AND h.host = u.host
      AND (h.owner <> '' AND h.lease_until >= ?2 OR h.next_allowed_at > ?2))
ORDER BY u.priority DESC, u.depth %s, u.id %s
LIMIT ?3`

// hostURLs are the first waiting URLs of one host, locked.
const hostURLs = `
SELECT id FROM urls
WHERE crawl_id = ?1 AND host = ?2 AND state = 0 AND (owner = '' OR lease_until < ?3)
ORDER BY priority DESC, depth %s, id %s
LIMIT ?4
FOR UPDATE SKIP LOCKED`

// takeHost leases a host to a robot if it is free, expired, or its own.
const takeHost = `
INSERT INTO host_leases (crawl_id, host, owner, lease_until) VALUES (?1, ?2, ?3, ?4)
ON CONFLICT (crawl_id, host) DO UPDATE SET owner = excluded.owner, lease_until = excluded.lease_until
WHERE host_leases.owner = excluded.owner
   OR ((host_leases.owner = '' OR host_leases.lease_until < ?5) AND host_leases.next_allowed_at <= ?5)
RETURNING host`

const leaseURLs = `
UPDATE urls SET owner = ?1, leased_at = ?2, lease_until = ?3
WHERE id IN %s
RETURNING id, url, fp, depth, parent, resource, revisit, priority`

// claimShared leases up to n URLs to a robot, host by host: the hosts it
// holds, and while it may take more, the first free ones in claim order.
// Each step reads an index in claim order and stops (no sort of every
// waiting URL), so a claim costs about the same at any crawl size.
func (s *CrawlStore) claimShared(ctx context.Context, owner string, n int, order crawl.Strategy) ([]crawl.Item, error) {
	dir := "ASC"
	if order == crawl.DFS {
		dir = "DESC"
	}
	return s.claim(ctx, func(tx *sql.Tx, now int64) ([]claimed, error) {
		held, err := heldHosts(ctx, tx, s.id, owner, now)
		if err != nil {
			return nil, err
		}
		hosts := slices.Collect(maps.Keys(held))
		if room := int(s.shared.maxHosts.Load()) - len(held); room > 0 {
			more, err := s.freeHosts(ctx, tx, now, room, 8*n, dir)
			if err != nil {
				return nil, err
			}
			hosts = append(hosts, more...)
		}
		sort.Strings(hosts) // host leases are taken in one order by every robot
		until := now + int64(s.shared.lease)
		// Each host gets its share of the claim: a claim filled from one
		// host would leave the robot's other threads idle behind that
		// host's per-host limit until the next claim.
		share := max(1, (n+len(hosts)-1)/max(len(hosts), 1))
		var ids []int64
		for _, h := range hosts {
			// A held host's lease is renewed with its URLs' (a beat that
			// read the robot's hosts before this claim must not hand it
			// on); a free one is taken; either fails if it changed hands.
			ok, err := takeHostLease(ctx, tx, s.id, h, owner, until, now)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
			got, err := lockHostURLs(ctx, tx, fmt.Sprintf(hostURLs, dir, dir), s.id, h, now, min(share, n-len(ids)))
			if err != nil {
				return nil, err
			}
			if ids = append(ids, got...); len(ids) >= n {
				break
			}
		}
		if len(ids) == 0 {
			return nil, nil
		}
		got, err := claimRows(ctx, tx, fmt.Sprintf(leaseURLs, s.d.idsIn()), owner, now, until, jsonInts(ids))
		sort.Slice(got, func(i, j int) bool { return got[i].id < got[j].id })
		return got, err
	})
}

// freeHosts returns up to room hosts that have waiting URLs and that no
// robot holds, in claim order, reading at most scan URLs.
func (s *CrawlStore) freeHosts(ctx context.Context, tx *sql.Tx, now int64, room, scan int, dir string) ([]string, error) {
	seen, err := queryColumn[string](ctx, tx, "find free hosts", fmt.Sprintf(freeHosts, dir, dir), s.id, now, scan)
	if err != nil {
		return nil, err
	}
	var hosts []string
	for _, h := range seen {
		if len(hosts) == room {
			break
		}
		if !slices.Contains(hosts, h) {
			hosts = append(hosts, h)
		}
	}
	return hosts, nil
}

// lockHostURLs locks up to n waiting URLs of one host.
func lockHostURLs(ctx context.Context, tx *sql.Tx, query string, crawlID int64, host string, now int64, n int) ([]int64, error) {
	return queryColumn[int64](ctx, tx, "claim urls of "+host, query, crawlID, host, now, n)
}

// heldHosts are the hosts whose live lease a robot holds.
func heldHosts(ctx context.Context, tx *sql.Tx, crawlID int64, owner string, now int64) (map[string]bool, error) {
	hosts, err := queryColumn[string](ctx, tx, "read held hosts",
		`SELECT host FROM host_leases WHERE crawl_id = ? AND owner = ? AND lease_until >= ?`, crawlID, owner, now)
	if err != nil {
		return nil, err
	}
	held := map[string]bool{}
	for _, h := range hosts {
		held[h] = true
	}
	return held, nil
}

func takeHostLease(ctx context.Context, tx *sql.Tx, crawlID int64, host, owner string, until, now int64) (bool, error) {
	var got string
	err := tx.QueryRowContext(ctx, takeHost, crawlID, host, owner, until, now).Scan(&got)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, wrap(err, "lease host %s", host)
}

// releaseShared hands back a robot's URLs and hosts; each host may be
// asked again from next (a host's delay since its last request).
func (s *CrawlStore) releaseShared(ctx context.Context, owner string) error {
	_, err := s.d.w.ExecContext(ctx, `UPDATE urls SET owner = '', leased_at = NULL, lease_until = NULL
WHERE crawl_id = ? AND state = 0 AND owner = ?`, s.id, owner)
	if err != nil {
		return wrap(err, "release urls of %s", owner)
	}
	_, err = s.d.w.ExecContext(ctx, `UPDATE host_leases SET owner = '', lease_until = 0 WHERE crawl_id = ? AND owner = ?`,
		s.id, owner)
	return wrap(err, "release hosts of %s", owner)
}

// fenced reports whether a robot may store the outcome of URL fp: always
// outside robot mode; in it, only while its lease holds. A lost page is
// counted and logged by the caller's count.
func (s *CrawlStore) fenced(ctx context.Context, tx *sql.Tx, owner string, fp uint64, now, began int64) (bool, error) {
	if s.shared == nil {
		return true, nil
	}
	ok, err := s.holdsLease(ctx, tx, owner, fp, now, began)
	if err == nil && !ok {
		s.shared.lost.Add(1)
	}
	return ok, err
}

// holdsLease reports, inside a batch's transaction, whether owner still
// holds the lease of the URL of fingerprint fp, taken no later than began,
// when the work being stored began; the row stays locked until the batch
// commits, so the lease cannot pass to another meanwhile. A robot stopped
// past its lease may claim the URL again before it stores the answer it
// fetched under the old lease: that answer is as late as another robot's
// would be, and began tells it apart.
func (s *CrawlStore) holdsLease(ctx context.Context, tx *sql.Tx, owner string, fp uint64, now, began int64) (bool, error) {
	var one int
	err := tx.QueryRowContext(ctx, `SELECT 1 FROM urls WHERE crawl_id = ? AND fp = ? AND owner = ? AND lease_until >= ?
AND coalesce(leased_at, 0) <= ? FOR UPDATE`, s.id, int64(fp), owner, now, began).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, wrap(err, "check the lease of a url")
}

func jsonInts(ids []int64) string {
	b := make([]byte, 0, 8*len(ids))
	b = append(b, '[')
	for i, id := range ids {
		if i > 0 {
			b = append(b, ',')
		}
		b = fmt.Appendf(b, "%d", id)
	}
	return string(append(b, ']'))
}
