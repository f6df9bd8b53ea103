package gateway

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/trawler/trawler/urlfilter"
)

// recBackend records what the gateway hands the rest of Trawler.
type recBackend struct {
	mu         sync.Mutex
	enqueued   []string
	reports    []Report
	explained  []string
	explain    Explanation
	explainErr error
	block      chan struct{} // when set, Enqueue waits on it
}

func (b *recBackend) Enqueue(ctx context.Context, u string) error {
	if b.block != nil {
		select {
		case <-b.block:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.enqueued = append(b.enqueued, u)
	return nil
}

func (b *recBackend) Explain(_ context.Context, m urlfilter.Match, u string) (Explanation, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.explained = append(b.explained, u)
	return b.explain, b.explainErr
}

func (b *recBackend) Report(_ context.Context, r Report) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.reports = append(b.reports, r)
	return nil
}

func (b *recBackend) enqueuedURLs() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.enqueued...)
}

func (b *recBackend) reportList() []Report {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]Report(nil), b.reports...)
}

// waitEnqueued waits until u has been handed to Enqueue.
func (b *recBackend) waitEnqueued(t testing.TB, u string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		for _, e := range b.enqueuedURLs() {
			if e == u {
				return
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("%s never enqueued; got %q", u, b.enqueuedURLs())
}

// newFilter loads a real urlfilter.Filter from lines "black|white entry [category]".
func newFilter(t testing.TB, lines ...string) *urlfilter.Filter {
	t.Helper()
	var entries []urlfilter.Entry
	for _, line := range lines {
		list, rest, _ := strings.Cut(line, " ")
		l, err := urlfilter.ParseList(list)
		if err != nil {
			t.Fatal(err)
		}
		e, err := urlfilter.ParseEntry(l, rest)
		if err != nil {
			t.Fatalf("ParseEntry(%q): %v", rest, err)
		}
		entries = append(entries, e)
	}
	f := urlfilter.New()
	if err := f.Load(entries); err != nil {
		t.Fatal(err)
	}
	return f
}

// noDNS keeps tests off the network: names resolve from /etc/hosts or not
// at all.
var noDNS = &net.Resolver{PreferGo: true, Dial: func(context.Context, string, string) (net.Conn, error) {
	return nil, errors.New("no DNS in tests")
}}

// loopbackOnly refuses any upstream address outside loopback.
func loopbackOnly(address string) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil || !ap.Addr().Unmap().IsLoopback() {
		return fmt.Errorf("test refuses to dial %s", address)
	}
	return nil
}

// newTestGateway makes a gateway that can only reach loopback. Unless
// the test brings its own logger, the server's complaints fail the test:
// a recovered panic or a misused ResponseWriter is a defect even when
// the client sees nothing wrong.
func newTestGateway(t testing.TB, cfg Config, lists Lists, b Backend) *Gateway {
	t.Helper()
	if cfg.Logger == nil {
		logs := &logRec{}
		cfg.Logger = slog.New(logs)
		t.Cleanup(func() {
			for _, m := range logs.find("") {
				if strings.HasPrefix(m, "http: ") || strings.Contains(m, "panic") {
					t.Errorf("gateway logged %q", m)
				}
			}
		})
	}
	g, err := New(cfg, lists, b)
	if err != nil {
		t.Fatal(err)
	}
	g.local.dialer.Resolver, g.remote.dialer.Resolver = noDNS, noDNS
	g.dialCheck = loopbackOnly
	return g
}

// serve runs g on 127.0.0.1 until the test ends.
func serve(t testing.TB, g *Gateway) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- g.Serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return ln.Addr().String()
}

// startGateway serves a new test gateway and returns it with its address.
func startGateway(t testing.TB, cfg Config, lists Lists, b Backend) (*Gateway, string) {
	t.Helper()
	g := newTestGateway(t, cfg, lists, b)
	return g, serve(t, g)
}

// proxyClient sends everything through the gateway at addr, from local
// (a loopback address such as 127.0.0.2; empty for the default).
func proxyClient(t testing.TB, addr, local string) *http.Client {
	t.Helper()
	pu, _ := url.Parse("http://" + addr)
	d := &net.Dialer{Timeout: 5 * time.Second}
	if local != "" {
		d.LocalAddr = &net.TCPAddr{IP: net.ParseIP(local)}
	}
	tr := &http.Transport{Proxy: http.ProxyURL(pu), DialContext: d.DialContext, DisableCompression: true}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr, Timeout: 10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// origin is an httptest server that counts its requests.
type origin struct {
	*httptest.Server
	hits atomic.Int64
}

// newOrigin serves h on ip (a loopback address) and counts requests.
func newOrigin(t testing.TB, ip string, h http.HandlerFunc) *origin {
	t.Helper()
	o := &origin{}
	o.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		o.hits.Add(1)
		h(w, r)
	}))
	ln, err := net.Listen("tcp", ip+":0")
	if err != nil {
		t.Fatal(err)
	}
	o.Listener.Close()
	o.Listener = ln
	o.Start()
	t.Cleanup(o.Close)
	return o
}

func text(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, body) }
}

// get fetches u with c and returns status and body.
func get(t testing.TB, c *http.Client, u string) (int, string) {
	t.Helper()
	res, err := c.Get(u)
	if err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("GET %s: reading body: %v", u, err)
	}
	return res.StatusCode, string(b)
}

// raw writes req on a fresh connection to addr and reads one response.
func raw(t testing.TB, addr, req string) (*http.Response, string) {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.WriteString(c, req); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("reading answer to %q: %v", req, err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	return res, string(b)
}

// logRec keeps log records for assertions.
type logRec struct {
	mu   sync.Mutex
	msgs []string
}

func (l *logRec) Enabled(context.Context, slog.Level) bool { return true }
func (l *logRec) Handle(_ context.Context, r slog.Record) error {
	var sb strings.Builder
	sb.WriteString(r.Message)
	r.Attrs(func(a slog.Attr) bool { fmt.Fprintf(&sb, " %s=%v", a.Key, a.Value); return true })
	l.mu.Lock()
	l.msgs = append(l.msgs, sb.String())
	l.mu.Unlock()
	return nil
}
func (l *logRec) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *logRec) WithGroup(string) slog.Handler      { return l }

func (l *logRec) find(sub string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, m := range l.msgs {
		if strings.Contains(m, sub) {
			out = append(out, m)
		}
	}
	return out
}

// clock is a settable Config.Now.
type clock struct{ t atomic.Pointer[time.Time] }

func newClock(t time.Time) *clock { c := &clock{}; c.set(t); return c }
func (c *clock) set(t time.Time)  { c.t.Store(&t) }
func (c *clock) now() time.Time   { return *c.t.Load() }
