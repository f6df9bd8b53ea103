// Package runner runs one crawl for the window: it records the crawl in the
// database, runs the engine on its own goroutine, keeps the crawl's stored
// state in step with Pause, Resume and Stop, and stores the final state
// when the engine returns. It knows no widgets; the window polls the
// engine it exposes.
package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/hook"
	"github.com/trawler/trawler/crawl/logfile"
	"github.com/trawler/trawler/crawl/robot"
	"github.com/trawler/trawler/crawl/secret"
	"github.com/trawler/trawler/db"
)

// Crawler is what a session runs: a *crawl.Engine on a SQLite file, a
// *robot.Robot on a shared PostgreSQL database, where other robots may
// crawl the same crawl.
type Crawler interface {
	Run(ctx context.Context) error
	Progress() crawl.Progress
	Events(after uint64) []crawl.Event
	Hosts() []crawl.HostStatus
	Config() crawl.Config
	Stop()
}

// Session is one run of a crawl. Its methods may be called from any
// goroutine.
type Session struct {
	ID     int64
	Name   string
	Cycle  int // the cycle this run crawls: 0 for the first crawl, then each re-crawl's number
	Engine Crawler

	d      *db.DB
	log    io.Closer    // the crawl's log file beside the database
	logger *slog.Logger // writes to it
	cancel context.CancelFunc
	done   chan struct{}
	kick   chan struct{} // a new state waits in pending
	wrote  chan struct{} // closed when the state writer has ended

	mu      sync.Mutex
	pending string // the stored state Pause or Resume asked for, not yet written
	ended   bool
	err     error
	hookErr error
	final   crawl.Progress
}

// Start records a new crawl named name (empty: the first seed's host) with
// cfg and starts crawling. cfg is checked first; a bad setting comes back
// as a *crawl.SettingError and nothing is recorded. The database gets cfg
// without its passwords (secret.Strip); the engine runs with them.
func Start(d *db.DB, name string, cfg crawl.Config) (*Session, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	id, err := d.CreateCrawl(context.Background(), name, secret.Strip(cfg))
	if err != nil {
		return nil, fmt.Errorf("record the new crawl: %w", err)
	}
	info, err := d.CrawlInfo(context.Background(), id)
	if err != nil {
		return nil, fmt.Errorf("read the new crawl back: %w", err)
	}
	return launch(d, info, cfg)
}

// Resume continues a stored crawl with its saved settings. Passwords are
// never stored, so get gives each one the settings lack (secret.Fill): the
// window recalls them from the keychain or asks. With get nil they stay
// empty.
func Resume(d *db.DB, id int64, get func(secret.Need) (string, error)) (*Session, error) {
	ctx := context.Background()
	info, err := d.CrawlInfo(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("find crawl %d: %w", id, err)
	}
	cfg, err := d.Settings(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("read the settings of crawl %d: %w", id, err)
	}
	if get != nil {
		if err := secret.Fill(&cfg, get); err != nil {
			return nil, fmt.Errorf("give crawl %d its passwords: %w", id, err)
		}
	}
	return launch(d, info, cfg)
}

// Recrawl begins a new cycle of a finished crawl (db.BeginRecrawl: with
// dueOnly, only the pages the revisit schedule says are due) and runs it
// like Resume; the engine closes the cycle when nothing is left waiting.
// It returns the cycle's number with the session.
func Recrawl(d *db.DB, id int64, dueOnly bool, get func(secret.Need) (string, error)) (*Session, int, error) {
	cycle, _, err := d.BeginRecrawl(context.Background(), id, dueOnly, time.Now())
	if err != nil {
		return nil, 0, fmt.Errorf("begin a re-crawl of crawl %d: %w", id, err)
	}
	s, err := Resume(d, id, get)
	return s, cycle, err
}

func launch(d *db.DB, info db.CrawlInfo, cfg crawl.Config) (*Session, error) {
	logger, logFile, err := logfile.Open(d.Path(), cfg)
	if err != nil {
		return nil, fmt.Errorf("prepare crawl %d: %w", info.ID, err)
	}
	logger = logger.With("crawl", info.ID)
	e, err := newCrawler(d, info.ID, cfg, logger)
	if err != nil {
		logFile.Close()
		return nil, fmt.Errorf("prepare crawl %d: %w", info.ID, err)
	}
	if err := d.SetState(context.Background(), info.ID, db.StateRunning); err != nil {
		return nil, fmt.Errorf("mark crawl %d running: %w", info.ID, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Session{
		ID: info.ID, Name: info.Name, Cycle: info.Cycle, Engine: e, d: d, log: logFile, logger: logger, cancel: cancel,
		done: make(chan struct{}), kick: make(chan struct{}, 1), wrote: make(chan struct{}),
	}
	go s.writeStates()
	go s.run(ctx)
	return s, nil
}

// run runs the engine to its end and stores the state it ended in.
func (s *Session) run(ctx context.Context) {
	runErr := s.Engine.Run(ctx)
	s.cancel()
	s.mu.Lock()
	s.ended = true
	close(s.kick)
	s.mu.Unlock()
	<-s.wrote
	p := s.Engine.Progress()
	state := string(p.State)
	if runErr != nil {
		state = db.StateFailed
	}
	var stateErr error
	if !s.othersWork() || p.State == crawl.StateDone {
		stateErr = s.d.SetState(context.Background(), s.ID, state)
	}
	if runErr != nil {
		runErr = fmt.Errorf("crawl %d failed: %w", s.ID, runErr)
	}
	if stateErr != nil {
		stateErr = fmt.Errorf("store the state of crawl %d: %w", s.ID, stateErr)
	}
	hookState := p.State
	if runErr != nil {
		hookState = crawl.StateFailed
	}
	hookErr := hook.Run(context.Background(), s.Engine.Config().Hook, s.ID, s.d.Path(), hookState, os.Stderr)
	_ = s.log.Close() // every line is written as it comes; nothing is lost on a failed close
	s.mu.Lock()
	s.err = errors.Join(runErr, stateErr)
	s.hookErr = hookErr
	s.final = p
	s.mu.Unlock()
	close(s.done)
}

// writeStates stores the latest state Pause or Resume asked for, off the
// caller's goroutine: the database's one writer may be busy with a batch.
func (s *Session) writeStates() {
	defer close(s.wrote)
	for range s.kick {
		s.mu.Lock()
		st := s.pending
		s.pending = ""
		s.mu.Unlock()
		if st != "" {
			_ = s.d.SetState(context.Background(), s.ID, st) // the final state overwrites it anyway
		}
	}
}

func (s *Session) queueState(st string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended {
		return
	}
	s.pending = st
	select {
	case s.kick <- struct{}{}:
	default: // the writer will read pending anyway
	}
}

// Pause stops new fetches; those in flight finish. On a shared database
// it pauses every robot of the crawl, as the Robots screen's Pause all.
func (s *Session) Pause() {
	e, ok := s.Engine.(*crawl.Engine)
	if !ok {
		s.command(robot.CommandPause)
		return
	}
	e.Pause()
	if e.Progress().State == crawl.StatePaused {
		s.queueState(db.StatePaused)
	}
}

// Resume lets a paused crawl go on (every robot, on a shared database).
func (s *Session) Resume() {
	e, ok := s.Engine.(*crawl.Engine)
	if !ok {
		s.command(robot.CommandRun)
		return
	}
	e.Resume()
	if e.Progress().State == crawl.StateRunning {
		s.queueState(db.StateRunning)
	}
}

// Stop asks the crawl to end: fetches in flight finish and are stored.
// It returns at once; Done tells when the crawl has ended. On a shared
// database it stops this window's robot alone; the Robots screen stops
// the others.
func (s *Session) Stop() { s.Engine.Stop() }

// Done is closed when the engine has returned and the final state is stored.
func (s *Session) Done() <-chan struct{} { return s.done }

// Wait waits for the end of the run and returns what went wrong, if anything.
func (s *Session) Wait() error {
	<-s.done
	return s.Err()
}

// Err returns what went wrong in the run, once Done is closed.
func (s *Session) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// HookErr returns why the crawl's hook command failed, once Done is
// closed; nil when it ran well or there is none. The hook runs when the
// crawl is done or failed, before Done is closed.
func (s *Session) HookErr() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hookErr
}

// Again begins the next re-crawl cycle of the session's crawl, every known
// page, with the settings the session ran with (passwords included): the
// on-completion action "loop". It returns the new session and the cycle.
func (s *Session) Again() (*Session, int, error) {
	ctx := context.Background()
	cycle, _, err := s.d.BeginRecrawl(ctx, s.ID, false, time.Now())
	if err != nil {
		return nil, 0, fmt.Errorf("begin a re-crawl of crawl %d: %w", s.ID, err)
	}
	info, err := s.d.CrawlInfo(ctx, s.ID)
	if err != nil {
		return nil, 0, fmt.Errorf("find crawl %d: %w", s.ID, err)
	}
	next, err := launch(s.d, info, s.Engine.Config())
	return next, cycle, err
}

// Final returns the engine's last progress, once Done is closed.
func (s *Session) Final() crawl.Progress {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.final
}
