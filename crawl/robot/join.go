package robot

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"

	"github.com/trawler/trawler/crawl"
)

// Shared is the store of a crawl on a shared database, as robots work
// over it (db.CrawlStore from db.DB.SharedCrawl).
type Shared interface {
	crawl.Store
	HostsLimiter
	// Robot is the store's face for the robot named id.
	Robot(id string) Store
}

// Join prepares a robot that crawls c over st: ID defaults to HOST-PID,
// the host name and PID are filled in, and the user agent names the robot,
// so a site can tell the robots apart (robots.txt still names Trawler).
// c is checked once here; a bad setting comes back as crawl.New's error.
func Join(st Shared, c crawl.Config, cfg Config) (*Robot, error) {
	host, _ := os.Hostname()
	if cfg.ID == "" {
		cfg.ID = fmt.Sprintf("%s-%d", host, os.Getpid())
	}
	cfg.Hostname, cfg.PID, cfg.Limits = host, os.Getpid(), st
	if c.UserAgent == "" {
		c.UserAgent = crawl.DefaultUserAgent()
	}
	c.UserAgent += " (robot " + cfg.ID + ")"
	if _, err := crawl.New(c, st, crawl.Shared()); err != nil {
		return nil, err
	}
	opts := []crawl.Option{crawl.Shared()}
	if cfg.Logger != nil {
		opts = append(opts, crawl.WithLogger(cfg.Logger))
	}
	return New(cfg, func() (*crawl.Engine, error) { return crawl.New(c, st, opts...) }, st.Robot(cfg.ID))
}

// Robot runs one engine after another for a crawl: a robot that was
// stalled or cut off past its leases starts afresh, as its URLs and hosts
// may be another robot's by then.
type Robot struct {
	cfg       Config
	st        Store
	newEngine func() (*crawl.Engine, error)

	mu       sync.Mutex
	e        *crawl.Engine
	stopped  bool
	stopping chan struct{} // closed by Stop, to end a wait for the database
}

// New prepares a robot; newEngine makes an engine with crawl.Shared over
// the shared store, for each start.
func New(cfg Config, newEngine func() (*crawl.Engine, error), st Store) (*Robot, error) {
	if cfg.ID == "" {
		return nil, errors.New("robot: an ID is needed")
	}
	if cfg.Beat <= 0 {
		cfg.Beat = DefaultBeat
	}
	if cfg.Lease <= 0 {
		cfg.Lease = DefaultLease
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Outage == 0 {
		cfg.Outage = DefaultOutage
	}
	return &Robot{cfg: cfg, st: st, newEngine: newEngine, stopping: make(chan struct{})}, nil
}

// ID is the robot's name in its crawl.
func (r *Robot) ID() string { return r.cfg.ID }

// engine returns the engine running now, nil before the first.
func (r *Robot) engine() *crawl.Engine {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.e
}

// Events returns the running engine's events after seq (crawl.Engine.Events).
func (r *Robot) Events(after uint64) []crawl.Event {
	if e := r.engine(); e != nil {
		return e.Events(after)
	}
	return nil
}

// Hosts returns the running engine's per-host queues.
func (r *Robot) Hosts() []crawl.HostStatus {
	if e := r.engine(); e != nil {
		return e.Hosts()
	}
	return nil
}

// Progress is the running engine's.
func (r *Robot) Progress() crawl.Progress {
	if e := r.engine(); e != nil {
		return e.Progress()
	}
	return crawl.Progress{State: crawl.StateIdle}
}

// Stop stops the robot as its control's stop would.
func (r *Robot) Stop() {
	r.mu.Lock()
	if !r.stopped {
		close(r.stopping)
	}
	r.stopped = true
	e := r.e
	r.mu.Unlock()
	if e != nil {
		e.Stop()
	}
}

// Config returns the running engine's settings (crawl.Engine.Config).
func (r *Robot) Config() crawl.Config {
	if e := r.engine(); e != nil {
		return e.Config()
	}
	return crawl.Config{}
}
