// Package feed keeps a gateway's URL filter in step with a Trawler
// database, and is the gateway's Backend there: the faces (the command
// line's `trawler gateway` and the window's Gateway screen) wire a
// gateway.Gateway, a urlfilter.Filter and a db.DB together through it.
//
// The lists a gateway decides by are the entries people added (db
// filter_entries) and the verdicts of one crawl (paper 002: the
// sensitive-word filter puts each crawled URL on the black or the white
// list). A verdict counts for MaxAge after its page was crawled; an older
// one is left out, so the URL is unknown again and goes back through the
// crawl's priority lane, which renews it.
//
// Feed.Run follows the database: every Poll it adds the verdicts given
// since (a URL pushed to the lane is decided by its verdict seconds
// after it was crawled), drops those that aged out, and reloads the whole
// lists in the background when an entry was edited, by this process or
// another. A reload builds the new lists beside the old ones, which keep
// answering until they are swapped.
package feed

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/trawler/trawler/db"
	"github.com/trawler/trawler/urlfilter"
)

// Defaults of Config.
const (
	DefaultMaxAge = 30 * 24 * time.Hour
	DefaultPoll   = 500 * time.Millisecond
	// overlap is how far back each look for new verdicts reaches, so that
	// a verdict saved by a slower transaction than the latest one seen is
	// not missed; entries met twice are added twice, which changes nothing.
	overlap = 2 * time.Second
)

// Config says which crawl's verdicts count and for how long.
type Config struct {
	Crawl  int64            // the crawl whose verdicts are lists; 0 for the entries alone
	MaxAge time.Duration    // a verdict counts this long after its page was crawled; default 30 days
	Poll   time.Duration    // how often Run looks at the database; default 0.5 s
	Logger *slog.Logger     // nil: no logging
	Now    func() time.Time // the clock verdicts age by; default time.Now
}

// Feed fills a urlfilter.Filter from a database and keeps it current.
type Feed struct {
	cfg    Config
	d      *db.DB
	filter *urlfilter.Filter

	mu      sync.Mutex // serialises loads and updates of the filter
	version int64      // the lists' version the filter was loaded at
	scored  time.Time  // the latest verdict seen
	cutoff  time.Time  // verdicts of pages crawled before this are out
	manual  map[string]bool
	reloads atomic.Int64
	loading atomic.Bool

	pushed sync.Map     // URL → time it was last pushed to the lane
	pushes atomic.Int64 // pushes so far, to prune pushed now and then
}

// New returns a Feed over d; Load fills its filter.
func New(cfg Config, d *db.DB) *Feed {
	if cfg.MaxAge <= 0 {
		cfg.MaxAge = DefaultMaxAge
	}
	if cfg.Poll <= 0 {
		cfg.Poll = DefaultPoll
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Feed{cfg: cfg, d: d, filter: urlfilter.New()}
}

// Filter returns the filter the feed keeps current.
func (f *Feed) Filter() *urlfilter.Filter { return f.filter }

// Reloads returns how many whole loads the feed has made.
func (f *Feed) Reloads() int64 { return f.reloads.Load() }

// Load reads the whole lists from the database and swaps them in.
func (f *Feed) Load(ctx context.Context) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.load(ctx)
}

func (f *Feed) load(ctx context.Context) error {
	start := f.cfg.Now()
	version, err := f.d.ListsVersion(ctx)
	if err != nil {
		return err
	}
	b := urlfilter.NewBuilder(0)
	manual := map[string]bool{}
	err = f.d.ListEntries(ctx, urlfilter.None, func(e db.ListEntry) error {
		if e.Kind == urlfilter.KindURL {
			manual[e.Value] = true
		}
		return b.Add(e.Entry)
	})
	if err != nil {
		return fmt.Errorf("read the lists: %w", err)
	}
	cutoff := start.Add(-f.cfg.MaxAge)
	var scored time.Time
	if f.cfg.Crawl != 0 {
		err = f.d.VerdictEntries(ctx, f.cfg.Crawl, cutoff, func(e db.VerdictEntry) error {
			if e.ScoredAt.After(scored) {
				scored = e.ScoredAt
			}
			if manual[e.Value] {
				return nil // what a person said of the URL outweighs the verdict
			}
			return b.Add(e.Entry)
		})
		if err != nil {
			return fmt.Errorf("read the verdicts of crawl %d: %w", f.cfg.Crawl, err)
		}
	}
	if err := f.filter.LoadBuilder(b); err != nil {
		return err
	}
	f.version, f.cutoff, f.manual = version, cutoff, manual
	if scored.After(f.scored) {
		f.scored = scored
	}
	f.reloads.Add(1)
	f.cfg.Logger.Info("URL filter lists loaded", "entries", b.Len(), "crawl", f.cfg.Crawl,
		"took", f.cfg.Now().Sub(start).Round(time.Millisecond))
	return nil
}

// Run follows the database until ctx ends (see the package comment).
func (f *Feed) Run(ctx context.Context) error {
	t := time.NewTicker(f.cfg.Poll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		if err := f.Step(ctx); err != nil && !errors.Is(err, context.Canceled) {
			f.cfg.Logger.Error("URL filter: reading the database failed; the lists stay as they were", "err", err)
		}
	}
}

// Step brings the filter up to date once: a whole reload (in the
// background) when the entries changed, else the new and the aged
// verdicts.
func (f *Feed) Step(ctx context.Context) error {
	v, err := f.d.ListsVersion(ctx)
	if err != nil {
		return err
	}
	f.mu.Lock()
	stale := v != f.version
	f.mu.Unlock()
	if stale {
		if f.loading.CompareAndSwap(false, true) {
			go func() {
				defer f.loading.Store(false)
				if err := f.Load(ctx); err != nil && ctx.Err() == nil {
					f.cfg.Logger.Error("URL filter: reloading the lists failed", "err", err)
				}
			}()
		}
		return nil
	}
	if f.cfg.Crawl == 0 {
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.addScored(ctx); err != nil {
		return err
	}
	return f.dropAged(ctx)
}

// addScored adds the verdicts given since the latest one seen; each
// replaces the URL's entry on the other list.
func (f *Feed) addScored(ctx context.Context) error {
	var add, remove []urlfilter.Entry
	latest := f.scored
	err := f.d.VerdictsScoredAfter(ctx, f.cfg.Crawl, f.scored.Add(-overlap), func(e db.VerdictEntry) error {
		if e.ScoredAt.After(latest) {
			latest = e.ScoredAt
		}
		if f.manual[e.Value] || e.FetchedAt.Before(f.cutoff) {
			return nil
		}
		add = append(add, e.Entry)
		other := e.Entry
		other.List = urlfilter.Black + urlfilter.White - e.List
		remove = append(remove, other)
		return nil
	})
	if err != nil || len(add) == 0 {
		return err
	}
	f.scored = latest
	return f.filter.Update(add, remove)
}

// dropAged removes the verdicts whose pages were crawled longer than
// MaxAge ago, since the last look.
func (f *Feed) dropAged(ctx context.Context) error {
	cutoff := f.cfg.Now().Add(-f.cfg.MaxAge)
	if !cutoff.After(f.cutoff) {
		return nil
	}
	var remove []urlfilter.Entry
	err := f.d.VerdictsCrawledBetween(ctx, f.cfg.Crawl, f.cutoff, cutoff, func(e db.VerdictEntry) error {
		if !f.manual[e.Value] {
			remove = append(remove, e.Entry)
		}
		return nil
	})
	if err != nil {
		return err
	}
	f.cutoff = cutoff
	if len(remove) == 0 {
		return nil
	}
	return f.filter.Update(nil, remove)
}
