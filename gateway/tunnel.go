package gateway

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/trawler/trawler/urlfilter"
)

// serveConnect decides an HTTPS CONNECT by host alone and, if allowed,
// tunnels bytes both ways without looking inside.
func (g *Gateway) serveConnect(w http.ResponseWriter, r *http.Request, client netip.Addr, start time.Time) {
	host, port, reason := connectTarget(r.URL)
	if reason != "" {
		g.bad(w, r, client, start, reason)
		return
	}
	if strings.TrimSuffix(host, ".") == ReservedHost {
		plain(w, http.StatusNotFound, "gateway: "+ReservedHost+" is the gateway itself and takes no tunnels")
		return
	}
	hostport := net.JoinHostPort(host, port)
	d := Decision{At: g.cfg.Now(), Client: client, Method: r.Method, Target: hostport}
	finish := func(status int, err string) {
		d.Status, d.Err, d.Duration = status, err, time.Since(start)
		g.record(r.Context(), d)
	}
	m, act, rule := g.lookup(client, host, true)
	d.Action, d.Entry, d.Rule = act, m.Entry, rule
	g.tally(m, act)
	if m.List == urlfilter.None {
		g.enqueue(connectURL(host, port))
	}
	if act == Block {
		// Browsers show no proxy page for CONNECT: a bare status it is.
		w.Header().Set("Content-Length", "0")
		w.WriteHeader(http.StatusForbidden)
		finish(http.StatusForbidden, "")
		return
	}
	up, err := g.upstreamFor(client).dialer.DialContext(r.Context(), "tcp", hostport)
	if err != nil {
		code, msg := dialFailure(err)
		g.count.errors.Add(1)
		plain(w, code, "gateway: "+msg)
		finish(code, msg)
		return
	}
	if !g.tunnelStart() {
		up.Close()
		plain(w, http.StatusServiceUnavailable, "gateway: shutting down")
		finish(http.StatusServiceUnavailable, "gateway shutting down")
		return
	}
	defer g.tunnels.Done()
	conn, status, err := g.establish(w, r, up)
	if err != nil {
		up.Close()
		finish(status, err.Error())
		return
	}
	finish(http.StatusOK, "")
	g.count.tunnels.Add(1)
	g.count.tunnelsOpen.Add(1)
	defer g.count.tunnelsOpen.Add(-1)
	g.pipe(conn, up)
}

// establish takes the client's connection over from net/http, answers
// "200 Connection established" and passes on bytes the client sent right
// after its CONNECT (an eager TLS hello already in the server's buffer).
// On error it returns the status the client got.
func (g *Gateway) establish(w http.ResponseWriter, r *http.Request, up net.Conn) (net.Conn, int, error) {
	conn, brw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		g.count.errors.Add(1)
		plain(w, http.StatusInternalServerError, "gateway: cannot tunnel on this connection")
		return nil, http.StatusInternalServerError, fmt.Errorf("taking over the connection: %w", err)
	}
	conn.SetDeadline(time.Now().Add(g.cfg.IdleTimeout))
	_, err = fmt.Fprintf(conn, "HTTP/%d.%d 200 Connection established\r\n\r\n", r.ProtoMajor, r.ProtoMinor)
	if err == nil && brw.Reader.Buffered() > 0 {
		b, _ := brw.Reader.Peek(brw.Reader.Buffered())
		up.SetWriteDeadline(time.Now().Add(g.cfg.IdleTimeout))
		_, err = up.Write(b)
	}
	if err != nil {
		conn.Close()
		return nil, http.StatusOK, fmt.Errorf("opening the tunnel: %w", err)
	}
	return conn, http.StatusOK, nil
}

// connectTarget checks a CONNECT request target: host:port and nothing
// more.
func connectTarget(u *url.URL) (host, port, reason string) {
	if u.Host == "" || u.Path != "" || u.RawQuery != "" || u.User != nil {
		return "", "", "CONNECT needs a target of the form host:port"
	}
	host, port, err := net.SplitHostPort(u.Host)
	if err != nil {
		return "", "", fmt.Sprintf("CONNECT target %q: want host:port", u.Host)
	}
	if host == "" {
		return "", "", fmt.Sprintf("CONNECT target %q has no host", u.Host)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return "", "", fmt.Sprintf("CONNECT target %q: bad port", u.Host)
	}
	if _, err := netip.ParseAddr(host); err != nil && !validHostName(host) {
		return "", "", fmt.Sprintf("CONNECT target %q: bad host name", u.Host)
	}
	return strings.ToLower(host), port, ""
}

// validHostName accepts the characters of a DNS name (IDNs arrive in
// their ASCII form).
func validHostName(h string) bool {
	if len(h) > 253 {
		return false
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_') {
			return false
		}
	}
	return strings.Trim(h, ".") != ""
}

// connectURL is the URL the crawl is asked to decide for a CONNECT.
func connectURL(host, port string) string {
	h := host
	if strings.Contains(host, ":") {
		h = "[" + host + "]"
	}
	if port != "443" {
		h = net.JoinHostPort(host, port)
	}
	return (&url.URL{Scheme: "https", Host: h, Path: "/"}).String()
}

// dialFailure maps a failed dial to a status and a one-line reason.
func dialFailure(err error) (int, string) {
	var ne net.Error
	switch {
	case errors.Is(err, errLoop):
		return http.StatusLoopDetected, errLoop.Error()
	case errors.Is(err, errLocalTarget):
		return http.StatusForbidden, errLocalTarget.Error()
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return http.StatusGatewayTimeout, "gateway timeout: " + err.Error()
	}
	return http.StatusBadGateway, "bad gateway: " + err.Error()
}

var copyBufs = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// pipe copies both ways until either side ends, the tunnel has been idle
// both ways for IdleTimeout, or the gateway shuts down; then closes both.
func (g *Gateway) pipe(client, up net.Conn) {
	closeBoth := func() { client.Close(); up.Close() }
	stop := context.AfterFunc(g.tunnelCtx, closeBoth)
	defer stop()
	var last atomic.Int64
	last.Store(time.Now().UnixNano())
	done := make(chan struct{})
	go func() {
		defer close(done)
		g.copyIdle(up, client, &last)
		closeBoth()
	}()
	g.copyIdle(client, up, &last)
	closeBoth()
	<-done
}

// copyIdle copies src to dst. A read that times out is retried while the
// other direction has moved within IdleTimeout: a long download is not
// idle just because the client has nothing to say.
func (g *Gateway) copyIdle(dst, src net.Conn, last *atomic.Int64) {
	bp := copyBufs.Get().(*[]byte)
	defer copyBufs.Put(bp)
	buf, idle := *bp, g.cfg.IdleTimeout
	for {
		src.SetReadDeadline(time.Now().Add(idle))
		n, err := src.Read(buf)
		if n > 0 {
			last.Store(time.Now().UnixNano())
			dst.SetWriteDeadline(time.Now().Add(idle))
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() && time.Since(time.Unix(0, last.Load())) < idle {
				continue
			}
			return
		}
	}
}
