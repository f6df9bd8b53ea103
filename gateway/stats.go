package gateway

import (
	"context"
	"log/slog"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/trawler/trawler/urlfilter"
)

// Decision is one request as the gateway handled it, for the window's
// Gateway screen (Recent) and the log.
type Decision struct {
	At     time.Time
	Client netip.Addr
	Method string
	// Target is the URL of a plain http request, or host:port for CONNECT.
	Target string
	// Action is what the gateway did. A malformed request or a refused
	// client is a Block with Err set.
	Action Action
	// Entry is the list entry that matched; Entry.List is None for a URL
	// on neither list.
	Entry urlfilter.Entry
	// Rule names the policy rule that decided, if one did.
	Rule string
	// Status is the status code sent to the client (200 for an
	// established tunnel).
	Status int
	// Err says what went wrong: a malformed request, an unreachable
	// origin. Empty on success.
	Err string
	// Duration is the time from receiving the request until the response
	// was written (for CONNECT, until the tunnel was established).
	Duration time.Duration
}

// Stats are the gateway's counters since it was made.
type Stats struct {
	Since time.Time
	// Allowed and Blocked count decisions: each request that reached the
	// lists counts in exactly one of them.
	Allowed, Blocked uint64
	// Unknown counts decisions on URLs on neither list; each also counts
	// in Allowed or Blocked.
	Unknown uint64
	// Errors counts malformed requests and failed forwards (an origin that
	// cannot be reached, a tunnel that cannot be dialled). A failed
	// forward was first Allowed.
	Errors uint64
	// ClientsRefused counts requests from addresses outside loopback and
	// AllowFrom; ConnsRefused counts connections turned away at MaxConns.
	ClientsRefused, ConnsRefused uint64
	// TunnelsOpen is the number of CONNECT tunnels open now; Tunnels is
	// how many were ever established.
	TunnelsOpen int64
	Tunnels     uint64
	// Enqueued counts URLs handed to Backend.Enqueue; EnqueueDropped those
	// dropped because the queue was full, the backend failed, or the
	// gateway stopped first.
	Enqueued, EnqueueDropped uint64
	// Reports counts "this is a mistake" reports recorded.
	Reports uint64
	// LookupsPerSec is the recent rate of list lookups, averaged over the
	// last few complete seconds.
	LookupsPerSec float64
}

// counters are the atomics behind Stats.
type counters struct {
	allowed, blocked, unknown, errors atomic.Uint64
	clientsRefused, connsRefused      atomic.Uint64
	tunnelsOpen                       atomic.Int64
	tunnels                           atomic.Uint64
	enqueued, enqueueDropped, reports atomic.Uint64
	lookups                           rate
}

// rateWindow is how many complete seconds LookupsPerSec averages.
const rateWindow = 5

// rate counts events per second in a ring of buckets. Each bucket packs
// its second (low 32 bits of the Unix time) above its count, so one
// compare-and-swap both starts a new second and counts: no lock.
type rate struct {
	buckets [rateWindow + 1]atomic.Uint64
}

func (r *rate) add(now time.Time) {
	sec := uint64(uint32(now.Unix()))
	b := &r.buckets[sec%uint64(len(r.buckets))]
	for {
		old := b.Load()
		next := sec<<32 | 1
		if old>>32 == sec {
			next = old + 1
		}
		if b.CompareAndSwap(old, next) {
			return
		}
	}
}

// perSec averages the complete seconds before now, over at most
// rateWindow seconds and no more than the gateway has been up.
func (r *rate) perSec(now, since time.Time) float64 {
	cur := uint64(uint32(now.Unix()))
	n := uint64(rateWindow)
	if up := now.Unix() - since.Unix(); up < rateWindow {
		n = uint64(max(up, 1))
	}
	var sum uint64
	for i := uint64(1); i <= n; i++ {
		sec := (cur - i) & 0xffffffff
		v := r.buckets[sec%uint64(len(r.buckets))].Load()
		if v>>32 == sec {
			sum += v & 0xffffffff
		}
	}
	return float64(sum) / float64(n)
}

// ring keeps the latest decisions.
type ring struct {
	mu   sync.Mutex
	buf  []Decision
	next int
	full bool
}

func newRing(n int) *ring { return &ring{buf: make([]Decision, n)} }

func (r *ring) add(d Decision) {
	r.mu.Lock()
	r.buf[r.next] = d
	r.next++
	if r.next == len(r.buf) {
		r.next, r.full = 0, true
	}
	r.mu.Unlock()
}

// latest returns up to n decisions, newest first.
func (r *ring) latest(n int) []Decision {
	r.mu.Lock()
	defer r.mu.Unlock()
	have := r.next
	if r.full {
		have = len(r.buf)
	}
	n = min(max(n, 0), have)
	out := make([]Decision, n)
	for i := range out {
		out[i] = r.buf[(r.next-1-i+len(r.buf))%len(r.buf)]
	}
	return out
}

// Stats returns the counters; safe to call at any time from any goroutine.
func (g *Gateway) Stats() Stats {
	c := &g.count
	return Stats{
		Since:          g.since,
		Allowed:        c.allowed.Load(),
		Blocked:        c.blocked.Load(),
		Unknown:        c.unknown.Load(),
		Errors:         c.errors.Load(),
		ClientsRefused: c.clientsRefused.Load(),
		ConnsRefused:   c.connsRefused.Load(),
		TunnelsOpen:    c.tunnelsOpen.Load(),
		Tunnels:        c.tunnels.Load(),
		Enqueued:       c.enqueued.Load(),
		EnqueueDropped: c.enqueueDropped.Load(),
		Reports:        c.reports.Load(),
		LookupsPerSec:  c.lookups.perSec(g.cfg.Now(), g.since),
	}
}

// Recent returns up to n of the latest decisions, newest first, for the
// window's Gateway screen. It keeps Config.RecentSize of them.
func (g *Gateway) Recent(n int) []Decision { return g.recent.latest(n) }

// record keeps and logs a finished decision.
func (g *Gateway) record(ctx context.Context, d Decision) {
	g.recent.add(d)
	log := g.cfg.Logger
	if !log.Enabled(ctx, slog.LevelInfo) {
		return
	}
	attrs := []slog.Attr{
		slog.String("client", d.Client.String()),
		slog.String("method", d.Method),
		slog.String("url", d.Target),
		slog.String("decision", d.Action.String()),
		slog.String("list", d.Entry.List.String()),
		slog.Int("status", d.Status),
		slog.Duration("duration", d.Duration),
	}
	if d.Entry.List != urlfilter.None {
		attrs = append(attrs, slog.String("entry", d.Entry.Kind.String()+" "+d.Entry.Value),
			slog.String("category", d.Entry.Category))
	}
	if d.Rule != "" {
		attrs = append(attrs, slog.String("rule", d.Rule))
	}
	if d.Err != "" {
		attrs = append(attrs, slog.String("err", d.Err))
	}
	log.LogAttrs(ctx, slog.LevelInfo, "gateway decision", attrs...)
}
