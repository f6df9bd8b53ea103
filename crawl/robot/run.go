package robot

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/trawler/trawler/crawl"
)

// Store is what a robot needs of the shared database beyond the crawl's
// store (db.RobotStore implements it).
type Store interface {
	// Register records the robot when it starts.
	Register(ctx context.Context, in Info) error
	// Beat records the robot's counts, renews its leases (of its URLs
	// and of the hosts it keeps), hands on the hosts it does not keep,
	// and returns the control in force.
	Beat(ctx context.Context, st Status, hosts []HostKeep) (Control, error)
	// Watch returns a channel that gets a value soon after the control
	// changes, until ctx ends.
	Watch(ctx context.Context) (<-chan struct{}, error)
	// Leave records the robot's last state.
	Leave(ctx context.Context, state string) error
}

// HostsLimiter is told how many hosts a robot works at once (its threads
// divided by its per-host limit), so the hosts spread over the robots.
type HostsLimiter interface{ SetMaxHosts(n int) }

// Config is a robot's identity and rhythm.
type Config struct {
	Info                    // ID is required; Owner, Started and Threads are filled in by Run
	Beat   time.Duration    // between two beats; default DefaultBeat
	Lease  time.Duration    // how long the store's leases last without a beat; default DefaultLease
	Outage time.Duration    // how long it keeps trying while the database fails; default DefaultOutage, negative: not at all
	Logger *slog.Logger     // nil: none
	Limits HostsLimiter     // nil: none
	Tick   <-chan time.Time // tests drive the beats; nil: a ticker of Beat
}

// Defaults of Config.
const (
	DefaultBeat  = time.Second      // how often a robot reports and reads its control when no notice comes first
	DefaultLease = 15 * time.Second // how long its leases last without a beat

	// DefaultOutage outlasts a database restart or a failover, not a
	// database that is gone: then the robot gives up with the error.
	DefaultOutage = 5 * time.Minute
)

// Run registers the robot, runs its engine and follows the control until
// the crawl ends, the robot is told to stop or ctx ends. It returns the
// engine's error, or the store's if the robot could not register.
//
// A robot whose database fails (a restart, a failover, the network) starts
// afresh with a new engine once it is back, for up to Config.Outage: what
// it had fetched and not stored is fetched again, by it or another robot.
func (r *Robot) Run(ctx context.Context) error {
	var failing time.Time // since when the database has failed, zero while it works
	for {
		e, err := r.newEngine()
		if err != nil {
			return err
		}
		r.mu.Lock()
		r.e = e
		stopped := r.stopped
		r.mu.Unlock()
		if stopped {
			e.Stop()
		}
		lost, joined, err := r.runOnce(ctx, e)
		r.mu.Lock()
		stopped = r.stopped
		r.mu.Unlock()
		if stopped || ctx.Err() != nil {
			return err
		}
		if err == nil && lost {
			r.cfg.Logger.Warn("robot: its leases ran out (stalled or cut off); it starts afresh", "robot", r.cfg.ID)
			continue
		}
		if err == nil || r.cfg.Outage < 0 {
			return err
		}
		if joined || failing.IsZero() {
			failing = time.Now()
		}
		wait := min(time.Second<<min(int(time.Since(failing)/(5*time.Second)), 4), 15*time.Second)
		if time.Since(failing)+wait > r.cfg.Outage {
			return err
		}
		r.cfg.Logger.Warn("robot: the database failed; it tries again", "robot", r.cfg.ID, "in", wait, "err", err)
		select {
		case <-ctx.Done():
			return err
		case <-r.stopping:
			return err
		case <-time.After(wait):
		}
	}
}

// runOnce runs one engine; lost reports that its leases ran out, joined
// that it registered.
func (r *Robot) runOnce(ctx context.Context, e *crawl.Engine) (lost, joined bool, err error) {
	threads, perHost, _ := e.Settings()
	info := r.cfg.Info
	info.Owner, info.Started, info.Threads = e.Owner(), time.Now(), threads
	if err := r.st.Register(ctx, info); err != nil {
		return false, false, fmt.Errorf("robot %s: %w", r.cfg.ID, err)
	}
	ru := &runner{cfg: r.cfg, e: e, st: r.st, applied: Control{Version: -1}, lastOK: time.Now()}
	ru.limit(threads, perHost)
	r.cfg.Logger.Info("robot joins the crawl", "robot", r.cfg.ID, "owner", info.Owner, "threads", threads)
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- e.Run(runCtx) }()
	err = ru.follow(runCtx, done)
	return ru.lost, true, err
}

// runner is a running engine's state between beats.
type runner struct {
	cfg     Config
	e       *crawl.Engine
	st      Store
	applied Control   // the control last applied
	lastOK  time.Time // the last beat that reached the store
	lost    bool      // the leases ran out between two beats
}

// follow beats and applies the control until the engine returns.
func (r *runner) follow(ctx context.Context, done <-chan error) error {
	notes, err := r.st.Watch(ctx)
	if err != nil {
		r.cfg.Logger.Warn("robot: no notifications; the control is read at each beat", "err", err)
	}
	tick := r.cfg.Tick
	if tick == nil {
		t := time.NewTicker(r.cfg.Beat)
		defer t.Stop()
		tick = t.C
	}
	r.beat(ctx)
	for {
		select {
		case err := <-done:
			if !r.lost {
				r.finish(err)
			}
			return err
		case _, ok := <-notes:
			if !ok { // the listening connection broke: beats carry on alone
				notes = nil
				r.cfg.Logger.Warn("robot: notifications stopped; the control is read at each beat")
			}
		case <-tick:
		}
		if r.beat(ctx) {
			r.beat(ctx) // at once, so the control's sender sees the new state
		}
	}
}

// beat reports and applies what the control says; it reports whether the
// control changed.
func (r *runner) beat(ctx context.Context) bool {
	p := r.e.Progress()
	hs, at := r.e.HostsClaimed() // a host claimed after at is not handed on
	keep := make([]HostKeep, len(hs))
	for i, h := range hs {
		keep[i] = HostKeep{Host: h.Host, Keep: h.Waiting+h.InFlight > 0, Next: h.NextAllowed}
	}
	c, err := r.st.Beat(ctx, Status{At: at, State: string(p.State), Pages: p.RunFetched, Errors: p.Errors,
		Rate: p.PagesPerSec, Threads: p.Workers}, keep)
	if err != nil {
		if ctx.Err() == nil {
			r.cfg.Logger.Error("robot: beat failed; the leases may expire", "err", err)
		}
		if !r.lost && time.Since(r.lastOK) > r.cfg.Lease {
			r.lost = true // what it fetches now may be another robot's: it starts afresh
			r.e.Stop()
		}
		return false
	}
	if r.lost {
		return false
	}
	if time.Since(r.lastOK) > r.cfg.Lease {
		r.lost = true // a stalled robot's beat came too late
		r.e.Stop()
		return false
	}
	r.lastOK = time.Now()
	changed := c.Version != r.applied.Version || c.Effective() != r.applied.Effective()
	r.apply(c)
	return changed
}

// apply brings the engine in line with the control.
func (r *runner) apply(c Control) {
	if c.Version != r.applied.Version {
		threads, perHost, _ := r.e.Settings()
		if c.Threads > 0 && c.Threads != threads {
			r.set("threads", c.Threads, r.e.SetThreads(c.Threads))
			threads = c.Threads
		}
		if c.PerHost > 0 && c.PerHost != perHost {
			r.set("per-host", c.PerHost, r.e.SetPerHost(c.PerHost))
			perHost = c.PerHost
		}
		if c.Delay >= 0 {
			r.set("delay", c.Delay, r.e.SetDelay(c.Delay))
		}
		r.limit(threads, perHost)
	}
	switch c.Effective() {
	case CommandStop:
		r.e.Stop()
	case CommandPause:
		r.e.Pause()
	default:
		r.e.Resume()
	}
	r.applied = c
}

func (r *runner) set(what string, v any, err error) {
	if err != nil {
		r.cfg.Logger.Error("robot: the control's "+what+" is refused", "value", v, "err", err)
		return
	}
	r.cfg.Logger.Info("robot follows the control", what, v)
}

func (r *runner) limit(threads, perHost int) {
	if r.cfg.Limits != nil {
		r.cfg.Limits.SetMaxHosts(max(1, threads/max(perHost, 1)))
	}
}

// finish records the robot's last state.
func (r *runner) finish(err error) {
	state := string(r.e.Progress().State)
	if err != nil {
		state = string(crawl.StateFailed)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if lerr := r.st.Leave(ctx, state); lerr != nil {
		r.cfg.Logger.Error("robot: could not record its leaving", "err", lerr)
	}
	r.cfg.Logger.Info("robot leaves the crawl", "robot", r.cfg.ID, "state", state)
}
