package db

import (
	"context"
	"database/sql"
	"sync"
	"sync/atomic"
)

// checkpointPages is how many pages the writer stores between two
// background checkpoints: about 7 MB of log for pages of a few kilobytes.
const checkpointPages = 1000

// checkpointer copies the write-ahead log into the database file on a
// connection of its own while the crawl goes on. Without it the log grows
// to SQLite's automatic checkpoint (wal_autocheckpoint, 32 MB), which runs
// inside the writer's commit, and whatever is in the log when the file is
// closed is copied then, while the user waits: about 20 ms of every
// 5,000-page crawl's end went to that. A passive checkpoint never waits
// for readers or the writer: it copies what no reader still needs and the
// writer goes on appending. The automatic checkpoint stays as a backstop
// for the writes that do not wake this one (re-crawl marks, deletions).
type checkpointer struct {
	conn    *sql.DB
	pending atomic.Int64 // pages stored since the last checkpoint began
	wake    chan struct{}
	quit    chan struct{}
	done    chan struct{}
	stop    sync.Once
}

// startCheckpointer opens the checkpointer's connection to the SQLite file
// at path and starts it. A checkpoint writes no row, so a read-only
// connection with a small cache is enough.
func startCheckpointer(path string) (*checkpointer, error) {
	conn, err := sql.Open("sqlite", dsn(path, 256, false))
	if err != nil {
		return nil, err
	}
	conn.SetMaxOpenConns(1)
	if err := conn.Ping(); err != nil {
		conn.Close()
		return nil, err
	}
	c := &checkpointer{conn: conn, wake: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{})}
	go c.run()
	return c, nil
}

// stored tells the checkpointer that a commit added n pages to the log.
// It never blocks; on PostgreSQL (no checkpointer) it does nothing.
func (c *checkpointer) stored(n int) {
	if c == nil || c.pending.Add(int64(n)) < checkpointPages {
		return
	}
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

func (c *checkpointer) run() {
	defer close(c.done)
	for {
		select {
		case <-c.quit:
			return
		case <-c.wake:
		}
		c.pending.Store(0)
		// A checkpoint that fails or is cut short loses nothing: the log
		// keeps the pages for the next one, or for the one at close.
		_, _ = c.conn.ExecContext(context.Background(), "PRAGMA wal_checkpoint(PASSIVE)")
	}
}

// close stops the checkpointer, after the checkpoint under way if any,
// and closes its connection. Closing it again does nothing.
func (c *checkpointer) close() error {
	if c == nil {
		return nil
	}
	c.stop.Do(func() { close(c.quit) })
	<-c.done
	return c.conn.Close()
}
