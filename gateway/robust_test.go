package gateway

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"
)

// TestNewRefusesOpenProxy: listening beyond loopback needs AllowFrom.
func TestNewRefusesOpenProxy(t *testing.T) {
	lan := []netip.Prefix{netip.MustParsePrefix("192.168.1.0/24")}
	for _, c := range []struct {
		listen string
		allow  []netip.Prefix
		ok     bool
	}{
		{"", nil, true},
		{"127.0.0.1:3128", nil, true},
		{"127.0.0.2:8080", nil, true},
		{"[::1]:3128", nil, true},
		{"localhost:3128", nil, true},
		{"0.0.0.0:3128", nil, false},
		{":3128", nil, false},
		{"[::]:3128", nil, false},
		{"192.168.1.10:3128", nil, false},
		{"gateway.lan:3128", nil, false},
		{"0.0.0.0:3128", lan, true},
		{"no-port", nil, false},
	} {
		_, err := New(Config{Listen: c.listen, AllowFrom: c.allow}, newFilter(t), &recBackend{})
		if (err == nil) != c.ok {
			t.Errorf("New(Listen %q, AllowFrom %v): %v, want ok=%v", c.listen, c.allow, err, c.ok)
		}
		if !c.ok && c.listen != "no-port" && !errors.Is(err, errOpenProxy) {
			t.Errorf("New(Listen %q): %v is not errOpenProxy", c.listen, err)
		}
	}
	for _, cfg := range []Config{{MaxConns: -1}, {IdleTimeout: -time.Second}, {Unknown: 7}, {AllowFrom: []netip.Prefix{{}}}} {
		if _, err := New(cfg, nil, &recBackend{}); err == nil {
			t.Errorf("New(%+v) accepted", cfg)
		}
	}
	if _, err := New(Config{}, nil, nil); err == nil {
		t.Error("New without a Backend accepted")
	}
}

// TestClientRefused: clients outside loopback and AllowFrom get 403 before
// anything else; those inside get on to the request (here a 400).
func TestClientRefused(t *testing.T) {
	b := &recBackend{}
	g := newTestGateway(t, Config{AllowFrom: []netip.Prefix{netip.MustParsePrefix("10.9.0.0/16")}},
		newFilter(t, "black bad.example"), b)
	for _, c := range []struct {
		remote string
		target string
		want   int
	}{
		{"10.8.1.1:5000", "http://bad.example/", 403},
		{"10.8.1.1:5000", "/", 403},
		{"[2001:db8::1]:5000", "/", 403},
		{"10.9.1.1:5000", "/", 400},
		{"[::ffff:10.9.1.1]:5000", "/", 400},
		{"127.0.0.1:5000", "/", 400},
		{"[::1]:5000", "/", 400},
	} {
		r := httptest.NewRequest("GET", c.target, nil)
		r.RemoteAddr = c.remote
		w := httptest.NewRecorder()
		g.ServeHTTP(w, r)
		if w.Code != c.want {
			t.Errorf("%s %s: %d %q, want %d", c.remote, c.target, w.Code, w.Body, c.want)
		}
	}
	if s := g.Stats(); s.ClientsRefused != 3 || s.Blocked != 0 || s.Errors != 4 {
		t.Errorf("stats %+v", s)
	}
	if len(b.explained) != 0 {
		t.Errorf("refused client reached Explain")
	}
}

// TestLocalTargets: a client on another machine may not use the gateway
// to reach services on the gateway's own loopback, even over a connection
// a local client left in the pool; a local client may.
func TestLocalTargets(t *testing.T) {
	o := newOrigin(t, "127.0.0.1", text("local service"))
	g := newTestGateway(t, Config{AllowFrom: []netip.Prefix{netip.MustParsePrefix("10.9.0.0/16")}}, newFilter(t), &recBackend{})
	host := o.Listener.Addr().String()
	_, port, _ := net.SplitHostPort(host)
	for _, c := range []struct {
		remote, method, target string
		want                   int
	}{
		{"127.0.0.1:5000", "GET", o.URL + "/", 200},
		{"10.9.1.1:5000", "GET", o.URL + "/", 403},
		{"10.9.1.1:5000", "GET", "http://localhost:" + port + "/", 403},
		{"10.9.1.1:5000", "CONNECT", host, 403},
	} {
		r := httptest.NewRequest(c.method, c.target, nil)
		if c.method == "CONNECT" {
			r.URL.Host, r.RequestURI = c.target, c.target
		}
		r.RemoteAddr = c.remote
		w := httptest.NewRecorder()
		g.ServeHTTP(w, r)
		if w.Code != c.want {
			t.Errorf("%s %s from %s: %d %q, want %d", c.method, c.target, c.remote, w.Code, w.Body, c.want)
		}
	}
	if n := o.hits.Load(); n != 1 {
		t.Errorf("local service saw %d requests, want 1 (the local client's)", n)
	}
}

// TestMalformed writes broken requests over TCP: each gets 400 (431 for
// huge headers) with a one-line reason, and the gateway keeps serving.
func TestMalformed(t *testing.T) {
	o := newOrigin(t, "127.0.0.1", text("still here"))
	g, addr := startGateway(t, Config{MaxHeaderBytes: 4096}, newFilter(t, "white 127.0.0.1"), &recBackend{})
	for _, c := range []struct{ name, req, reason string }{
		{"origin form", "GET / HTTP/1.1\r\nHost: x\r\n\r\n", "absolute URL"},
		{"CONNECT without port", "CONNECT foo HTTP/1.1\r\nHost: foo\r\n\r\n", "want host:port"},
		{"CONNECT without host", "CONNECT :443 HTTP/1.1\r\nHost: :443\r\n\r\n", "no host"},
		{"CONNECT bad port", "CONNECT example.com:0 HTTP/1.1\r\nHost: x\r\n\r\n", "bad port"},
		{"CONNECT path", "CONNECT /x HTTP/1.1\r\nHost: x\r\n\r\n", "host:port"},
		{"CONNECT bad host", "CONNECT ex%20ample.com:443 HTTP/1.1\r\nHost: x\r\n\r\n", ""},
		{"ftp scheme", "GET ftp://example.com/f HTTP/1.1\r\nHost: example.com\r\n\r\n", "unsupported scheme"},
		{"no host", "GET http:///path HTTP/1.1\r\nHost: x\r\n\r\n", "no host"},
		{"port out of range", "GET http://example.com:99999/ HTTP/1.1\r\nHost: x\r\n\r\n", "bad port"},
		{"OPTIONS *", "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n", "absolute URL"},
		{"garbage", "HELLO THERE\r\n\r\n", ""},
		{"no Host on HTTP/1.1", "GET / HTTP/1.1\r\n\r\n", ""},
		{"huge header", "GET http://example.com/ HTTP/1.1\r\nHost: x\r\nX-Big: " + strings.Repeat("a", 16<<10) + "\r\n\r\n", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, body := raw(t, addr, c.req)
			want := 400
			if c.name == "huge header" {
				want = 431
			}
			if res.StatusCode != want || !strings.Contains(body, c.reason) {
				t.Errorf("%d %q, want %d with %q", res.StatusCode, body, want, c.reason)
			}
			if c.reason != "" && strings.Count(strings.TrimSuffix(body, "\n"), "\n") != 0 {
				t.Errorf("reason is not one line: %q", body)
			}
			if status, body := get(t, proxyClient(t, addr, ""), o.URL+"/"); status != 200 || body != "still here" {
				t.Fatalf("gateway stopped serving: %d %q", status, body)
			}
		})
	}
	if s := g.Stats(); s.Errors < 9 {
		t.Errorf("Errors = %d, want the gateway's own 400s counted", s.Errors)
	}
}

// TestSlowHeaders: a client that never finishes its headers is cut off
// after ReadHeaderTimeout.
func TestSlowHeaders(t *testing.T) {
	_, addr := startGateway(t, Config{ReadHeaderTimeout: 200 * time.Millisecond}, newFilter(t), &recBackend{})
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	io.WriteString(c, "GET http://example.com/ HTTP/1.1\r\nHost: exam")
	start := time.Now()
	io.ReadAll(c)
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("slow client held the connection for %v", d)
	}
}

// TestSelfTargets: requests naming the gateway itself are answered by it,
// never forwarded, and a request that already passed through it is a 508.
func TestSelfTargets(t *testing.T) {
	b := &recBackend{}
	g, addr := startGateway(t, Config{}, newFilter(t), b)
	_, port, _ := net.SplitHostPort(addr)
	for _, target := range []string{"http://" + addr + "/", "http://localhost:" + port + "/x",
		"http://[::ffff:127.0.0.1]:" + port + "/", "http://0.0.0.0:" + port + "/", "http://" + ReservedHost + "/"} {
		res, body := raw(t, addr, "GET "+target+" HTTP/1.1\r\nHost: x\r\n\r\n")
		if res.StatusCode != 404 || !strings.Contains(body, "gateway itself") {
			t.Errorf("GET %s: %d %q, want the gateway's 404", target, res.StatusCode, body)
		}
	}
	res, _ := raw(t, addr, "CONNECT "+ReservedHost+":443 HTTP/1.1\r\nHost: x\r\n\r\n")
	if res.StatusCode != 404 {
		t.Errorf("CONNECT to the reserved host: %d, want 404", res.StatusCode)
	}
	res, _ = raw(t, addr, "GET http://127.0.0.1:1/ HTTP/1.1\r\nHost: x\r\nVia: 1.1 "+g.via+"\r\n\r\n")
	if res.StatusCode != http.StatusLoopDetected {
		t.Errorf("request with our own Via: %d, want 508", res.StatusCode)
	}
	if s := g.Stats(); s.Allowed+s.Blocked != 0 || len(b.enqueuedURLs()) != 0 {
		t.Errorf("self requests reached the lists: %+v, enqueued %q", s, b.enqueuedURLs())
	}
}

// TestMaxConns: beyond MaxConns a connection gets 503 and is closed; once
// a slot frees, new connections are served again.
func TestMaxConns(t *testing.T) {
	g, addr := startGateway(t, Config{MaxConns: 2}, newFilter(t), &recBackend{})
	hold := func() (net.Conn, *bufio.Reader) {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		c.SetDeadline(time.Now().Add(5 * time.Second))
		return c, bufio.NewReader(c)
	}
	ask := func(c net.Conn, br *bufio.Reader) int {
		io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
		res, err := http.ReadResponse(br, nil)
		if err != nil {
			return 0
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res.StatusCode
	}
	c1, b1 := hold()
	c2, b2 := hold()
	defer c2.Close()
	if s1, s2 := ask(c1, b1), ask(c2, b2); s1 != 400 || s2 != 400 {
		t.Fatalf("first two connections: %d %d, want 400 400", s1, s2)
	}
	c3, b3 := hold()
	defer c3.Close()
	if s := ask(c3, b3); s != 503 {
		t.Errorf("third connection: %d, want 503", s)
	}
	if _, err := b3.ReadByte(); err == nil {
		t.Error("refused connection left open")
	}
	if n := g.Stats().ConnsRefused; n != 1 {
		t.Errorf("ConnsRefused = %d", n)
	}
	c1.Close()
	waitFor(t, "a slot to free", func() bool {
		c, br := hold()
		defer c.Close()
		return ask(c, br) == 400
	})
}

// TestShutdown: cancelling Serve's context closes open tunnels and Serve
// returns nil promptly.
func TestShutdown(t *testing.T) {
	target, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer target.Close()
	go func() {
		for {
			c, err := target.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	g := newTestGateway(t, Config{}, newFilter(t), &recBackend{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- g.Serve(ctx, ln) }()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	io.WriteString(c, "CONNECT "+target.Addr().String()+" HTTP/1.1\r\nHost: x\r\n\r\n")
	br := bufio.NewReader(c)
	if s, _ := br.ReadString('\n'); !strings.Contains(s, "200") {
		t.Fatalf("CONNECT: %q", s)
	}
	waitFor(t, "the tunnel to open", func() bool { return g.Stats().TunnelsOpen == 1 })
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("Serve did not return after its context ended")
	}
	br.ReadString('\n')
	if _, err := br.ReadByte(); err == nil {
		t.Error("tunnel still open after shutdown")
	}
	if err := g.Serve(context.Background(), ln); err == nil {
		t.Error("second Serve accepted")
	}
}

// FuzzRequest feeds raw bytes to the gateway as a request over a real
// loopback connection: it must answer or close, never hang or panic. The
// gateway can reach nothing (every dial is refused, unknown is Block), so
// fuzzing never leaves the machine.
func FuzzRequest(f *testing.F) {
	for _, s := range []string{
		"GET http://example.com/ HTTP/1.1\r\nHost: example.com\r\n\r\n",
		"CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n",
		"CONNECT bad.example:443 HTTP/1.1\r\n\r\n",
		"CONNECT foo HTTP/1.1\r\n\r\n",
		"GET / HTTP/1.1\r\nHost: x\r\n\r\n",
		"POST http://trawler-gateway.invalid/report HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 20\r\n\r\nurl=x&token=00&list=",
		"POST /report HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\na=b",
		"GET http://white.example/ HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
		"GET http://bad.example/ HTTP/1.0\r\n\r\nGET http://x/ HTTP/1.1\r\n\r\n",
		"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03",
	} {
		f.Add([]byte(s))
	}
	logs := &logRec{}
	g, err := New(Config{Unknown: Block, ReadHeaderTimeout: time.Second, Logger: slog.New(logs)},
		newFilter(f, "black bad.example", "white white.example"), &recBackend{})
	if err != nil {
		f.Fatal(err)
	}
	g.local.dialer.Resolver, g.remote.dialer.Resolver = noDNS, noDNS
	g.dialCheck = func(a string) error { return errors.New("fuzzing dials nothing") }
	addr := serve(f, g)
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(5 * time.Second))
		c.Write(data)
		c.(*net.TCPConn).CloseWrite()
		got, err := io.ReadAll(c)
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			t.Fatalf("no answer and not closed for %q", data)
		}
		if len(got) > 0 && !bytes.HasPrefix(got, []byte("HTTP/1.")) {
			t.Fatalf("answer is not HTTP: %q", got)
		}
		if p := logs.find("panic"); len(p) > 0 {
			t.Fatalf("gateway panicked on %q: %s", data, p[0])
		}
	})
}
