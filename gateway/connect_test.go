package gateway

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// tlsOrigin is an httptest TLS server and a client that trusts it and
// goes through the gateway at addr.
func tlsOrigin(t *testing.T, addr, body string) (*httptest.Server, *http.Client, *atomic.Int64) {
	t.Helper()
	var conns atomic.Int64
	ts := httptest.NewUnstartedServer(text(body))
	ts.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	ts.StartTLS()
	t.Cleanup(ts.Close)
	tr := ts.Client().Transport.(*http.Transport).Clone()
	pu, _ := url.Parse("http://" + addr)
	tr.Proxy = http.ProxyURL(pu)
	t.Cleanup(tr.CloseIdleConnections)
	return ts, &http.Client{Transport: tr, Timeout: 10 * time.Second}, &conns
}

// TestConnect: an allowed host is tunnelled to a real TLS server (the
// body arrives, the certificate checks out end to end); a black one gets
// a bare 403 and the server is never dialled.
func TestConnect(t *testing.T) {
	for _, c := range []struct {
		name    string
		lists   []string
		unknown Action
		status  int // 0: the request succeeds
		enqueue bool
	}{
		{"unknown host tunnels", nil, Allow, 0, true},
		{"white host tunnels", []string{"white 127.0.0.1"}, Block, 0, false},
		{"black host refused", []string{"black 127.0.0.1 adult"}, Allow, 403, false},
		{"unknown under Block refused", nil, Block, 403, true},
		{"path entries do not apply", []string{"black 127.0.0.1/private"}, Allow, 0, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := &recBackend{}
			g, addr := startGateway(t, Config{Unknown: c.unknown}, newFilter(t, c.lists...), b)
			ts, client, conns := tlsOrigin(t, addr, "over TLS")
			res, err := client.Get(ts.URL + "/private")
			if c.status == 0 {
				if err != nil {
					t.Fatal(err)
				}
				body, _ := io.ReadAll(res.Body)
				res.Body.Close()
				if string(body) != "over TLS" {
					t.Errorf("body %q", body)
				}
				if s := g.Stats(); s.Tunnels != 1 {
					t.Errorf("Tunnels = %d, want 1", s.Tunnels)
				}
			} else {
				if err == nil || !strings.Contains(err.Error(), "Forbidden") {
					t.Fatalf("err = %v, want a 403 from the proxy", err)
				}
				if n := conns.Load(); n != 0 {
					t.Errorf("origin got %d connections", n)
				}
			}
			if c.enqueue {
				b.waitEnqueued(t, "https://"+ts.Listener.Addr().String()+"/")
			}
		})
	}
}

// TestConnectRaw: the bare 403 has no body; an eager client's bytes sent
// right after CONNECT reach the target; the tunnel closes when the target
// does, and tunnels are counted while open.
func TestConnectRaw(t *testing.T) {
	echo, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer echo.Close()
	go func() {
		for {
			c, err := echo.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				line, _ := bufio.NewReader(c).ReadString('\n')
				io.WriteString(c, "echo: "+line)
			}()
		}
	}()
	g, addr := startGateway(t, Config{}, newFilter(t, "black blocked.example"), &recBackend{})

	res, body := raw(t, addr, "CONNECT blocked.example:443 HTTP/1.1\r\nHost: blocked.example:443\r\n\r\n")
	if res.StatusCode != 403 || body != "" {
		t.Errorf("black CONNECT: %d %q", res.StatusCode, body)
	}

	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	target := echo.Addr().String()
	io.WriteString(c, "CONNECT "+target+" HTTP/1.1\r\nHost: "+target+"\r\n\r\nhello\n")
	br := bufio.NewReader(c)
	status, _ := br.ReadString('\n')
	if status != "HTTP/1.1 200 Connection established\r\n" {
		t.Fatalf("status line %q", status)
	}
	br.ReadString('\n') // blank line
	if got, _ := br.ReadString('\n'); got != "echo: hello\n" {
		t.Errorf("through the tunnel: %q", got)
	}
	if _, err := br.ReadByte(); err != io.EOF {
		t.Errorf("tunnel still open after the target closed: %v", err)
	}
	waitFor(t, "tunnel count back to 0", func() bool { return g.Stats().TunnelsOpen == 0 })
}

// TestTunnelIdle: a tunnel with no traffic either way is closed after
// IdleTimeout; one with traffic in one direction only is not.
func TestTunnelIdle(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { // a server that talks, once a tick, when asked to
				defer c.Close()
				var b [1]byte
				if _, err := c.Read(b[:]); err != nil || b[0] != 't' {
					return
				}
				for range 6 {
					time.Sleep(250 * time.Millisecond)
					if _, err := c.Write([]byte(".")); err != nil {
						return
					}
				}
			}()
		}
	}()
	_, addr := startGateway(t, Config{IdleTimeout: time.Second}, newFilter(t), &recBackend{})
	open := func(first string) (net.Conn, *bufio.Reader) {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		c.SetDeadline(time.Now().Add(5 * time.Second))
		io.WriteString(c, "CONNECT "+ln.Addr().String()+" HTTP/1.1\r\nHost: x\r\n\r\n"+first)
		br := bufio.NewReader(c)
		if s, _ := br.ReadString('\n'); !strings.Contains(s, " 200 ") {
			t.Fatalf("CONNECT: %q", s)
		}
		br.ReadString('\n')
		return c, br
	}
	_, br := open("") // silent both ways
	start := time.Now()
	if _, err := br.ReadByte(); err != io.EOF {
		t.Errorf("idle tunnel: read %v, want EOF", err)
	}
	if d := time.Since(start); d < 900*time.Millisecond || d > 4*time.Second {
		t.Errorf("idle tunnel closed after %v, want about 1s", d)
	}
	_, br = open("t") // the server talks for 1.5s, the client never
	got, _ := io.ReadAll(br)
	if string(got) != "......" {
		t.Errorf("one-way tunnel cut short: got %q", got)
	}
}

// TestConnectSelf: a CONNECT to the gateway's own address is refused
// with 508 at dial time instead of looping.
func TestConnectSelf(t *testing.T) {
	g, addr := startGateway(t, Config{}, newFilter(t), &recBackend{})
	res, _ := raw(t, addr, "CONNECT "+addr+" HTTP/1.1\r\nHost: "+addr+"\r\n\r\n")
	if res.StatusCode != http.StatusLoopDetected {
		t.Errorf("status %d, want 508", res.StatusCode)
	}
	if s := g.Stats(); s.Tunnels != 0 || s.Errors != 1 {
		t.Errorf("stats %+v", s)
	}
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if ok() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}
