package gateway

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httputil"
	"net/netip"
	"syscall"
	"time"
)

// errLoop is a request that would reach the gateway itself again.
var errLoop = errors.New("request loops back into the gateway")

// errLocalTarget is a request from another machine for an address on the
// gateway's own loopback: services bound there are meant for this machine
// alone, and the proxy must not open them to the network.
var errLocalTarget = errors.New("target is on the gateway's loopback, which other machines may not reach")

// upstream is one way out to origins: a dialer, a transport over it and
// the reverse proxy that uses them. The gateway keeps two, one for
// clients on this machine and one for the others, so that a connection
// opened to this machine's loopback for a local client is never reused
// for a client elsewhere.
type upstream struct {
	dialer    *net.Dialer
	transport *http.Transport
	proxy     *httputil.ReverseProxy
}

// upstreamFor picks the way out for a client.
func (g *Gateway) upstreamFor(client netip.Addr) *upstream {
	if client.IsLoopback() {
		return g.local
	}
	return g.remote
}

// newUpstream builds a way out; local ones may reach loopback.
//
// httputil.ReverseProxy does the forwarding: it removes the hop-by-hop
// headers both ways (Connection and the headers it names, Proxy-*,
// Keep-Alive, TE, Trailer, Transfer-Encoding, Upgrade), streams bodies,
// passes trailers and 1xx answers, and follows the client's cancellation.
// Rewrite then undoes the two things it does for reverse proxies that a
// forward proxy must not: re-encoding odd query strings and re-adding
// Upgrade.
func (g *Gateway) newUpstream(local bool) *upstream {
	u := &upstream{}
	u.dialer = &net.Dialer{Timeout: g.cfg.DialTimeout, KeepAlive: 30 * time.Second,
		Control: func(_, address string, _ syscall.RawConn) error { return g.vet(address, local) }}
	u.transport = &http.Transport{
		Proxy: nil, // never from the environment: we are the proxy
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := u.dialer.DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			return &idleConn{Conn: c, idle: g.cfg.IdleTimeout}, nil
		},
		TLSHandshakeTimeout:    g.cfg.DialTimeout,
		ResponseHeaderTimeout:  g.cfg.RequestTimeout,
		IdleConnTimeout:        g.cfg.IdleTimeout,
		ExpectContinueTimeout:  time.Second,
		MaxIdleConns:           256,
		MaxIdleConnsPerHost:    16,
		MaxResponseHeaderBytes: 1 << 20,
		DisableCompression:     true, // pass bodies as the origin sent them
	}
	u.proxy = &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.Out.URL.RawQuery = pr.In.URL.RawQuery
			pr.Out.Header.Del("Connection")
			pr.Out.Header.Del("Upgrade")
			pr.Out.Header.Add("Via", fmt.Sprintf("%d.%d %s", pr.In.ProtoMajor, pr.In.ProtoMinor, g.via))
		},
		ModifyResponse: func(res *http.Response) error {
			res.Header.Add("Via", fmt.Sprintf("%d.%d %s", res.ProtoMajor, res.ProtoMinor, g.via))
			return nil
		},
		Transport:    u.transport,
		ErrorHandler: g.proxyError,
		ErrorLog:     slog.NewLogLogger(g.cfg.Logger.Handler(), slog.LevelDebug),
	}
	return u
}

// vet checks an address once names are resolved: never the gateway's own
// (a request for it would come straight back in), and never loopback
// unless local.
func (g *Gateway) vet(address string, local bool) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("dialling %q: %w", address, err)
	}
	if g.isSelf(ap) {
		return errLoop
	}
	if ip := ap.Addr().Unmap(); !local && (ip.IsLoopback() || ip.IsUnspecified()) {
		return errLocalTarget
	}
	if g.dialCheck != nil {
		return g.dialCheck(address)
	}
	return nil
}

// idleConn pushes its deadline forward on every read and write.
type idleConn struct {
	net.Conn
	idle time.Duration
}

// Read reads with the deadline IdleTimeout ahead.
func (c *idleConn) Read(b []byte) (int, error) {
	c.Conn.SetReadDeadline(time.Now().Add(c.idle))
	return c.Conn.Read(b)
}

// Write writes with the deadline IdleTimeout ahead.
func (c *idleConn) Write(b []byte) (int, error) {
	c.Conn.SetWriteDeadline(time.Now().Add(c.idle))
	return c.Conn.Write(b)
}
