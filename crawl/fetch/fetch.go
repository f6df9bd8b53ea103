package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strings"
	"time"

	"golang.org/x/net/proxy"
)

// Fixed request headers. Encodings are asked for and undone here, not by
// net/http, so that the size cap applies to the decompressed stream.
const (
	acceptHeader   = "text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.8"
	acceptEncoding = "gzip, deflate, br"
)

// drainLimit is how much of an unwanted body is read and thrown away so its
// connection can be reused; longer bodies close the connection instead.
const drainLimit = 16 << 10

// Fetcher downloads URLs. It keeps one connection pool and one DNS cache
// for all fetches; it is safe for concurrent use.
type Fetcher struct {
	cfg       Config
	types     map[string]bool
	dialer    *dialer
	transport *http.Transport
	client    *http.Client
	viaProxy  bool
}

// New checks c and builds a Fetcher.
func New(c Config) (*Fetcher, error) {
	cfg, types, err := c.normalize()
	if err != nil {
		return nil, err
	}
	d := newDialer(cfg.Resolver, cfg.ConnectTimeout, cfg.DNSCacheTTL)
	t := &http.Transport{
		DialContext:            d.DialContext,
		ForceAttemptHTTP2:      true,
		MaxIdleConns:           max(256, cfg.IdleConnsPerHost),
		MaxIdleConnsPerHost:    cfg.IdleConnsPerHost,
		IdleConnTimeout:        60 * time.Second,
		TLSHandshakeTimeout:    cfg.ConnectTimeout,
		ExpectContinueTimeout:  time.Second,
		DisableCompression:     true,
		MaxResponseHeaderBytes: 1 << 20,
	}
	pu, _ := parseProxy(cfg.Proxy)
	if pu != nil {
		if strings.HasPrefix(pu.Scheme, "socks5") {
			t.DialContext, err = socksDial(pu, d, cfg.ConnectTimeout)
			if err != nil {
				return nil, err
			}
		} else {
			t.Proxy = http.ProxyURL(pu)
		}
	}
	f := &Fetcher{cfg: cfg, types: types, dialer: d, transport: t, viaProxy: pu != nil}
	f.client = &http.Client{
		Transport:     t,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	return f, nil
}

// socksDial returns a dial function through the SOCKS5 proxy at u. The proxy
// itself is reached through d; the target name is resolved by the proxy.
func socksDial(u *url.URL, d *dialer, timeout time.Duration) (func(context.Context, string, string) (net.Conn, error), error) {
	var auth *proxy.Auth
	if u.User != nil {
		pw, _ := u.User.Password()
		auth = &proxy.Auth{User: u.User.Username(), Password: pw}
	}
	addr := u.Host
	if u.Port() == "" {
		addr = net.JoinHostPort(u.Hostname(), "1080")
	}
	pd, err := proxy.SOCKS5("tcp", addr, auth, d)
	if err != nil {
		return nil, fmt.Errorf("fetch config: socks5 proxy %s: %w", addr, err)
	}
	cd := pd.(proxy.ContextDialer)
	return func(ctx context.Context, network, target string) (net.Conn, error) {
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		conn, err := cd.DialContext(ctx, network, target)
		if err != nil {
			var de *dnsError
			if errors.As(err, &de) {
				return nil, err
			}
			return nil, &dialError{target + " via socks5 proxy " + addr, err}
		}
		return conn, nil
	}, nil
}

// Close releases idle connections. Fetches still running finish normally.
func (f *Fetcher) Close() { f.transport.CloseIdleConnections() }

// Fetch downloads rawURL (http, https or ftp) within Config.Timeout.
//
// With probe set, the resource is only probed: status, type and declared
// size, no body. Otherwise the body is read when the final status is 2xx and
// the content type is accepted (Config.ContentTypes; an undeclared type is
// guessed from the URL's extension, else sniffed from the first 512 bytes).
// Bodies of other responses are discarded unread: Body is nil.
//
// A final response of any status is returned without error; redirects are
// followed (and recorded in Redirects) unless MaxRedirects is NoRedirects.
// For ftp:// URLs a directory gives its Listing (ContentType DirectoryType,
// no Body), a missing file or directory status 404, a refused login 401,
// success 200. Errors are *Error.
func (f *Fetcher) Fetch(ctx context.Context, rawURL string, probe bool) (*Response, error) {
	return f.FetchWith(ctx, rawURL, probe, nil)
}

// FetchWith is Fetch with extra request headers for this request alone,
// such as a revisit's If-None-Match and If-Modified-Since: a server that
// answers 304 Not Modified costs no body (the Response has Status 304 and
// no Body). They go with every hop of a redirect chain, after
// Config.Header, and cannot replace User-Agent or Accept-Encoding. FTP
// ignores them.
func (f *Fetcher) FetchWith(ctx context.Context, rawURL string, probe bool, header http.Header) (*Response, error) {
	start := time.Now()
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, &Error{Kind: KindBadURL, URL: rawURL, Err: err}
	}
	if u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "ftp" {
		return nil, newError(KindScheme, rawURL, "scheme %q is not http, https or ftp", u.Scheme)
	}
	if u.Hostname() == "" {
		return nil, newError(KindBadURL, rawURL, "no host")
	}
	u.Fragment, u.RawFragment = "", ""
	tctx, cancel := context.WithTimeout(ctx, f.cfg.Timeout)
	defer cancel()
	var r *Response
	if u.Scheme == "ftp" {
		r, err = f.fetchFTP(ctx, tctx, u, probe)
	} else {
		r, err = f.fetchHTTP(ctx, tctx, u, probe, header)
	}
	if err != nil {
		return nil, err
	}
	r.Duration = time.Since(start)
	return r, nil
}

// fetchHTTP runs the redirect loop. parent is the caller's context, ctx the
// one bounded by the timeout.
func (f *Fetcher) fetchHTTP(parent, ctx context.Context, u *url.URL, probe bool, header http.Header) (*Response, error) {
	var hops []Hop
	for {
		resp, ip, err := f.get(ctx, u, header)
		if err != nil {
			return nil, f.classify(parent, ctx, u.String(), err)
		}
		if !isRedirect(resp.StatusCode) || f.cfg.MaxRedirects == NoRedirects {
			r, err := f.finish(u, resp, ip, probe)
			if err != nil {
				return nil, f.classify(parent, ctx, u.String(), err)
			}
			r.Redirects = hops
			return r, nil
		}
		discard(resp.Body, resp.ContentLength)
		cur := u.String()
		hops = append(hops, Hop{URL: cur, Status: resp.StatusCode})
		next, err := redirectTarget(u, resp.Header.Get("Location"))
		if err != nil {
			return nil, &Error{Kind: KindBadRedirect, URL: cur, Err: err}
		}
		target := next.String()
		for _, h := range hops {
			if h.URL == target {
				return nil, newError(KindRedirectLoop, cur, "redirect back to %s after %d hops", target, len(hops))
			}
		}
		if len(hops) > f.cfg.MaxRedirects {
			return nil, newError(KindTooManyRedirects, cur, "more than %d redirects", f.cfg.MaxRedirects)
		}
		u = next
	}
}

// encoded reports whether a Content-Encoding compresses the body.
func encoded(contentEncoding string) bool {
	return contentEncoding != "" && contentEncoding != "identity"
}

func isRedirect(status int) bool {
	switch status {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return true
	}
	return false
}

// redirectTarget resolves a Location value against the URL that got it.
func redirectTarget(base *url.URL, loc string) (*url.URL, error) {
	if loc == "" {
		return nil, errors.New("redirect without Location")
	}
	next, err := base.Parse(loc)
	if err != nil {
		return nil, fmt.Errorf("redirect to %q: %w", loc, err)
	}
	if (next.Scheme != "http" && next.Scheme != "https") || next.Hostname() == "" {
		return nil, fmt.Errorf("redirect to %q: not an http(s) URL", loc)
	}
	next.Fragment, next.RawFragment = "", ""
	return next, nil
}

// get sends one GET for u, with the extra headers of this request, and
// returns the response with the address of the connection it came on (""
// through a proxy).
func (f *Fetcher) get(ctx context.Context, u *url.URL, header http.Header) (*http.Response, string, error) {
	var ip string
	if !f.viaProxy {
		ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{GotConn: func(ci httptrace.GotConnInfo) {
			if a, ok := ci.Conn.RemoteAddr().(*net.TCPAddr); ok {
				ip = a.IP.String()
			}
		}})
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, "", err
	}
	req.Header.Set("Accept", acceptHeader)
	for k, v := range f.cfg.Header {
		req.Header[k] = v
	}
	for k, v := range header {
		req.Header[http.CanonicalHeaderKey(k)] = v
	}
	req.Header.Set("User-Agent", f.cfg.UserAgent)
	req.Header.Set("Accept-Encoding", acceptEncoding)
	if c, ok := f.cfg.Auth[hostKey(u)]; ok {
		req.SetBasicAuth(c.User, c.Password)
	}
	resp, err := f.client.Do(req)
	if err != nil {
		return nil, "", err
	}
	return resp, ip, nil
}

// finish turns the final HTTP response into a Response, reading the body
// when it is wanted.
func (f *Fetcher) finish(u *url.URL, resp *http.Response, ip string, probe bool) (*Response, error) {
	h := resp.Header
	r := &Response{
		URL:             u.String(),
		Status:          resp.StatusCode,
		Header:          h,
		IP:              ip,
		ContentType:     mediaType(h.Get("Content-Type")),
		ContentEncoding: strings.ToLower(h.Get("Content-Encoding")),
		ContentLength:   resp.ContentLength,
		LastModified:    parseTime(h, "Last-Modified"),
		Expires:         parseTime(h, "Expires"),
		ETag:            h.Get("ETag"),
	}
	if r.ContentType == "" {
		r.ContentType = typeByExtension(u.Path)
	}
	if probe || !r.OK() || (r.ContentType != "" && !f.accepts(r.ContentType)) {
		discard(resp.Body, resp.ContentLength)
		return r, nil
	}
	defer resp.Body.Close()
	if resp.ContentLength > f.cfg.MaxSize && encoded(r.ContentEncoding) {
		return nil, fmt.Errorf("Content-Length %d is above the cap of %d bytes: %w", resp.ContentLength, f.cfg.MaxSize, errTooLarge)
	}
	if err := f.readBody(r, resp.Body, h.Get("Content-Type")); err != nil {
		return nil, err
	}
	return r, nil
}

// readBody fills r.Body, r.Length and r.Charset from body, undoing
// r.ContentEncoding. When r.ContentType is unknown it is sniffed, and the
// body is dropped if that type is not accepted.
func (f *Fetcher) readBody(r *Response, body io.Reader, ctHeader string) error {
	rd, release, err := decompress(body, r.ContentEncoding)
	defer release()
	if err != nil {
		return err
	}
	var accept func([]byte) bool
	if r.ContentType == "" {
		accept = func(prefix []byte) bool {
			r.ContentType = sniffType(prefix)
			return f.accepts(r.ContentType)
		}
	}
	hint := r.ContentLength
	if encoded(r.ContentEncoding) {
		hint = -1
	}
	// A plain body over the cap keeps its first bytes, as wget and Heritrix
	// do; a compressed one that inflates past it is an error (a bomb).
	b, truncated, err := readCapped(rd, f.cfg.MaxSize, hint, !encoded(r.ContentEncoding), accept)
	if err != nil {
		return fmt.Errorf("read body: %w", err)
	}
	if b == nil {
		return nil
	}
	r.Length, r.Truncated = int64(len(b)), truncated
	if isText(r.ContentType) {
		b, r.Charset = toUTF8(b, ctHeader)
	}
	r.Body = b
	return nil
}

// discard closes a body nobody wants, first reading it out when it is
// short, so the connection can serve the next request.
func discard(body io.ReadCloser, length int64) {
	if length <= drainLimit {
		_, _ = io.Copy(io.Discard, io.LimitReader(body, drainLimit))
	}
	_ = body.Close()
}
