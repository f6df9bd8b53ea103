package crawl

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/trawler/trawler/crawl/fetch"
	"github.com/trawler/trawler/crawl/frontier"
	"github.com/trawler/trawler/crawl/neardup"
	"github.com/trawler/trawler/crawl/seen"
	"github.com/trawler/trawler/crawl/urlnorm"
	"github.com/trawler/trawler/crawl/wordscan"
)

// Engine runs one crawl. Make it with New, start it with Run, and steer it
// with Pause, Resume and Stop from any goroutine; Progress may be called at
// any time.
type Engine struct {
	cfg   Config
	store Store
	owner string // names this run's leases in the store

	norm      urlnorm.Options
	scope     *scope
	traps     *trapGuard
	polite    *polite
	fetcher   *fetch.Fetcher
	seen      *seen.Set
	skipSeen  *seen.Set // URLs skipped for a link-bound reason (depth, nofollow), recorded once
	front     *frontier.Frontier[Item]
	near      *neardup.Index    // nil without near-duplicate detection
	scanner   *wordscan.Scanner // nil without word lists
	scoreWake chan struct{}     // the writer committed pages: the scorer has work
	nearFull  atomic.Bool       // the index has reached its window; logged once
	nearCfg   neardup.Config

	results      chan result
	digests      chan *fetched // fetched answers waiting for a digester
	flushReq     chan chan error
	batchWait    time.Duration // how long a batch grows while URLs wait: the const batchWait, or longer in a test
	meter        meter
	laneAt       time.Time // when distribute last asked the store for the priority lane
	pool         workerPool
	shared       bool         // see Shared
	claimStart   atomic.Int64 // shared: when the claim under way began (unix ns), 0 between claims
	emptyAt      time.Time    // shared: when a claim last came back empty
	countAt      time.Time    // shared: when the store was last asked whether anything is left
	priorityOnly bool         // see PriorityOnly
	log          eventLog
	logger       *slog.Logger

	// The four queues' counts. Waiting is the frontier, plus spilled URLs
	// (waiting in the store only), plus those in a worker's hand, plus parked
	// ones (taken from the frontier but not fetched because the crawl is
	// ending).
	spilled    atomic.Int64
	inHand     atomic.Int64 // taken from the frontier by a worker, not yet started
	parked     atomic.Int64
	processing atomic.Int64
	done       atomic.Int64
	errs       atomic.Int64
	skipped    atomic.Int64   // URLs recorded as skipped
	urgent     atomic.Int64   // URLs taken from the priority lane
	scored     atomic.Int64   // pages judged by the word lists
	black      atomic.Int64   // of them, black
	reserved   atomic.Int64   // fetches started or done, for the page cap
	background atomic.Int64   // sitemap readers still running
	bgDone     sync.WaitGroup // the same readers, to wait for at the end
	bgCtx      context.Context
	bgCancel   context.CancelFunc // ends background readers on Stop
	bytes      atomic.Int64
	spillEver  atomic.Bool

	mu       sync.Mutex
	state    RunState
	started  time.Time
	ended    time.Time
	byDepth  []int64
	byStatus [6]int64
	before   time.Duration // crawling time of the cycle's earlier runs
	peak     float64       // highest rate seen in this run

	fetchedBefore int64         // done and error when this run began: rates count this run's fetches
	paused        chan struct{} // open while paused
	stopping      chan struct{} // closed by Stop
	stopOnce      sync.Once
	fatal         error
}

// New checks cfg (filling in defaults) and prepares an engine that writes to
// store. Nothing is fetched before Run.
func New(cfg Config, store Store, opts ...Option) (*Engine, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	f, err := fetch.New(fetchConfig(&cfg))
	if err != nil {
		return nil, fmt.Errorf("set up fetching: %w", err)
	}
	pol, err := newPolite(&cfg)
	if err != nil {
		return nil, fmt.Errorf("set up fetching: %w", err)
	}
	e := &Engine{
		cfg:       cfg,
		store:     store,
		owner:     newOwner(),
		norm:      urlnorm.Options{MaxLength: cfg.MaxURLLength},
		fetcher:   f,
		polite:    pol,
		traps:     newTrapGuard(&cfg),
		seen:      seen.New(seen.Config{Expected: cfg.ExpectedURLs}),
		skipSeen:  seen.New(seen.Config{Expected: max(cfg.ExpectedURLs/16, 1024)}),
		results:   make(chan result, 4*cfg.Threads+64),
		digests:   make(chan *fetched, cfg.Threads),
		flushReq:  make(chan chan error),
		batchWait: batchWait,
		state:     StateIdle,
		stopping:  make(chan struct{}),
		scoreWake: make(chan struct{}, 1),
	}
	if len(cfg.WordLists) > 0 {
		if e.scanner, err = LoadWordLists(cfg.WordLists); err != nil {
			return nil, err
		}
	}
	if cfg.NearThreshold > 0 {
		e.nearCfg = neardup.DefaultConfig()
		e.nearCfg.Version = cfg.SketchVersion
		e.nearCfg.Threshold = cfg.NearThreshold
		e.nearCfg.Window = cfg.NearWindow
		e.near = neardup.NewIndex(e.nearCfg)
	}
	for _, o := range opts {
		o(e)
	}
	if e.logger == nil {
		e.logger = slog.New(discard{})
	}
	e.front = frontier.New[Item](frontier.Config{
		Order:   frontier.Order(cfg.Strategy),
		Mix:     cfg.Mix,
		Seed:    uint64(cfg.RandSeed),
		PerHost: cfg.PerHost,
		Batch:   batchSize(cfg.Strategy),
		Delay:   cfg.Delay,
	})
	seeds := make([]string, len(cfg.Seeds))
	for i, s := range cfg.Seeds {
		seeds[i], _ = e.norm.Normalize(strings.TrimSpace(s)) // Validate checked them
	}
	e.cfg.Seeds = seeds
	e.scope = newScope(&e.cfg, seeds)
	return e, nil
}

// batchSize is how many URLs a worker takes from a queue at once. Taking
// several saves locking in breadth-first order, where it changes nothing;
// depth-first picks must see the links of the page just fetched, so they
// take one at a time.
func batchSize(s Strategy) int {
	if s == BFS {
		return 4
	}
	return 1
}

func fetchConfig(c *Config) fetch.Config {
	auth := map[string]fetch.Credentials{}
	for _, a := range c.Auth {
		cred := fetch.Credentials{User: a.User, Password: a.Password}
		if strings.Contains(a.Host, ":") {
			auth[a.Host] = cred
			continue
		}
		auth[a.Host+":80"] = cred
		auth[a.Host+":443"] = cred
	}
	return fetch.Config{
		ConnectTimeout: c.ConnectTimeout,
		Timeout:        c.Timeout,
		MaxRedirects:   fetch.NoRedirects, // each hop is a row of its own (see Engine.redirect)
		UserAgent:      c.UserAgent,
		MaxSize:        c.MaxSize,
		Proxy:          c.Proxy,
		Auth:           auth,
		ContentTypes:   c.ContentTypes,
		// Every request a host may see at once keeps its connection.
		IdleConnsPerHost: max(c.PerHost, fetch.DefaultIdleConnsPerHost),
	}
}

func newOwner() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	host, _ := os.Hostname()
	return fmt.Sprintf("%s/%d/%s", host, os.Getpid(), hex.EncodeToString(b[:]))
}

// Config returns the settings the engine runs with, defaults filled in.
func (e *Engine) Config() Config { return e.cfg }

// Run crawls until nothing is waiting or in flight, the page cap is reached,
// Stop is called or ctx ends. It picks up where an earlier run of the same
// crawl left off: what the store holds as waiting is crawled, what is done
// is not fetched again. It returns nil when the crawl finished or was
// stopped, and an error when the store failed.
func (e *Engine) Run(ctx context.Context) error {
	e.mu.Lock()
	if e.state != StateIdle {
		e.mu.Unlock()
		return errors.New("crawl: Run called twice")
	}
	e.state = StateRunning
	e.started = time.Now()
	e.bgCtx, e.bgCancel = context.WithCancel(ctx)
	e.mu.Unlock()
	defer e.bgCancel()
	defer e.fetcher.Close()
	defer e.polite.aux.Close()
	e.logger.Info("crawl starting", "seeds", e.cfg.Seeds, "threads", e.cfg.Threads, "per_host", e.cfg.PerHost,
		"depth", e.cfg.Depth, "strategy", e.cfg.Strategy, "robots", e.cfg.Robots, "delay", e.cfg.Delay)

	if err := e.restore(ctx); err != nil {
		e.finish(StateFailed, err)
		return err
	}
	writerDone := make(chan struct{})
	wctx := context.WithoutCancel(ctx)
	go e.writer(wctx, writerDone)
	var scoring sync.WaitGroup
	if vs, ok := e.store.(VerdictStore); ok && e.scanner != nil {
		scoring.Go(func() { e.scorer(e.bgCtx, vs, writerDone) })
	}

	workersDone, digestersDone := make(chan struct{}), make(chan struct{})
	go e.digesters(workersDone, digestersDone)
	e.startWorkers(ctx)
	e.distribute(ctx)
	e.front.Close()
	e.pool.wg.Wait()
	close(workersDone)
	<-digestersDone
	e.bgDone.Wait() // workers started every sitemap reader; none starts now
	close(e.results)
	<-writerDone
	scoring.Wait()

	err := e.fatalErr()
	if e.priorityOnly {
		// The lane's runs are not the crawl's: their time is not the cycle's.
	} else if terr := e.store.AddRunTime(wctx, time.Since(e.started)); terr != nil && err == nil {
		err = fmt.Errorf("store the run's time: %w", terr)
	}
	if err == nil {
		if rerr := e.store.Release(wctx, e.owner); rerr != nil {
			err = fmt.Errorf("hand back unfinished URLs: %w", rerr)
		}
	}
	if err == nil && ctx.Err() == nil && !e.isStopping() && !e.priorityOnly {
		err = e.finishCycle(wctx)
	}
	switch {
	case err != nil:
		e.finish(StateFailed, err)
		e.logger.Error("crawl failed", "err", err)
	case ctx.Err() != nil || e.isStopping():
		e.finish(StateStopped, nil)
		e.logger.Info("crawl stopped", "done", e.done.Load(), "errors", e.errs.Load())
	default:
		e.finish(StateDone, nil)
		e.logger.Info("crawl done", "done", e.done.Load(), "errors", e.errs.Load())
	}
	return err
}

// admit puts new URLs into the frontier while it has room and counts the
// rest as spilled: they wait in the store until the frontier drains. It
// returns which ones the frontier holds.
func (e *Engine) admit(items []Item) []bool {
	held := make([]bool, len(items))
	if e.shared {
		return held // every new URL waits in the store for whichever robot claims it
	}
	room := e.cfg.MemoryURLs - e.front.Len()
	var entries []frontier.Entry[Item]
	for i, it := range items {
		if i < room {
			held[i] = true
			entries = append(entries, frontier.Entry[Item]{Value: it, FP: it.FP, Depth: it.Depth})
			continue
		}
		e.spilled.Add(1)
		e.spillEver.Store(true)
	}
	e.front.Push(entries, itemHost)
	return held
}

func itemHost(it Item) string {
	_, h := splitHost(it.URL)
	return h
}

// distribute is paper 000's URL distributor: it refills the frontier from
// the store when it runs low and ends the run when there is nothing left.
func (e *Engine) distribute(ctx context.Context) {
	low := e.cfg.MemoryURLs / 2
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		if e.isStopping() || ctx.Err() != nil || e.fatalErr() != nil {
			return
		}
		if e.capReached() && e.front.Leased() == 0 {
			return
		}
		if e.shared {
			if done, err := e.sharedStep(ctx); err != nil || done {
				if err != nil {
					e.fail(err)
				}
				return
			}
		} else if e.spilled.Load() > 0 && e.front.Len() < low {
			if err := e.refill(ctx, e.cfg.MemoryURLs-e.front.Len()); err != nil {
				e.fail(err)
				return
			}
			continue
		}
		if err := e.pollLane(ctx); err != nil {
			e.fail(err)
			return
		}
		if e.spilled.Load() == 0 && e.front.Idle() && e.background.Load() == 0 && !e.priorityOnly && !e.shared {
			return
		}
		select {
		case <-e.front.Changed():
		case <-tick.C:
		case <-e.stopping:
		case <-ctx.Done():
		}
	}
}
