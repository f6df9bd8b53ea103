package fetch

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
)

const testUA = "TrawlerTest/1.0"

// mustNew builds a Fetcher from c, filling in a user agent, and closes it
// when the test ends.
func mustNew(tb testing.TB, c Config) *Fetcher {
	tb.Helper()
	if c.UserAgent == "" {
		c.UserAgent = testUA
	}
	f, err := New(c)
	if err != nil {
		tb.Fatalf("New: %v", err)
	}
	tb.Cleanup(f.Close)
	return f
}

// mustFetch fetches u and fails the test on error.
func mustFetch(tb testing.TB, f *Fetcher, u string, probe bool) *Response {
	tb.Helper()
	r, err := f.Fetch(context.Background(), u, probe)
	if err != nil {
		tb.Fatalf("Fetch(%s): %v", u, err)
	}
	return r
}

// wantKind fails the test unless err is an *Error of kind k.
func wantKind(tb testing.TB, err error, k Kind) *Error {
	tb.Helper()
	var fe *Error
	if !errors.As(err, &fe) {
		tb.Fatalf("error = %v (%T), want *Error of kind %v", err, err, k)
	}
	if fe.Kind != k {
		tb.Fatalf("kind = %v, want %v (error: %v)", fe.Kind, k, err)
	}
	if fe.Error() == "" {
		tb.Fatal("empty error message")
	}
	return fe
}

// serve starts an httptest server on 127.0.0.1 running h.
func serve(tb testing.TB, h http.Handler) *httptest.Server {
	tb.Helper()
	s := httptest.NewServer(h)
	tb.Cleanup(s.Close)
	return s
}

// countingResolver is a real Resolver for made-up names: it maps each name
// in hosts to its addresses (loopback only), fails for others, and counts
// lookups per name.
type countingResolver struct {
	hosts map[string][]string
	mu    sync.Mutex
	calls map[string]int
	total atomic.Int64
}

func newResolver(hosts map[string][]string) *countingResolver {
	return &countingResolver{hosts: hosts, calls: make(map[string]int)}
}

func (r *countingResolver) LookupIPAddr(_ context.Context, host string) ([]net.IPAddr, error) {
	r.total.Add(1)
	r.mu.Lock()
	r.calls[host]++
	r.mu.Unlock()
	ips, ok := r.hosts[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	var out []net.IPAddr
	for _, s := range ips {
		ip := net.ParseIP(s)
		if ip == nil || !ip.IsLoopback() {
			panic("test resolver serves loopback only: " + s)
		}
		out = append(out, net.IPAddr{IP: ip})
	}
	return out, nil
}

func (r *countingResolver) count(host string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.calls[host]
}

// portOf returns the port of a test server's URL.
func portOf(tb testing.TB, s *httptest.Server) string {
	tb.Helper()
	_, port, err := net.SplitHostPort(s.Listener.Addr().String())
	if err != nil {
		tb.Fatal(err)
	}
	return port
}

func mustParse(tb testing.TB, s string) *url.URL {
	tb.Helper()
	u, err := url.Parse(s)
	if err != nil {
		tb.Fatal(err)
	}
	return u
}

// silentListener accepts TCP connections on loopback and never says a word;
// it returns the listener's address.
func silentListener(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	t.Cleanup(func() { l.Close(); <-done })
	go func() {
		defer close(done)
		var held []net.Conn
		defer func() {
			for _, c := range held {
				c.Close()
			}
		}()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
		}
	}()
	return l.Addr().String()
}
