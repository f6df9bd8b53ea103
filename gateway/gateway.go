package gateway

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/trawler/trawler/urlfilter"
)

// shutdownGrace is how long Serve lets plain requests in flight finish
// once its context ends; tunnels are closed at once.
const shutdownGrace = 5 * time.Second

// Gateway is the filtering proxy. Make one with New; it is an
// http.Handler, and Serve or ListenAndServe run it on a listener.
type Gateway struct {
	cfg     Config
	backend Backend

	lists   atomic.Pointer[listsBox]
	policy  atomic.Pointer[Policy]
	unknown atomic.Uint32

	count  counters
	recent *ring
	queue  *queue
	since  time.Time

	via           string // this gateway's Via pseudonym, also its loop marker
	key           []byte // signs report forms
	local, remote *upstream

	addr    atomic.Pointer[net.Addr]
	self    atomic.Pointer[selfAddrs]
	serving atomic.Bool

	tunnelMu     sync.Mutex
	tunnelClosed bool
	tunnels      sync.WaitGroup
	tunnelCtx    context.Context
	stopTunnels  context.CancelFunc

	// dialCheck, when set (tests), vets every upstream address.
	dialCheck func(address string) error
}

type listsBox struct{ l Lists }

// New checks cfg and makes a gateway deciding by lists and reporting to b.
// It refuses a non-loopback Listen without AllowFrom. It does not listen
// yet: see Serve and ListenAndServe.
func New(cfg Config, lists Lists, b Backend) (*Gateway, error) {
	cfg.AllowFrom = append([]netip.Prefix(nil), cfg.AllowFrom...)
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, fmt.Errorf("gateway: config: %w", err)
	}
	if err := checkListen(cfg.Listen, cfg.AllowFrom); err != nil {
		return nil, fmt.Errorf("gateway: %w", err)
	}
	if b == nil {
		return nil, errors.New("gateway: no Backend")
	}
	var id [4]byte
	key := make([]byte, 32)
	rand.Read(id[:])
	rand.Read(key)
	g := &Gateway{
		cfg:     cfg,
		backend: b,
		recent:  newRing(cfg.RecentSize),
		queue:   newQueue(cfg.QueueSize),
		since:   cfg.Now(),
		via:     "trawler-" + hex.EncodeToString(id[:]),
		key:     key,
	}
	g.tunnelCtx, g.stopTunnels = context.WithCancel(context.Background())
	g.SetLists(lists)
	g.SetUnknown(cfg.Unknown)
	g.SetPolicy(cfg.Policy)
	g.local, g.remote = g.newUpstream(true), g.newUpstream(false)
	return g, nil
}

// SetLists swaps the lists used for every later decision.
func (g *Gateway) SetLists(l Lists) {
	if l == nil {
		l = noLists{}
	}
	g.lists.Store(&listsBox{l})
}

// SetPolicy swaps the policy (nil for none). If p sets Unknown, that
// becomes the default for unknown URLs, as SetUnknown would make it. The
// gateway keeps a copy of p.
func (g *Gateway) SetPolicy(p *Policy) {
	c := p.clone()
	if c != nil && c.Unknown != nil {
		g.SetUnknown(*c.Unknown)
		c.Unknown = nil
	}
	g.policy.Store(c)
}

// SetUnknown sets the default for URLs on neither list, when no policy
// rule decides them.
func (g *Gateway) SetUnknown(a Action) {
	if a != Block {
		a = Allow
	}
	g.unknown.Store(uint32(a))
}

// Addr is the address the gateway listens on, or nil before Serve.
func (g *Gateway) Addr() net.Addr {
	if a := g.addr.Load(); a != nil {
		return *a
	}
	return nil
}

// ListenAndServe listens on Config.Listen and serves until ctx ends.
func (g *Gateway) ListenAndServe(ctx context.Context) error {
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", g.cfg.Listen)
	if err != nil {
		return fmt.Errorf("gateway: listening on %s: %w", g.cfg.Listen, err)
	}
	return g.Serve(ctx, ln)
}

// Serve answers proxy requests on ln until ctx ends, then shuts down:
// tunnels are closed at once, plain requests get a few seconds to finish,
// and URLs still waiting for Backend.Enqueue are dropped and counted. It
// returns nil after such a shutdown. Serve takes ln over (closing it when
// done) and runs once per Gateway. A listener whose address is an IP
// address but not loopback needs Config.AllowFrom, as Listen does.
func (g *Gateway) Serve(ctx context.Context, ln net.Listener) error {
	if !g.serving.CompareAndSwap(false, true) {
		ln.Close()
		return errors.New("gateway: Serve called twice")
	}
	if err := g.checkListener(ln); err != nil {
		ln.Close()
		return err
	}
	addr := ln.Addr()
	g.addr.Store(&addr)
	g.self.Store(newSelfAddrs(addr))

	srv := g.newServer(ctx)
	qctx, stopQueue := context.WithCancel(context.WithoutCancel(ctx))
	var workers sync.WaitGroup
	workers.Go(func() { g.runQueue(qctx) })

	shutdown := make(chan struct{})
	stopWatch := context.AfterFunc(ctx, func() {
		defer close(shutdown)
		g.closeTunnels()
		sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
		defer cancel()
		if err := srv.Shutdown(sctx); err != nil {
			srv.Close()
		}
	})
	lim := newLimitListener(ln, g.cfg.MaxConns, func() { g.count.connsRefused.Add(1) })
	err := srv.Serve(lim)
	if errors.Is(err, http.ErrServerClosed) {
		<-shutdown
		err = nil
	} else {
		if stopWatch() {
			srv.Close()
		} else {
			<-shutdown
		}
		err = fmt.Errorf("gateway: serving on %s: %w", addr, err)
	}
	g.closeTunnels()
	g.tunnels.Wait()
	g.local.transport.CloseIdleConnections()
	g.remote.transport.CloseIdleConnections()
	stopQueue()
	workers.Wait()
	return err
}

// newServer is the net/http server under Serve. Requests do not inherit
// ctx's cancellation, so shutdown can let them finish.
func (g *Gateway) newServer(ctx context.Context) *http.Server {
	return &http.Server{
		Handler:                      g,
		ReadHeaderTimeout:            g.cfg.ReadHeaderTimeout,
		IdleTimeout:                  g.cfg.IdleTimeout,
		MaxHeaderBytes:               g.cfg.MaxHeaderBytes,
		ErrorLog:                     slog.NewLogLogger(g.cfg.Logger.Handler(), slog.LevelWarn),
		BaseContext:                  func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
		DisableGeneralOptionsHandler: true, // OPTIONS * is not for a proxy to answer
	}
}

// checkListener applies Listen's rule to a listener handed to Serve.
func (g *Gateway) checkListener(ln net.Listener) error {
	ap, err := netip.ParseAddrPort(ln.Addr().String())
	if err != nil || len(g.cfg.AllowFrom) > 0 || ap.Addr().Unmap().IsLoopback() {
		return nil
	}
	return fmt.Errorf("gateway: listener on %s: %w", ln.Addr(), errOpenProxy)
}

// tunnelStart registers a tunnel unless the gateway is shutting down.
func (g *Gateway) tunnelStart() bool {
	g.tunnelMu.Lock()
	defer g.tunnelMu.Unlock()
	if g.tunnelClosed {
		return false
	}
	g.tunnels.Add(1)
	return true
}

func (g *Gateway) closeTunnels() {
	g.tunnelMu.Lock()
	g.tunnelClosed = true
	g.tunnelMu.Unlock()
	g.stopTunnels()
}

// ServeHTTP handles one request: refuses clients outside loopback and
// AllowFrom, then serves the report form, a CONNECT, or a plain proxy
// request, in that order.
func (g *Gateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	client := clientAddr(r.RemoteAddr)
	if !g.clientAllowed(client) {
		g.count.clientsRefused.Add(1)
		plain(w, http.StatusForbidden, fmt.Sprintf("gateway: clients at %s may not use this proxy", client))
		g.record(r.Context(), Decision{At: g.cfg.Now(), Client: client, Method: r.Method, Target: r.RequestURI,
			Action: Block, Status: http.StatusForbidden, Err: "client not allowed", Duration: time.Since(start)})
		return
	}
	switch {
	case r.Method == http.MethodConnect:
		g.serveConnect(w, r, client, start)
	case !r.URL.IsAbs() && r.URL.Path == reportPath:
		g.serveReport(w, r, client)
	case !r.URL.IsAbs():
		g.bad(w, r, client, start, "not a proxy request: the target must be an absolute URL (set this address as the HTTP proxy)")
	case g.isInternal(r.URL):
		g.serveInternal(w, r, client)
	default:
		g.serveProxy(w, r, client, start)
	}
}

// bad answers a malformed request with 400 and a one-line reason.
func (g *Gateway) bad(w http.ResponseWriter, r *http.Request, client netip.Addr, start time.Time, reason string) {
	g.count.errors.Add(1)
	plain(w, http.StatusBadRequest, "gateway: "+reason)
	g.record(r.Context(), Decision{At: g.cfg.Now(), Client: client, Method: r.Method, Target: r.RequestURI,
		Action: Block, Status: http.StatusBadRequest, Err: reason, Duration: time.Since(start)})
}

// clientAddr reads the client's address from RemoteAddr ("ip:port"),
// without the zone an IPv6 link-local address carries (a zoned address
// never matches a prefix).
func clientAddr(remote string) netip.Addr {
	ap, err := netip.ParseAddrPort(remote)
	if err != nil {
		return netip.Addr{}
	}
	return ap.Addr().Unmap().WithZone("")
}

func (g *Gateway) clientAllowed(a netip.Addr) bool {
	if !a.IsValid() {
		return false
	}
	if a.IsLoopback() {
		return true
	}
	for _, p := range g.cfg.AllowFrom {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// lookup asks the current lists about a URL (host set: about a host) and
// the policy what to do with the answer.
func (g *Gateway) lookup(client netip.Addr, target string, host bool) (urlfilter.Match, Action, string) {
	now := g.cfg.Now()
	g.count.lookups.add(now)
	l := g.lists.Load().l
	var m urlfilter.Match
	if host {
		m = l.LookupHost(target)
	} else {
		m = l.Lookup(target)
	}
	a, rule := g.policy.Load().Decide(client, now, m, Action(g.unknown.Load()))
	return m, a, rule
}

// tally counts a decision in Stats.
func (g *Gateway) tally(m urlfilter.Match, a Action) {
	if m.List == urlfilter.None {
		g.count.unknown.Add(1)
	}
	if a == Block {
		g.count.blocked.Add(1)
	} else {
		g.count.allowed.Add(1)
	}
}
