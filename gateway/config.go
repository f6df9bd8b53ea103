package gateway

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"strings"
	"time"
)

// Action is what the gateway does with a request: let it through or refuse
// it. The zero value is Allow, so a zero Config gives paper 002's
// first-time-allow for URLs on neither list.
type Action uint8

// The actions.
const (
	Allow Action = iota
	Block
)

// String returns "allow" or "block", as a policy file writes them.
func (a Action) String() string {
	if a == Block {
		return "block"
	}
	return "allow"
}

// MarshalText writes the action as "allow" or "block".
func (a Action) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// UnmarshalText reads "allow" or "block" (any case), so a policy file and
// a settings form share one spelling.
func (a *Action) UnmarshalText(b []byte) error {
	switch strings.ToLower(strings.TrimSpace(string(b))) {
	case "allow":
		*a = Allow
	case "block":
		*a = Block
	default:
		return fmt.Errorf("action %q: want \"allow\" or \"block\"", b)
	}
	return nil
}

// Config sets up a Gateway. Zero fields take the documented defaults, so
// Config{} is a proxy on 127.0.0.1:3128 for this machine only.
type Config struct {
	// Listen is the address ListenAndServe listens on (default
	// "127.0.0.1:3128"). Any address that is not loopback needs AllowFrom.
	Listen string
	// AllowFrom lists the client networks served besides loopback, which is
	// always served. Required (non-empty) when Listen, or the listener given
	// to Serve, is not a loopback address: an open proxy is a hole anyone on
	// the network can use to hide behind this machine.
	AllowFrom []netip.Prefix
	// Unknown is the default for URLs on neither list: Allow (paper 002's
	// first-time-allow) or Block (for strict networks). Either way the URL
	// is handed to Backend.Enqueue so the crawler decides it soon.
	Unknown Action
	// Policy holds per-client and time-of-day rules; nil means none.
	Policy *Policy

	// ReadHeaderTimeout bounds reading a request's headers (default 10s).
	ReadHeaderTimeout time.Duration
	// IdleTimeout closes a client connection idle between requests, a
	// tunnel with no traffic either way, an upstream connection with no
	// traffic, and a client that stops reading a response (default 2m).
	IdleTimeout time.Duration
	// RequestTimeout bounds the wait for an origin's response headers once
	// the request is sent (default 60s). The body may then take as long as
	// it keeps moving: IdleTimeout applies to it, not RequestTimeout, so
	// large downloads are not cut.
	RequestTimeout time.Duration
	// DialTimeout bounds connecting to an origin or a CONNECT target, TLS
	// handshake included (default 10s).
	DialTimeout time.Duration
	// MaxConns caps concurrent client connections, tunnels included
	// (default 512). A connection beyond it is accepted only to be answered
	// "503 Service Unavailable" and closed, so a browser shows why instead
	// of hanging in the kernel's backlog.
	MaxConns int
	// MaxHeaderBytes caps a request's header size (default 64 KiB; net/http
	// allows 4 KiB slack on top). Larger headers get net/http's "431
	// Request Header Fields Too Large".
	MaxHeaderBytes int
	// QueueSize is how many unknown URLs may wait for Backend.Enqueue
	// (default 1024). Beyond it new ones are dropped and counted, never
	// making a request wait.
	QueueSize int
	// RecentSize is how many decisions Recent keeps (default 256).
	RecentSize int

	// Logger receives one record per decision (client, method, url or host,
	// decision, list, entry, category, rule, status, duration) at Info, and
	// the server's own complaints at Warn. Nil discards them.
	Logger *slog.Logger
	// Now is the clock for time-of-day rules, stats and records (default
	// time.Now). Rules read its wall clock in its own location, so the
	// default means the machine's local time zone.
	Now func() time.Time
}

// Defaults applied by New to zero fields.
const (
	DefaultListen            = "127.0.0.1:3128"
	DefaultReadHeaderTimeout = 10 * time.Second
	DefaultIdleTimeout       = 2 * time.Minute
	DefaultRequestTimeout    = 60 * time.Second
	DefaultDialTimeout       = 10 * time.Second
	DefaultMaxConns          = 512
	DefaultMaxHeaderBytes    = 64 << 10
	DefaultQueueSize         = 1024
	DefaultRecentSize        = 256
)

// withDefaults fills zero fields and refuses values that make no sense.
func (c Config) withDefaults() (Config, error) {
	if c.Listen == "" {
		c.Listen = DefaultListen
	}
	for _, d := range []struct {
		v   *time.Duration
		def time.Duration
		n   string
	}{
		{&c.ReadHeaderTimeout, DefaultReadHeaderTimeout, "ReadHeaderTimeout"},
		{&c.IdleTimeout, DefaultIdleTimeout, "IdleTimeout"},
		{&c.RequestTimeout, DefaultRequestTimeout, "RequestTimeout"},
		{&c.DialTimeout, DefaultDialTimeout, "DialTimeout"},
	} {
		if *d.v < 0 {
			return c, fmt.Errorf("%s is negative (%v)", d.n, *d.v)
		}
		if *d.v == 0 {
			*d.v = d.def
		}
	}
	for _, n := range []struct {
		v   *int
		def int
		n   string
	}{
		{&c.MaxConns, DefaultMaxConns, "MaxConns"},
		{&c.MaxHeaderBytes, DefaultMaxHeaderBytes, "MaxHeaderBytes"},
		{&c.QueueSize, DefaultQueueSize, "QueueSize"},
		{&c.RecentSize, DefaultRecentSize, "RecentSize"},
	} {
		if *n.v < 0 {
			return c, fmt.Errorf("%s is negative (%d)", n.n, *n.v)
		}
		if *n.v == 0 {
			*n.v = n.def
		}
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return c, c.check()
}

// check refuses the values no default can mend.
func (c Config) check() error {
	if c.Unknown != Allow && c.Unknown != Block {
		return fmt.Errorf("Unknown is not Allow or Block (%d)", c.Unknown)
	}
	for i, p := range c.AllowFrom {
		if !p.IsValid() {
			return fmt.Errorf("AllowFrom[%d] is not a valid network", i)
		}
		c.AllowFrom[i] = p.Masked()
	}
	return nil
}

// errOpenProxy is returned when a non-loopback listener has no AllowFrom.
var errOpenProxy = errors.New("listening beyond loopback needs AllowFrom: an open proxy serves anyone who finds it")

// checkListen refuses a listen address that is not loopback unless some
// clients are named. A host name other than "localhost" counts as not
// loopback, since it may resolve to anything.
func checkListen(hostport string, allowFrom []netip.Prefix) error {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		return fmt.Errorf("listen address %q: %w", hostport, err)
	}
	if len(allowFrom) > 0 || isLoopbackHost(host) {
		return nil
	}
	return fmt.Errorf("listen address %q: %w", hostport, errOpenProxy)
}

func isLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.IsLoopback()
}
