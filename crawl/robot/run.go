package robot

import (
	"context"
	"errors"
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
	Logger *slog.Logger     // nil: none
	Limits HostsLimiter     // nil: none
	Tick   <-chan time.Time // tests drive the beats; nil: a ticker of Beat
}

// DefaultBeat is how often a robot reports and reads its control when no
// notification comes first.
const DefaultBeat = time.Second

// Run registers the robot, runs the engine (made with crawl.Shared) and
// follows the control until the crawl ends, the robot is told to stop or
// ctx ends. It returns the engine's error, or the store's if the robot
// could not register.
func Run(ctx context.Context, cfg Config, e *crawl.Engine, st Store) error {
	if cfg.ID == "" {
		return errors.New("robot: an ID is needed")
	}
	if cfg.Beat <= 0 {
		cfg.Beat = DefaultBeat
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	threads, perHost, _ := e.Settings()
	cfg.Owner, cfg.Started, cfg.Threads = e.Owner(), time.Now(), threads
	if err := st.Register(ctx, cfg.Info); err != nil {
		return fmt.Errorf("robot %s: %w", cfg.ID, err)
	}
	r := &runner{cfg: cfg, e: e, st: st, applied: Control{Version: -1}}
	r.limit(threads, perHost)
	cfg.Logger.Info("robot joins the crawl", "robot", cfg.ID, "owner", cfg.Owner, "threads", threads)
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- e.Run(runCtx) }()
	return r.follow(runCtx, done)
}

// runner is a running robot's state between beats.
type runner struct {
	cfg     Config
	e       *crawl.Engine
	st      Store
	applied Control // the control last applied
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
			r.finish(err)
			return err
		case <-notes:
		case <-tick:
		}
		r.beat(ctx)
	}
}

// beat reports and applies what the control says.
func (r *runner) beat(ctx context.Context) {
	p := r.e.Progress()
	hs := r.e.Hosts()
	keep := make([]HostKeep, len(hs))
	for i, h := range hs {
		keep[i] = HostKeep{Host: h.Host, Keep: h.Waiting+h.InFlight > 0, Next: h.NextAllowed}
	}
	c, err := r.st.Beat(ctx, Status{State: string(p.State), Pages: p.Fetched(), Errors: p.Errors,
		Rate: p.PagesPerSec, Threads: p.Workers}, keep)
	if err != nil {
		if ctx.Err() == nil {
			r.cfg.Logger.Error("robot: beat failed; the leases may expire", "err", err)
		}
		return
	}
	r.apply(c)
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
