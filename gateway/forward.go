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
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/trawler/trawler/urlfilter"
)

// errLoop is a request that would reach the gateway itself again.
var errLoop = errors.New("request loops back into the gateway")

// initForwarding builds the dialer, the transport and the reverse proxy
// that forward allowed requests.
//
// httputil.ReverseProxy does the forwarding: it removes the hop-by-hop
// headers both ways (Connection and the headers it names, Proxy-*,
// Keep-Alive, TE, Trailer, Transfer-Encoding, Upgrade), streams bodies,
// passes trailers and 1xx answers, and follows the client's cancellation.
// Rewrite then undoes the two things it does for reverse proxies that a
// forward proxy must not: re-encoding odd query strings and re-adding
// Upgrade.
func (g *Gateway) initForwarding() {
	g.dialer = &net.Dialer{Timeout: g.cfg.DialTimeout, KeepAlive: 30 * time.Second, Control: g.dialControl}
	g.transport = &http.Transport{
		Proxy:                  nil, // never from the environment: we are the proxy
		DialContext:            g.dialUpstream,
		TLSHandshakeTimeout:    g.cfg.DialTimeout,
		ResponseHeaderTimeout:  g.cfg.RequestTimeout,
		IdleConnTimeout:        g.cfg.IdleTimeout,
		ExpectContinueTimeout:  time.Second,
		MaxIdleConns:           256,
		MaxIdleConnsPerHost:    16,
		MaxResponseHeaderBytes: 1 << 20,
		DisableCompression:     true, // pass bodies as the origin sent them
	}
	g.proxy = &httputil.ReverseProxy{
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
		Transport:    g.transport,
		ErrorHandler: g.proxyError,
		ErrorLog:     slog.NewLogLogger(g.cfg.Logger.Handler(), slog.LevelDebug),
	}
}

// dialControl refuses, once names are resolved, any address that is the
// gateway's own: a request for it would come straight back in.
func (g *Gateway) dialControl(_, address string, _ syscall.RawConn) error {
	if ap, err := netip.ParseAddrPort(address); err == nil && g.isSelf(ap) {
		return errLoop
	}
	if g.dialCheck != nil {
		return g.dialCheck(address)
	}
	return nil
}

// dialUpstream connects to an origin; the connection closes after
// IdleTimeout without traffic.
func (g *Gateway) dialUpstream(ctx context.Context, network, addr string) (net.Conn, error) {
	c, err := g.dialer.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	return &idleConn{Conn: c, idle: g.cfg.IdleTimeout}, nil
}

// idleConn pushes its deadline forward on every read and write.
type idleConn struct {
	net.Conn
	idle time.Duration
}

func (c *idleConn) Read(b []byte) (int, error) {
	c.Conn.SetReadDeadline(time.Now().Add(c.idle))
	return c.Conn.Read(b)
}

func (c *idleConn) Write(b []byte) (int, error) {
	c.Conn.SetWriteDeadline(time.Now().Add(c.idle))
	return c.Conn.Write(b)
}

// serveProxy decides and forwards a plain http request (absolute form).
func (g *Gateway) serveProxy(w http.ResponseWriter, r *http.Request, client netip.Addr, start time.Time) {
	u, reason := proxyTarget(r.URL)
	if reason != "" {
		g.bad(w, r, client, start, reason)
		return
	}
	target := u.String()
	d := Decision{At: g.cfg.Now(), Client: client, Method: r.Method, Target: target}
	if g.viaLoop(r.Header) {
		g.count.errors.Add(1)
		d.Action, d.Status, d.Err = Block, http.StatusLoopDetected, errLoop.Error()
		plain(w, d.Status, "gateway: "+d.Err)
		d.Duration = time.Since(start)
		g.record(r.Context(), d)
		return
	}
	m, act, rule := g.lookup(client, target, false)
	d.Action, d.Entry, d.Rule = act, m.Entry, rule
	g.tally(m, act)
	if m.List == urlfilter.None {
		g.enqueue(target)
	}
	if act == Block {
		d.Status = g.blockPage(w, r, client, target, m, rule)
		d.Duration = time.Since(start)
		g.record(r.Context(), d)
		return
	}
	g.forward(w, r, u, &d, start)
}

// forward passes an allowed request to its origin and the answer back.
func (g *Gateway) forward(w http.ResponseWriter, r *http.Request, u *url.URL, d *Decision, start time.Time) {
	pw := &proxyWriter{ResponseWriter: w, rc: http.NewResponseController(w), idle: g.cfg.IdleTimeout}
	defer pw.rc.SetWriteDeadline(time.Time{})
	defer func() {
		p := recover()
		if p != nil && pw.err == "" {
			pw.err = "response cut short"
			if r.Context().Err() == nil {
				g.count.errors.Add(1)
			}
		}
		d.Status, d.Err, d.Duration = pw.status, pw.err, time.Since(start)
		g.record(r.Context(), *d)
		if p != nil {
			panic(p)
		}
	}()
	out := new(http.Request)
	*out = *r
	out.URL = u
	g.proxy.ServeHTTP(pw, out)
}

// proxyError answers a failed forward with 502, 504 or 508.
func (g *Gateway) proxyError(w http.ResponseWriter, r *http.Request, err error) {
	pw, _ := w.(*proxyWriter)
	note := func(s string) {
		if pw != nil {
			pw.err = s
		}
	}
	if r.Context().Err() != nil && errors.Is(err, context.Canceled) {
		note("client went away")
		return
	}
	g.count.errors.Add(1)
	code, msg := http.StatusBadGateway, "bad gateway: "+err.Error()
	var ne net.Error
	switch {
	case errors.Is(err, errLoop):
		code, msg = http.StatusLoopDetected, errLoop.Error()
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		code, msg = http.StatusGatewayTimeout, "gateway timeout: "+err.Error()
	}
	note(msg)
	plain(w, code, "gateway: "+msg)
}

// proxyWriter notes the status sent and keeps the client's write deadline
// IdleTimeout ahead, so a client that stops reading is let go.
type proxyWriter struct {
	http.ResponseWriter
	rc     *http.ResponseController
	idle   time.Duration
	status int
	err    string
}

func (w *proxyWriter) WriteHeader(code int) {
	if w.status == 0 && code >= 200 {
		w.status = code
	}
	w.rc.SetWriteDeadline(time.Now().Add(w.idle))
	w.ResponseWriter.WriteHeader(code)
}

func (w *proxyWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	w.rc.SetWriteDeadline(time.Now().Add(w.idle))
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController (flushes while streaming) reach the
// real writer.
func (w *proxyWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// proxyTarget checks an absolute-form request target and returns it
// without user info or fragment, or a reason to refuse it.
func proxyTarget(in *url.URL) (*url.URL, string) {
	u := *in
	u.Scheme = strings.ToLower(u.Scheme)
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Sprintf("unsupported scheme %q: only http and https", in.Scheme)
	}
	if u.Hostname() == "" {
		return nil, "no host in the request target"
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return nil, fmt.Sprintf("bad port %q", p)
		}
	}
	u.User, u.Fragment, u.RawFragment = nil, "", ""
	return &u, ""
}

// viaLoop reports whether a request already passed through this gateway.
func (g *Gateway) viaLoop(h http.Header) bool {
	for _, v := range h.Values("Via") {
		if strings.Contains(v, g.via) {
			return true
		}
	}
	return false
}
