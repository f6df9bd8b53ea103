package fetch

import (
	"context"
	"encoding/binary"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
)

// originDial dials addr with names ending in ".test" mapped to 127.0.0.1:
// the test proxies resolve what the fetcher behind them never does.
func originDial(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	if len(host) > 5 && host[len(host)-5:] == ".test" {
		host = "127.0.0.1"
	}
	var d net.Dialer
	return d.DialContext(ctx, network, net.JoinHostPort(host, port))
}

// forwardProxy is an HTTP forward proxy: it takes absolute-URI requests,
// counts them and forwards them to the origin.
type forwardProxy struct {
	requests atomic.Int64
	mu       sync.Mutex
	urls     []string
	out      *http.Transport
}

func (p *forwardProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !r.URL.IsAbs() {
		http.Error(w, "not a proxy request", http.StatusBadRequest)
		return
	}
	p.requests.Add(1)
	p.mu.Lock()
	p.urls = append(p.urls, r.URL.String())
	p.mu.Unlock()
	out := r.Clone(r.Context())
	out.RequestURI = ""
	resp, err := p.out.RoundTrip(out)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	for k, v := range resp.Header {
		w.Header()[k] = v
	}
	w.WriteHeader(resp.StatusCode)
	io.Copy(w, resp.Body)
}

func TestHTTPProxySeesEveryRequest(t *testing.T) {
	origin := chainServer(t)
	_, port, _ := net.SplitHostPort(origin[len("http://"):])
	p := &forwardProxy{out: &http.Transport{DialContext: originDial, DisableCompression: true}}
	t.Cleanup(p.out.CloseIdleConnections)
	ps := serve(t, p)
	res := newResolver(nil) // resolves nothing: the origin name must reach the proxy unresolved
	f := mustNew(t, Config{Proxy: ps.URL, Resolver: res})
	target := "http://origin.test:" + port
	r := mustFetch(t, f, target+"/r/3", false)
	if r.Status != 200 || len(r.Redirects) != 3 {
		t.Fatalf("status %d, hops %v", r.Status, r.Redirects)
	}
	if got := p.requests.Load(); got != 4 {
		t.Errorf("proxy saw %d requests, want 4: %v", got, p.urls)
	}
	if p.urls[0] != target+"/r/3" {
		t.Errorf("first proxied URL %s", p.urls[0])
	}
	if r.IP != "" {
		t.Errorf("IP = %q through a proxy, want empty", r.IP)
	}
	if n := res.total.Load(); n != 0 {
		t.Errorf("fetcher resolved %d names itself", n)
	}
}

func TestSOCKS5Proxy(t *testing.T) {
	origin := chainServer(t)
	_, port, _ := net.SplitHostPort(origin[len("http://"):])
	sp := startSOCKS5(t)
	f := mustNew(t, Config{Proxy: "socks5://" + sp.addr, Resolver: newResolver(nil)})
	r := mustFetch(t, f, "http://origin.test:"+port+"/r/2", false)
	if r.Status != 200 || string(r.Body) != "<title>end</title>" {
		t.Fatalf("status %d body %q", r.Status, r.Body)
	}
	if got := sp.connects.Load(); got < 1 {
		t.Errorf("socks proxy saw %d CONNECTs", got)
	}
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if want := "origin.test:" + port; sp.targets[0] != want {
		t.Errorf("first CONNECT to %s, want %s (name resolved by the proxy)", sp.targets[0], want)
	}
}

func TestProxyDownIsConnectError(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	for _, scheme := range []string{"http", "socks5"} {
		f := mustNew(t, Config{Proxy: scheme + "://" + addr})
		_, err := f.Fetch(context.Background(), "http://127.0.0.1:1/", false)
		wantKind(t, err, KindConnect)
	}
}

// socks5Server is a minimal SOCKS5 proxy (RFC 1928): no authentication,
// CONNECT only, IPv4 and domain-name targets, names ending in .test mapped
// to loopback.
type socks5Server struct {
	addr     string
	connects atomic.Int64
	mu       sync.Mutex
	targets  []string
}

func startSOCKS5(t *testing.T) *socks5Server {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &socks5Server{addr: l.Addr().String()}
	var wg sync.WaitGroup
	t.Cleanup(func() { l.Close(); wg.Wait() })
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() { defer wg.Done(); s.handle(c) }()
		}
	}()
	return s
}

func (s *socks5Server) handle(c net.Conn) {
	defer c.Close()
	buf := make([]byte, 262)
	// greeting: VER NMETHODS METHODS...
	if _, err := io.ReadFull(c, buf[:2]); err != nil || buf[0] != 5 {
		return
	}
	if _, err := io.ReadFull(c, buf[:buf[1]]); err != nil {
		return
	}
	c.Write([]byte{5, 0})
	// request: VER CMD RSV ATYP ADDR PORT
	if _, err := io.ReadFull(c, buf[:4]); err != nil || buf[1] != 1 {
		return
	}
	var host string
	switch buf[3] {
	case 1:
		io.ReadFull(c, buf[:4])
		host = net.IP(buf[:4]).String()
	case 3:
		io.ReadFull(c, buf[:1])
		n := int(buf[0])
		io.ReadFull(c, buf[:n])
		host = string(buf[:n])
	default:
		c.Write([]byte{5, 8, 0, 1, 0, 0, 0, 0, 0, 0})
		return
	}
	io.ReadFull(c, buf[:2])
	target := net.JoinHostPort(host, strconv.Itoa(int(binary.BigEndian.Uint16(buf[:2]))))
	s.connects.Add(1)
	s.mu.Lock()
	s.targets = append(s.targets, target)
	s.mu.Unlock()
	up, err := originDial(context.Background(), "tcp", target)
	if err != nil {
		c.Write([]byte{5, 5, 0, 1, 0, 0, 0, 0, 0, 0})
		return
	}
	defer up.Close()
	c.Write([]byte{5, 0, 0, 1, 127, 0, 0, 1, 0, 0})
	done := make(chan struct{})
	go func() { io.Copy(up, c); up.(*net.TCPConn).CloseWrite(); close(done) }()
	io.Copy(c, up)
	c.Close()
	<-done
}
