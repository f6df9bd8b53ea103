package gateway

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/trawler/trawler/gateway/gatewaytest"
	"github.com/trawler/trawler/urlfilter"
)

// TestDecisions drives the gateway with a real client against real
// origins: black blocks before the origin sees anything, white and unknown
// pass, unknown is enqueued, and host entries cover subdomains.
func TestDecisions(t *testing.T) {
	black := newOrigin(t, "127.0.0.1", text("secret"))
	white := newOrigin(t, "127.0.0.2", text("hello from white"))
	unknown := newOrigin(t, "127.0.0.3", text("hello from unknown"))
	lists := newFilter(t,
		"black "+black.URL+"/secret",
		"white 127.0.0.2",
		"black bad.example gambling",
	)
	for _, c := range []struct {
		name    string
		mode    Action
		url     string
		origin  *origin
		status  int
		body    string // substring expected in the answer
		enqueue bool
	}{
		{"black URL", Allow, black.URL + "/secret", black, 403, "http://127.0.0.1", false},
		{"black URL under Block", Block, black.URL + "/secret", black, 403, "This page is blocked", false},
		{"white host", Allow, white.URL + "/page", white, 200, "hello from white", false},
		{"white host under Block", Block, white.URL + "/page", white, 200, "hello from white", false},
		{"unknown first time", Allow, unknown.URL + "/new", unknown, 200, "hello from unknown", true},
		{"unknown under Block", Block, unknown.URL + "/new", unknown, 403, "being checked", true},
		{"host entry", Allow, "http://bad.example/", nil, 403, "host bad.example", false},
		{"subdomain of host entry", Allow, "http://www.casino.bad.example/x", nil, 403, "host bad.example", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := &recBackend{}
			_, addr := startGateway(t, Config{Unknown: c.mode}, lists, b)
			var before int64
			if c.origin != nil {
				before = c.origin.hits.Load()
			}
			status, body := get(t, proxyClient(t, addr, ""), c.url)
			if status != c.status || !strings.Contains(body, c.body) {
				t.Fatalf("GET %s: %d %q, want %d containing %q", c.url, status, body, c.status, c.body)
			}
			if c.origin != nil {
				want := before
				if status == 200 {
					want++
				}
				if got := c.origin.hits.Load(); got != want {
					t.Errorf("origin saw %d requests, want %d", got-before, want-before)
				}
			}
			if c.enqueue {
				b.waitEnqueued(t, c.url)
			} else if e := b.enqueuedURLs(); len(e) > 0 {
				t.Errorf("enqueued %q for a listed URL", e)
			}
		})
	}
}

// blocked fetches a black-listed URL through a fresh gateway whose
// backend explains the entry as a verdict.
func blocked(t *testing.T) (g *Gateway, b *recBackend, c *http.Client, addr, page string, o *origin) {
	t.Helper()
	o = newOrigin(t, "127.0.0.1", text("should not be seen"))
	b = &recBackend{explain: Explanation{
		Source: "verdict", Score: 0.93, Category: "gambling",
		Terms:     []TermCount{{"casino", 12}, {"jackpot", 5}},
		Snippet:   `<script>alert(1)</script> Win big at the casino`,
		CrawledAt: time.Date(2025, 3, 4, 10, 30, 0, 0, time.UTC),
	}}
	g, addr = startGateway(t, Config{}, newFilter(t, "black 127.0.0.1/casino gambling"), b)
	c = proxyClient(t, addr, "")
	status, page := get(t, c, o.URL+"/casino/table?x=<b>")
	if status != 403 {
		t.Fatalf("status %d, want 403", status)
	}
	return g, b, c, addr, page, o
}

// TestBlockPage: the page names the entry and shows Explain's words,
// score, date and snippet, all escaped; the origin never sees the request.
func TestBlockPage(t *testing.T) {
	_, b, _, _, page, o := blocked(t)
	for _, want := range []string{
		"black list entry <code>prefix 127.0.0.1/casino</code>", "<b>gambling</b>",
		"<td>casino</td><td>12</td>", "<td>jackpot</td><td>5</td>", "0.93", "2025-03-04 10:30",
		"&lt;script&gt;alert(1)&lt;/script&gt; Win big", "This is a mistake",
		`action="http://trawler-gateway.invalid/report"`, "x=&lt;b&gt;",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("block page lacks %q:\n%s", want, page)
		}
	}
	if strings.Contains(page, "<script>") {
		t.Error("block page carries the snippet unescaped")
	}
	if o.hits.Load() != 0 {
		t.Errorf("origin saw %d requests for a blocked URL", o.hits.Load())
	}
	if len(b.explained) != 1 {
		t.Errorf("Explain called %d times, want 1", len(b.explained))
	}
}

// TestReport: the block page's form files a Report through the proxy, or
// posted straight to the gateway; a tampered form is refused.
func TestReport(t *testing.T) {
	g, b, c, addr, page, _ := blocked(t)
	form := gatewaytest.FormFields(t, page)
	form.Set("comment", "a card games club, not gambling")
	res, err := c.PostForm("http://trawler-gateway.invalid/report", form)
	if err != nil {
		t.Fatal(err)
	}
	thanks, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !bytes.Contains(thanks, []byte("Thank you")) {
		t.Fatalf("report: %d %s", res.StatusCode, thanks)
	}
	reps := b.reportList()
	if len(reps) != 1 {
		t.Fatalf("%d reports recorded, want 1", len(reps))
	}
	r := reps[0]
	if r.URL != form.Get("url") || !strings.HasSuffix(r.URL, "/casino/table?x=<b>") || r.Entry != "127.0.0.1/casino" ||
		r.List != urlfilter.Black || r.Kind != urlfilter.KindPrefix || r.Category != "gambling" ||
		r.Client != "127.0.0.1" || r.Comment != "a card games club, not gambling" || r.At.IsZero() {
		t.Errorf("report = %+v", r)
	}
	for _, c := range []struct {
		name   string
		client *http.Client
		url    string
		edit   func()
		want   int
	}{
		{"straight to the gateway", http.DefaultClient, "http://" + addr + "/report", func() {}, 200},
		{"tampered entry", c, "http://trawler-gateway.invalid/report", func() { form.Set("entry", "127.0.0.1") }, 400},
		{"no token", c, "http://trawler-gateway.invalid/report", func() { form.Del("token") }, 400},
	} {
		c.edit()
		res, err := c.client.PostForm(c.url, form)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != c.want {
			t.Errorf("%s: %d, want %d", c.name, res.StatusCode, c.want)
		}
	}
	if n := len(b.reportList()); n != 2 || g.Stats().Reports != 2 {
		t.Errorf("%d reports recorded (stats %d), want 2", n, g.Stats().Reports)
	}
	if res, err := c.Get("http://trawler-gateway.invalid/report"); err != nil || res.StatusCode != 405 {
		t.Errorf("GET /report: %v %v, want 405", res.StatusCode, err)
	}
}

// TestBlockPageWithoutExplanation: Explain failing still gives a page.
func TestBlockPageWithoutExplanation(t *testing.T) {
	b := &recBackend{explainErr: fmt.Errorf("database is locked")}
	_, addr := startGateway(t, Config{}, newFilter(t, "black bad.example"), b)
	status, page := get(t, proxyClient(t, addr, ""), "http://bad.example/")
	if status != 403 || !strings.Contains(page, "host bad.example") || !strings.Contains(page, "not available") {
		t.Errorf("%d %s", status, page)
	}
}

// TestHopByHop: connection-scoped headers stop at the gateway both ways;
// end-to-end ones pass; Via is added both ways.
func TestHopByHop(t *testing.T) {
	seen := make(chan http.Header, 1)
	o := newOrigin(t, "127.0.0.1", func(w http.ResponseWriter, r *http.Request) {
		seen <- r.Header.Clone()
		w.Header().Set("Connection", "X-Resp-Hop")
		w.Header().Set("X-Resp-Hop", "1")
		w.Header().Set("Keep-Alive", "timeout=5")
		w.Header().Set("X-End", "kept")
		io.WriteString(w, "ok")
	})
	_, addr := startGateway(t, Config{}, newFilter(t), &recBackend{})
	res, body := raw(t, addr, "GET "+o.URL+"/h?a=1;b=2 HTTP/1.1\r\nHost: x\r\n"+
		"Connection: keep-alive, X-Req-Hop\r\nX-Req-Hop: 1\r\nProxy-Connection: keep-alive\r\n"+
		"Proxy-Authorization: Basic Zm9vOmJhcg==\r\nKeep-Alive: 300\r\nX-End: kept\r\n\r\n")
	if res.StatusCode != 200 || body != "ok" {
		t.Fatalf("%d %q", res.StatusCode, body)
	}
	h := <-seen
	for _, k := range []string{"X-Req-Hop", "Proxy-Connection", "Proxy-Authorization", "Keep-Alive", "Connection"} {
		if v := h.Get(k); v != "" {
			t.Errorf("origin saw %s: %s", k, v)
		}
	}
	if h.Get("X-End") != "kept" || !strings.Contains(h.Get("Via"), "1.1 trawler-") {
		t.Errorf("origin headers: %v", h)
	}
	for _, k := range []string{"X-Resp-Hop", "Keep-Alive"} {
		if v := res.Header.Get(k); v != "" {
			t.Errorf("client saw %s: %s", k, v)
		}
	}
	if res.Header.Get("X-End") != "kept" || !strings.Contains(res.Header.Get("Via"), "trawler-") {
		t.Errorf("client headers: %v", res.Header)
	}
}

// TestQueryKept: the query string reaches the origin byte for byte, even
// the forms net/http's reverse proxy would re-encode.
func TestQueryKept(t *testing.T) {
	got := make(chan string, 1)
	o := newOrigin(t, "127.0.0.1", func(w http.ResponseWriter, r *http.Request) { got <- r.URL.RawQuery })
	_, addr := startGateway(t, Config{}, newFilter(t), &recBackend{})
	const q = "b=2;a=1&c=%zz"
	res, _ := raw(t, addr, "GET "+o.URL+"/?"+q+" HTTP/1.1\r\nHost: x\r\n\r\n")
	if res.StatusCode != 200 {
		t.Fatalf("status %d", res.StatusCode)
	}
	if q2 := <-got; q2 != q {
		t.Errorf("origin got query %q, want %q", q2, q)
	}
}

// TestStreaming: bodies move both ways without being held: the first
// chunk of an unfinished response reaches the client, and large bodies
// arrive intact.
func TestStreaming(t *testing.T) {
	release := make(chan struct{})
	big := bytes.Repeat([]byte("0123456789abcdef"), 1<<19) // 8 MiB
	o := newOrigin(t, "127.0.0.1", func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/slow":
			io.WriteString(w, "first\n")
			w.(http.Flusher).Flush()
			select {
			case <-release:
			case <-time.After(10 * time.Second):
			}
			io.WriteString(w, "second\n")
		case "/echo":
			h := sha256.New()
			io.Copy(h, r.Body)
			fmt.Fprintf(w, "%x", h.Sum(nil))
		default:
			w.Write(big)
		}
	})
	_, addr := startGateway(t, Config{}, newFilter(t), &recBackend{})
	c := proxyClient(t, addr, "")
	res, err := c.Get(o.URL + "/slow")
	if err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(res.Body).ReadString('\n')
	if err != nil || line != "first\n" {
		t.Fatalf("first chunk: %q %v", line, err)
	}
	close(release)
	res.Body.Close()

	if status, body := get(t, c, o.URL+"/big"); status != 200 || body != string(big) {
		t.Errorf("big body: status %d, %d bytes (want %d)", status, len(body), len(big))
	}
	res, err = c.Post(o.URL+"/echo", "application/octet-stream", bytes.NewReader(big))
	if err != nil {
		t.Fatal(err)
	}
	sum, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if want := fmt.Sprintf("%x", sha256.Sum256(big)); string(sum) != want {
		t.Errorf("upload hash %s, want %s", sum, want)
	}
}

// TestUpstreamFailure: an unreachable origin is a one-line 502, counted.
func TestUpstreamFailure(t *testing.T) {
	o := newOrigin(t, "127.0.0.1", text(""))
	dead := o.URL
	o.Close()
	g, addr := startGateway(t, Config{}, newFilter(t), &recBackend{})
	status, body := get(t, proxyClient(t, addr, ""), dead+"/")
	if status != 502 || !strings.HasPrefix(body, "gateway: bad gateway") || strings.Count(body, "\n") != 1 {
		t.Errorf("%d %q", status, body)
	}
	if s := g.Stats(); s.Errors != 1 || s.Allowed != 1 {
		t.Errorf("stats %+v", s)
	}
}

// TestClientCancel: a client that gives up cancels the origin's request.
func TestClientCancel(t *testing.T) {
	gone := make(chan struct{})
	o := newOrigin(t, "127.0.0.1", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "start\n")
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
			close(gone)
		case <-time.After(10 * time.Second):
		}
	})
	_, addr := startGateway(t, Config{}, newFilter(t), &recBackend{})
	res, err := proxyClient(t, addr, "").Get(o.URL + "/long")
	if err != nil {
		t.Fatal(err)
	}
	bufio.NewReader(res.Body).ReadString('\n')
	res.Body.Close() // the client hangs up mid-body
	select {
	case <-gone:
	case <-time.After(5 * time.Second):
		t.Fatal("origin request not cancelled after the client left")
	}
}

// TestRequestTimeout: an origin that never answers gets a 504 after
// RequestTimeout.
func TestRequestTimeout(t *testing.T) {
	o := newOrigin(t, "127.0.0.1", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	})
	g, addr := startGateway(t, Config{RequestTimeout: 200 * time.Millisecond}, newFilter(t), &recBackend{})
	start := time.Now()
	status, body := get(t, proxyClient(t, addr, ""), o.URL+"/")
	if status != 504 || !strings.Contains(body, "timeout") {
		t.Errorf("%d %q, want 504", status, body)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("took %v", d)
	}
	if rec := g.Recent(1); rec[0].Status != 504 || rec[0].Err == "" {
		t.Errorf("decision %+v", rec[0])
	}
}
