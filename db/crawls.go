package db

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/url"
	"time"

	"github.com/trawler/trawler/crawl"
)

// Crawl states as stored. A new crawl is stopped until it first runs.
const (
	StateRunning = "running"
	StatePaused  = "paused"
	StateStopped = "stopped"
	StateDone    = "done"
	StateFailed  = "failed"
)

// CrawlInfo summarises one crawl for the crawls list and `trawler stats`.
type CrawlInfo struct {
	ID         int64
	Name       string
	Seeds      []string
	State      string
	CreatedAt  time.Time
	StartedAt  time.Time // zero until it first runs
	FinishedAt time.Time // zero unless done or failed
	URLs       crawl.Counts
	Pages      int64 // pages stored, failed ones included
	Bytes      int64 // body bytes read, summed over pages
	Cycle      int   // the current cycle: 0 for the first crawl, one more per re-crawl
}

// CreateCrawl records a new crawl with its settings (passwords are never
// stored) and returns its id. An empty name becomes the first seed's host.
func (d *DB) CreateCrawl(ctx context.Context, name string, cfg crawl.Config) (int64, error) {
	settings, err := json.Marshal(cfg)
	if err != nil {
		return 0, fmt.Errorf("create crawl: encode settings: %w", err)
	}
	if name == "" {
		name = defaultName(cfg.Seeds)
	}
	tx, err := d.w.BeginTx(ctx, nil)
	if err != nil {
		return 0, wrap(err, "create crawl")
	}
	defer tx.Rollback()
	now := time.Now().UnixNano()
	var id int64
	err = tx.QueryRowContext(ctx, `INSERT INTO crawls (name, settings, state, created_at) VALUES (?, ?, ?, ?) RETURNING id`,
		name, string(settings), StateStopped, now).Scan(&id)
	if err != nil {
		return 0, wrap(err, "create crawl")
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO cycles (crawl_id, cycle, started_at) VALUES (?, 0, ?)`, id, now); err != nil {
		return 0, wrap(err, "create crawl")
	}
	return id, wrap(tx.Commit(), "create crawl")
}

func defaultName(seeds []string) string {
	if len(seeds) == 0 {
		return "crawl"
	}
	if u, err := url.Parse(seeds[0]); err == nil && u.Host != "" {
		return u.Host
	}
	return seeds[0]
}

// crawlColumns are a crawl's summary; its pages and bytes are the kept
// counts (see db/counts.go), not a count of its pages.
const crawlColumns = `id, name, settings, state, created_at, started_at, finished_at,
    (SELECT coalesce(sum(k.pages), 0) FROM page_counts k WHERE k.crawl_id = crawls.id),
    (SELECT coalesce(sum(k.bytes), 0) FROM page_counts k WHERE k.crawl_id = crawls.id), cycle`

// Crawls lists every crawl, newest first, with its counts.
func (d *DB) Crawls(ctx context.Context) ([]CrawlInfo, error) {
	rows, err := d.r.QueryContext(ctx, `SELECT `+crawlColumns+` FROM crawls ORDER BY id DESC`)
	if err != nil {
		return nil, wrap(err, "list crawls")
	}
	var list []CrawlInfo
	for rows.Next() {
		c, err := scanCrawl(rows)
		if err != nil {
			rows.Close()
			return nil, wrap(err, "list crawls")
		}
		list = append(list, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, wrap(err, "list crawls")
	}
	for i := range list {
		if list[i].URLs, err = countURLs(ctx, d.r, list[i].ID); err != nil {
			return nil, err
		}
	}
	return list, nil
}

// CrawlInfo returns one crawl's summary, or ErrNotFound.
func (d *DB) CrawlInfo(ctx context.Context, id int64) (CrawlInfo, error) {
	c, err := scanCrawl(d.r.QueryRowContext(ctx, `SELECT `+crawlColumns+` FROM crawls WHERE id = ?`, id))
	if err == sql.ErrNoRows {
		return c, noCrawl(id)
	}
	if err != nil {
		return c, wrap(err, "read crawl %d", id)
	}
	c.URLs, err = countURLs(ctx, d.r, id)
	return c, err
}

type scanner interface{ Scan(dest ...any) error }

func scanCrawl(s scanner) (CrawlInfo, error) {
	var c CrawlInfo
	var settings string
	var created int64
	var started, finished sql.NullInt64
	err := s.Scan(&c.ID, &c.Name, &settings, &c.State, &created, &started, &finished, &c.Pages, &c.Bytes, &c.Cycle)
	if err != nil {
		return c, err
	}
	var cfg crawl.Config
	if err := json.Unmarshal([]byte(settings), &cfg); err != nil {
		return c, fmt.Errorf("settings of crawl %d: %w", c.ID, err)
	}
	c.Seeds = cfg.Seeds
	c.CreatedAt = time.Unix(0, created).UTC()
	c.StartedAt, c.FinishedAt = fromNanos(started), fromNanos(finished)
	return c, nil
}

func noCrawl(id int64) error { return fmt.Errorf("crawl %d: %w", id, ErrNotFound) }

// Settings returns the configuration a crawl was created with. Passwords
// are not stored, so HostAuth entries come back without them.
func (d *DB) Settings(ctx context.Context, id int64) (crawl.Config, error) {
	var settings string
	err := d.r.QueryRowContext(ctx, `SELECT settings FROM crawls WHERE id = ?`, id).Scan(&settings)
	if err == sql.ErrNoRows {
		return crawl.DefaultConfig(), noCrawl(id)
	}
	if err != nil {
		return crawl.DefaultConfig(), wrap(err, "read settings of crawl %d", id)
	}
	// Settings stored before a field existed take its default, but those
	// of a crawl that made version 1 sketches keep that version.
	cfg, err := crawl.DecodeSettings([]byte(settings))
	if err != nil {
		return cfg, wrap(err, "decode settings of crawl %d", id)
	}
	return cfg, nil
}

// SetState records a crawl's state: running stamps the first start and
// clears the finish time; done and failed stamp the finish time.
func (d *DB) SetState(ctx context.Context, id int64, state string) error {
	now := time.Now().UnixNano()
	switch state {
	case StateRunning:
		return d.update(ctx, id, "set state of crawl",
			`UPDATE crawls SET state = ?, started_at = coalesce(started_at, ?), finished_at = NULL WHERE id = ?`,
			state, now, id)
	case StateDone, StateFailed:
		return d.update(ctx, id, "set state of crawl",
			`UPDATE crawls SET state = ?, finished_at = ? WHERE id = ?`, state, now, id)
	case StatePaused, StateStopped:
		return d.update(ctx, id, "set state of crawl", `UPDATE crawls SET state = ? WHERE id = ?`, state, id)
	}
	return fmt.Errorf("set state of crawl %d: unknown state %q", id, state)
}

// Rename gives a crawl a new name.
func (d *DB) Rename(ctx context.Context, id int64, name string) error {
	return d.update(ctx, id, "rename crawl", `UPDATE crawls SET name = ? WHERE id = ?`, name, id)
}

func (d *DB) update(ctx context.Context, id int64, what, q string, args ...any) error {
	res, err := d.w.ExecContext(ctx, q, args...)
	if err != nil {
		return wrap(err, "%s %d", what, id)
	}
	if n, err := res.RowsAffected(); err != nil {
		return wrap(err, "%s %d", what, id)
	} else if n == 0 {
		return noCrawl(id)
	}
	return nil
}

// DeleteCrawl removes a crawl and everything recorded for it, in one
// transaction; other crawls are untouched.
func (d *DB) DeleteCrawl(ctx context.Context, id int64) error {
	tx, err := d.w.BeginTx(ctx, nil)
	if err != nil {
		return wrap(err, "delete crawl %d", id)
	}
	defer tx.Rollback()
	deletes := []string{
		`DELETE FROM verdicts WHERE crawl_id = ?`,
		`DELETE FROM pages WHERE crawl_id = ?`,
		`DELETE FROM errors WHERE crawl_id = ?`,
		`DELETE FROM urls WHERE crawl_id = ?`,
		`DELETE FROM page_visits WHERE crawl_id = ?`,
		`DELETE FROM page_versions WHERE crawl_id = ?`,
		`DELETE FROM cycles WHERE crawl_id = ?`,
		`DELETE FROM page_counts WHERE crawl_id = ?`,
	}
	if !d.pg { // PostgreSQL's indexes go with the rows
		deletes = append([]string{unindexPages + `crawl_id = ?`,
			`DELETE FROM link_targets WHERE rowid IN (SELECT id FROM pages WHERE crawl_id = ?)`}, deletes...)
	}
	for _, q := range deletes {
		if _, err := tx.ExecContext(ctx, q, id); err != nil {
			return wrap(err, "delete crawl %d", id)
		}
	}
	res, err := tx.ExecContext(ctx, `DELETE FROM crawls WHERE id = ?`, id)
	if err != nil {
		return wrap(err, "delete crawl %d", id)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return noCrawl(id)
	}
	return wrap(tx.Commit(), "delete crawl %d", id)
}

// LatestCrawl returns the most recently created crawl, the one commands
// and the window show when none is named; ErrNotFound when there is none.
func (d *DB) LatestCrawl(ctx context.Context) (CrawlInfo, error) {
	c, err := scanCrawl(d.r.QueryRowContext(ctx, `SELECT `+crawlColumns+` FROM crawls ORDER BY id DESC LIMIT 1`))
	if err == sql.ErrNoRows {
		return c, fmt.Errorf("latest crawl: %w", ErrNotFound)
	}
	return c, wrap(err, "find the latest crawl")
}

// LatestUnfinished returns the most recently created crawl that is not
// done, for `trawler resume`; ErrNotFound when every crawl is done.
func (d *DB) LatestUnfinished(ctx context.Context) (int64, error) {
	var id int64
	err := d.r.QueryRowContext(ctx, `SELECT id FROM crawls WHERE state <> 'done' ORDER BY id DESC LIMIT 1`).Scan(&id)
	if err == sql.ErrNoRows {
		return 0, fmt.Errorf("unfinished crawl: %w", ErrNotFound)
	}
	return id, wrap(err, "find the latest unfinished crawl")
}
