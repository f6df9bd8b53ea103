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
	"time"

	"github.com/trawler/trawler/urlfilter"
)

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
	g.upstreamFor(d.Client).proxy.ServeHTTP(pw, out)
}

// proxyError answers a failed forward: 502, 504 on a timeout, 508 for a
// loop, 403 for a loopback target asked for by another machine.
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
	case errors.Is(err, errLocalTarget):
		code, msg = http.StatusForbidden, errLocalTarget.Error()
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

// WriteHeader notes the first final status and passes it on.
func (w *proxyWriter) WriteHeader(code int) {
	if w.status == 0 && code >= 200 {
		w.status = code
	}
	w.rc.SetWriteDeadline(time.Now().Add(w.idle))
	w.ResponseWriter.WriteHeader(code)
}

// Write extends the write deadline and passes b on.
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
