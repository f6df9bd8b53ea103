package db

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"time"

	"github.com/trawler/trawler/crawl/robot"
)

// RobotStore is one robot's view of the shared database: its
// registration, its beats (which renew its leases) and the control it
// follows. It implements robot.Store.
type RobotStore struct {
	s     *CrawlStore
	id    string
	owner string
}

var _ robot.Store = (*RobotStore)(nil)

// Robot returns the store of robot id of a shared crawl (SharedCrawl).
func (s *CrawlStore) Robot(id string) robot.Store { return &RobotStore{s: s, id: id} }

// controlChannel is where changes of the control are announced.
const controlChannel = "trawler_control"

// Register records the robot (again, if it ran before: its counts and its
// own command start afresh) and makes sure the crawl has a control row.
func (r *RobotStore) Register(ctx context.Context, in robot.Info) error {
	if r.s.shared == nil {
		return errors.New("register robot: the store is not shared (SharedCrawl)")
	}
	r.owner = in.Owner
	now := time.Now().UnixNano()
	_, err := r.s.d.w.ExecContext(ctx, `
INSERT INTO robots (crawl_id, id, owner, hostname, pid, version, started_at, heartbeat_at, state, threads)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'running', ?)
ON CONFLICT (crawl_id, id) DO UPDATE SET owner = excluded.owner, hostname = excluded.hostname, pid = excluded.pid,
    version = excluded.version, started_at = excluded.started_at, heartbeat_at = excluded.heartbeat_at,
    state = 'running', pages = 0, errors = 0, rate = 0, threads = excluded.threads, command = ''`,
		r.s.id, r.id, in.Owner, in.Hostname, in.PID, in.Version, in.Started.UnixNano(), now, in.Threads)
	if err != nil {
		return wrap(err, "register robot %s", r.id)
	}
	// A robot started after the crawl was stopped means to go on with it.
	_, err = r.s.d.w.ExecContext(ctx, `INSERT INTO crawl_control (crawl_id) VALUES (?)
ON CONFLICT (crawl_id) DO UPDATE SET command = '', version = crawl_control.version + 1
WHERE crawl_control.command = 'stop'`, r.s.id)
	return wrap(err, "register robot %s", r.id)
}

// Beat records the robot's counts, renews the leases of its URLs and of
// the hosts it keeps, hands on the others, and reads the control.
func (r *RobotStore) Beat(ctx context.Context, st robot.Status, hosts []robot.HostKeep) (robot.Control, error) {
	tx, err := r.s.d.w.BeginTx(ctx, nil)
	if err != nil {
		return robot.Control{}, wrap(err, "beat")
	}
	defer tx.Rollback()
	now := time.Now().UnixNano()
	until := now + int64(r.s.shared.lease)
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`UPDATE robots SET heartbeat_at = ?, state = ?, pages = ?, errors = ?, rate = ?, threads = ?
WHERE crawl_id = ? AND id = ?`, []any{now, st.State, st.Pages, st.Errors, st.Rate, st.Threads, r.s.id, r.id}},
		// A lease that ran out is not brought back: another robot may hold
		// the URL now, or take it any moment, and the late page is fenced.
		{`UPDATE urls SET lease_until = ? WHERE crawl_id = ? AND id IN (SELECT id FROM urls
WHERE crawl_id = ? AND owner = ? AND state = 0 AND lease_until >= ? ORDER BY id FOR UPDATE SKIP LOCKED)`,
			[]any{until, r.s.id, r.s.id, r.owner, now}},
	} {
		if _, err := tx.ExecContext(ctx, q.sql, q.args...); err != nil {
			return robot.Control{}, wrap(err, "beat")
		}
	}
	if st.At.IsZero() {
		st.At = time.Unix(0, now)
	}
	if err := r.keepHosts(ctx, tx, hosts, st.At.UnixNano(), now, until); err != nil {
		return robot.Control{}, err
	}
	c, err := readControl(ctx, tx, r.s.id, r.id)
	if err != nil {
		return c, err
	}
	return c, wrap(tx.Commit(), "beat")
}

// keepHosts renews the leases of the hosts the robot keeps and hands on
// those it holds and does not, unless a claim leased one again after the
// robot read its hosts (at): its URLs may be on their way to a worker.
// A beat never waits for a row another transaction holds: it renews or
// hands on what it could lock, and the next beat sees to the rest.
func (r *RobotStore) keepHosts(ctx context.Context, tx *sql.Tx, hosts []robot.HostKeep, at, now, until int64) error {
	held, err := lockedHosts(ctx, tx, r.s.id, r.owner)
	if err != nil {
		return err
	}
	keep := map[string]robot.HostKeep{}
	for _, h := range hosts {
		keep[h.Host] = h
	}
	for _, h := range held { // in the order claims lock them
		k, known := keep[h]
		if k.Keep {
			if _, err := tx.ExecContext(ctx, `UPDATE host_leases SET lease_until = ?
WHERE crawl_id = ? AND host = ? AND owner = ? AND lease_until >= ?`, until, r.s.id, h, r.owner, now); err != nil {
				return wrap(err, "renew host %s", h)
			}
			continue
		}
		next := now
		if known {
			next = max(k.Next.UnixNano(), now)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE host_leases SET owner = '', lease_until = 0,
    next_allowed_at = CASE WHEN next_allowed_at > ? THEN next_allowed_at ELSE ? END
WHERE crawl_id = ? AND host = ? AND owner = ? AND lease_until <= ?`, next, next, r.s.id, h, r.owner, at+int64(r.s.shared.lease)); err != nil {
			return wrap(err, "hand on host %s", h)
		}
	}
	return nil
}

// lockedHosts locks the robot's host leases that no other transaction
// holds, in host order.
func lockedHosts(ctx context.Context, tx *sql.Tx, crawlID int64, owner string) ([]string, error) {
	return queryColumn[string](ctx, tx, "lock held hosts", `SELECT host FROM host_leases WHERE crawl_id = ? AND owner = ?
ORDER BY host FOR UPDATE SKIP LOCKED`, crawlID, owner)
}

func readControl(ctx context.Context, q querier, crawlID int64, id string) (robot.Control, error) {
	var c robot.Control
	var delay int64
	err := q.QueryRowContext(ctx, `SELECT c.threads, c.per_host, c.delay, c.command, c.version,
    coalesce((SELECT r.command FROM robots r WHERE r.crawl_id = c.crawl_id AND r.id = ?), '')
FROM crawl_control c WHERE c.crawl_id = ?`, id, crawlID).Scan(&c.Threads, &c.PerHost, &delay, &c.Command, &c.Version, &c.Robot)
	if errors.Is(err, sql.ErrNoRows) {
		return robot.Control{Delay: -1}, nil
	}
	c.Delay = time.Duration(delay)
	return c, wrap(err, "read the control of crawl %d", crawlID)
}

// Leave records the robot's last state.
func (r *RobotStore) Leave(ctx context.Context, state string) error {
	_, err := r.s.d.w.ExecContext(ctx, `UPDATE robots SET state = ?, heartbeat_at = ? WHERE crawl_id = ? AND id = ?`,
		state, time.Now().UnixNano(), r.s.id, r.id)
	return wrap(err, "robot %s leaves", r.id)
}

// Robots lists the robots of a crawl, by ID.
func (d *DB) Robots(ctx context.Context, crawlID int64) ([]robot.State, error) {
	if !d.pg {
		return nil, nil
	}
	rows, err := d.r.QueryContext(ctx, `SELECT id, owner, hostname, pid, version, started_at, heartbeat_at, state,
    pages, errors, rate, threads, command FROM robots WHERE crawl_id = ? ORDER BY id`, crawlID)
	if err != nil {
		return nil, wrap(err, "list robots")
	}
	defer rows.Close()
	var out []robot.State
	for rows.Next() {
		var s robot.State
		var started, beat int64
		if err := rows.Scan(&s.ID, &s.Owner, &s.Hostname, &s.PID, &s.Version, &started, &beat, &s.State,
			&s.Pages, &s.Errors, &s.Rate, &s.Status.Threads, &s.Command); err != nil {
			return nil, wrap(err, "list robots")
		}
		s.Started, s.Heartbeat = time.Unix(0, started).UTC(), time.Unix(0, beat).UTC()
		s.Info.Threads = s.Status.Threads
		out = append(out, s)
	}
	return out, wrap(rows.Err(), "list robots")
}

// Control returns what the robots of a crawl follow.
func (d *DB) Control(ctx context.Context, crawlID int64) (robot.Control, error) {
	if !d.pg {
		return robot.Control{Delay: -1}, nil
	}
	return readControl(ctx, d.r, crawlID, "")
}

// SetControl changes what every robot of the crawl follows and announces
// it: threads, per-host limit and delay (zero, zero and negative: the
// crawl's settings), and the command for all of them.
func (d *DB) SetControl(ctx context.Context, crawlID int64, c robot.Control) error {
	if err := d.needPG("control robots"); err != nil {
		return err
	}
	_, err := d.w.ExecContext(ctx, `
INSERT INTO crawl_control (crawl_id, threads, per_host, delay, command, version) VALUES (?1, ?2, ?3, ?4, ?5, 1)
ON CONFLICT (crawl_id) DO UPDATE SET threads = excluded.threads, per_host = excluded.per_host,
    delay = excluded.delay, command = excluded.command, version = crawl_control.version + 1`,
		crawlID, c.Threads, c.PerHost, int64(c.Delay), c.Command)
	if err != nil {
		return wrap(err, "control the robots of crawl %d", crawlID)
	}
	return d.announce(ctx, crawlID)
}

// CommandRobot gives one robot of a crawl a command of its own
// (robot.CommandRun, CommandPause or CommandStop), and announces it.
func (d *DB) CommandRobot(ctx context.Context, crawlID int64, id, command string) error {
	if err := d.needPG("control robots"); err != nil {
		return err
	}
	res, err := d.w.ExecContext(ctx, `UPDATE robots SET command = ? WHERE crawl_id = ? AND id = ?`, command, crawlID, id)
	if err != nil {
		return wrap(err, "command robot %s", id)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("robot %s of crawl %d: %w", id, crawlID, ErrNotFound)
	}
	return d.announce(ctx, crawlID)
}

// CommandAll gives every robot of a crawl a command (robot.CommandRun,
// CommandPause or CommandStop), the rest of the crawl's control kept; it
// outweighs what one robot was told before, and is announced.
func (d *DB) CommandAll(ctx context.Context, crawlID int64, command string) error {
	if err := d.needPG("control robots"); err != nil {
		return err
	}
	c, err := d.Control(ctx, crawlID)
	if err != nil {
		return err
	}
	c.Command = command
	if err := d.SetControl(ctx, crawlID, c); err != nil {
		return err
	}
	_, err = d.w.ExecContext(ctx, `UPDATE robots SET command = '' WHERE crawl_id = ? AND command <> ''`, crawlID)
	if err != nil {
		return wrap(err, "command the robots of crawl %d", crawlID)
	}
	return d.announce(ctx, crawlID)
}

// announce tells the listening robots that the control changed.
func (d *DB) announce(ctx context.Context, crawlID int64) error {
	_, err := d.w.ExecContext(ctx, `SELECT pg_notify(?, ?)`, controlChannel, fmt.Sprint(crawlID))
	return wrap(err, "announce the control of crawl %d", crawlID)
}

func (d *DB) needPG(what string) error {
	if !d.pg {
		return fmt.Errorf("%w: to %s, use a PostgreSQL database (postgres://…)", ErrInput, what)
	}
	return nil
}

// Watch returns a channel that gets a value soon after the control of the
// robot's crawl changes (PostgreSQL's LISTEN on a connection of its own),
// until ctx ends; beats read the control anyway, should a notice be lost.
func (r *RobotStore) Watch(ctx context.Context) (<-chan struct{}, error) {
	conn, err := r.s.d.w.Conn(ctx)
	if err != nil {
		return nil, wrap(err, "listen for control")
	}
	pgx := func(f func(c *pgConn) error) error {
		return conn.Raw(func(dc any) error { return f(dc.(*pgConn)) })
	}
	if err := pgx(func(c *pgConn) error {
		_, err := c.Conn.Conn().Exec(ctx, "LISTEN "+controlChannel)
		return err
	}); err != nil {
		conn.Close()
		return nil, wrap(err, "listen for control")
	}
	ch := make(chan struct{}, 1)
	want := fmt.Sprint(r.s.id)
	go func() {
		defer func() {
			// The listening connection is not given back to the pool.
			_ = conn.Raw(func(any) error { return driver.ErrBadConn })
			conn.Close()
			close(ch)
		}()
		for {
			var payload string
			err := pgx(func(c *pgConn) error {
				n, err := c.Conn.Conn().WaitForNotification(ctx)
				if err == nil {
					payload = n.Payload
				}
				return err
			})
			if err != nil {
				return
			}
			if payload == want {
				select {
				case ch <- struct{}{}:
				default:
				}
			}
		}
	}()
	return ch, nil
}
