package feed

import (
	"context"
	"fmt"
	"log/slog"
	"net/netip"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/trawler/trawler/db"
	"github.com/trawler/trawler/gateway"
)

// Options are what a person sets to run a gateway over a database: the
// command line's flags and the window's Gateway screen.
type Options struct {
	Gateway      gateway.Config // Listen, Unknown, AllowFrom, Policy…; Logger is set from Log; its Now is the feed's clock too
	Crawl        int64          // crawl whose verdicts decide and which takes unknown URLs; 0 for the entries alone
	MaxAge       time.Duration  // see Config.MaxAge
	Poll         time.Duration  // see Config.Poll
	CrawlUnknown bool           // run the gateway's own crawler (NewCrawler)
	Log          *slog.Logger   // decisions, reloads and the crawler's log; nil discards
}

// Server is a running gateway with its feed and, if asked, its crawler.
type Server struct {
	gw     *gateway.Gateway
	feed   *Feed
	cancel context.CancelFunc
	wg     sync.WaitGroup
	served chan error
}

// Start loads the lists, starts the gateway listening, the feed following
// the database and the crawler, and returns once the gateway listens. Bad
// settings (a non-loopback address without AllowFrom, an address in use,
// a crawl that does not exist) are errors and nothing is left running.
func Start(ctx context.Context, d *db.DB, o Options) (*Server, error) {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	o.Gateway.Logger = o.Log
	ctx, cancel := context.WithCancel(ctx)
	s := &Server{cancel: cancel, served: make(chan error, 1)}
	s.feed = New(Config{Crawl: o.Crawl, MaxAge: o.MaxAge, Poll: o.Poll, Logger: o.Log, Now: o.Gateway.Now}, d)
	if err := s.feed.Load(ctx); err != nil {
		cancel()
		return nil, err
	}
	gw, err := gateway.New(o.Gateway, s.feed.Filter(), s.feed)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("%s", strings.ReplaceAll(err.Error(), "AllowFrom", "allow-from"))
	}
	s.gw = gw
	if o.CrawlUnknown {
		if o.Crawl == 0 {
			cancel()
			return nil, fmt.Errorf("the gateway's crawler needs a crawl to add unknown URLs to")
		}
		e, err := NewCrawler(ctx, d, o.Crawl, o.Log.With("crawl", o.Crawl, "lane", true))
		if err != nil {
			cancel()
			return nil, err
		}
		s.wg.Go(func() {
			if err := e.Run(ctx); err != nil {
				o.Log.Error("the gateway's crawler failed", "err", err)
			}
		})
	}
	s.wg.Go(func() { s.feed.Run(ctx) })
	go func() { s.served <- gw.ListenAndServe(ctx) }()
	for gw.Addr() == nil {
		select {
		case err := <-s.served:
			s.cancel()
			s.wg.Wait()
			return nil, err
		case <-time.After(5 * time.Millisecond):
		}
	}
	return s, nil
}

// Gateway returns the running gateway (Stats, Recent, SetPolicy…).
func (s *Server) Gateway() *gateway.Gateway { return s.gw }

// Feed returns the feed that keeps the gateway's lists.
func (s *Server) Feed() *Feed { return s.feed }

// Wait returns when the gateway stopped serving (Stop, or its context
// ended), with the error it stopped on, if any.
func (s *Server) Wait() error {
	err := <-s.served
	s.served <- err // later calls see it too
	s.cancel()
	s.wg.Wait()
	return err
}

// Stop stops the gateway, its feed and its crawler, and waits for them.
func (s *Server) Stop() error {
	s.cancel()
	return s.Wait()
}

// ParseAllowFrom reads networks like "192.168.1.0/24" or single
// addresses, as --allow-from and the window take them.
func ParseAllowFrom(list []string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, a := range list {
		a = strings.TrimSpace(a)
		if a == "" {
			continue
		}
		p, err := netip.ParsePrefix(a)
		if err != nil {
			addr, aerr := netip.ParseAddr(a)
			if aerr != nil {
				return nil, fmt.Errorf("%q is not a network like 192.168.1.0/24 or an address", a)
			}
			p = netip.PrefixFrom(addr, addr.BitLen())
		}
		out = append(out, p.Masked())
	}
	return out, nil
}

// ReadPolicy reads a policy file (see gateway.ParsePolicy).
func ReadPolicy(path string) (*gateway.Policy, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read the policy %s: %w", path, err)
	}
	defer f.Close()
	return gateway.ParsePolicy(path, f)
}
