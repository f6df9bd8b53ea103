package feed

import (
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/trawler/trawler/db"
	"github.com/trawler/trawler/gateway"
	"github.com/trawler/trawler/gateway/gatewaytest"
	"github.com/trawler/trawler/urlfilter"
)

// TestGatewayDecidesByTheCrawl is paper 002's loop, end to end: the
// crawl's verdicts and the entries people added decide what a real client
// gets through the gateway; an unknown URL passes once, is crawled
// through the priority lane and is decided by its verdict from then on.
func TestGatewayDecidesByTheCrawl(t *testing.T) {
	o := newOrigin(t)
	path := filepath.Join(t.TempDir(), "trawler.db")
	d, id := crawled(t, o, path, "black blocked.example adult")
	defer d.Close()
	w := start(t, o, path, d, id, gateway.Config{Listen: "127.0.0.1:0", Policy: policyFor(t, "127.0.0.2/32", "grey")})
	c := w.client("127.0.0.1")

	// Black by its verdict: a 403 that names the entry and the words, and
	// the origin never sees the request.
	before := o.count("/bad")
	status, page := w.get(c, o.URL+"/bad")
	if status != 403 || o.count("/bad") != before {
		t.Fatalf("/bad: %d, origin asked %d times more", status, o.count("/bad")-before)
	}
	for _, want := range []string{o.URL + "/bad", "casino", "poker", "jackpot", "Casino tonight"} {
		if !strings.Contains(strings.ToLower(page), strings.ToLower(want)) {
			t.Errorf("the block page does not say %q:\n%s", want, page)
		}
	}
	// White by its verdict: passed through.
	if status, body := w.get(c, o.URL+"/good"); status != 200 || !strings.Contains(body, "Roses") {
		t.Errorf("/good: %d %q", status, body)
	}
	// A host entry covers its subdomains, decided before any lookup of the name.
	if status, page := w.get(c, "http://www.blocked.example/x"); status != 403 || !strings.Contains(page, "blocked.example") {
		t.Errorf("subdomain of a black host: %d", status)
	}

	// Unknown: passes the first time, goes through the priority lane, and
	// its verdict (black) decides the next request.
	if status, _ := w.get(c, o.URL+"/new"); status != 200 {
		t.Fatalf("/new the first time: %d", status)
	}
	waitFor(t, "the gateway's crawler to fetch /new", func() bool { return o.count("/new") == 2 })
	waitFor(t, "/new's verdict to reach the lists", func() bool {
		return w.feed.Filter().Lookup(o.URL+"/new").List == urlfilter.Black
	})
	if status, page := w.get(c, o.URL+"/new"); status != 403 || !strings.Contains(strings.ToLower(page), "roulette") {
		t.Errorf("/new once judged: %d", status)
	}
	if n := o.count("/new"); n != 2 {
		t.Errorf("the origin served /new %d times, want 2 (the first request, the crawler)", n)
	}

	// "This is a mistake" is recorded for review.
	_, page = w.get(c, o.URL+"/bad")
	form := gatewaytest.FormFields(t, page)
	form.Set("comment", "it is a card club")
	res, err := c.PostForm("http://"+gateway.ReservedHost+"/report", form)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("report: %v %v", err, res)
	}
	res.Body.Close()
	reps, err := d.Reports(t.Context(), true, 10)
	if err != nil || len(reps) != 1 || reps[0].URL != o.URL+"/bad" || reps[0].Comment != "it is a card club" {
		t.Errorf("reports %+v (%v)", reps, err)
	}

	// A per-client rule: grey pages (/meh has one listed word, under the
	// threshold) are blocked for 127.0.0.2 only.
	strict := w.client("127.0.0.2")
	if status, _ := w.get(c, o.URL+"/meh"); status != 200 {
		t.Errorf("grey /meh for 127.0.0.1: %d", status)
	}
	if status, page := w.get(strict, o.URL+"/meh"); status != 403 || !strings.Contains(page, "strict") {
		t.Errorf("grey /meh for 127.0.0.2: %d", status)
	}
	if status, _ := w.get(strict, o.URL+"/good"); status != 200 {
		t.Errorf("white /good for 127.0.0.2: %d", status)
	}
}

// TestAgedVerdict: a verdict older than MaxAge counts as unknown, so the
// page goes back through the lane and its verdict is renewed. The page's
// crawl is moved an hour short of MaxAge into the past, then the feed's
// clock two hours on: moving the page to just short of MaxAge raced the
// feed's own steps, which can pass that moment before the move is stored.
func TestAgedVerdict(t *testing.T) {
	o := newOrigin(t)
	path := filepath.Join(t.TempDir(), "trawler.db")
	d, id := crawled(t, o, path)
	defer d.Close()
	var ahead atomic.Int64
	clock := func() time.Time { return time.Now().Add(time.Duration(ahead.Load())) }
	w := start(t, o, path, d, id, gateway.Config{Listen: "127.0.0.1:0", Now: clock})
	c := w.client("127.0.0.1")
	good := o.URL + "/good"
	if w.get(c, good); w.lastDecision(good).Entry.List != urlfilter.White {
		t.Fatalf("/good before ageing: %+v", w.lastDecision(good))
	}
	fetched := o.count("/good")
	w.backdate(good, time.Now().Add(-DefaultMaxAge+time.Hour))
	time.Sleep(100 * time.Millisecond) // several of the feed's steps
	if !w.feed.Filter().Lookup(good).Found() {
		t.Fatal("/good aged out an hour before its time")
	}
	ahead.Store(int64(2 * time.Hour))
	waitFor(t, "the verdict to age out", func() bool { return !w.feed.Filter().Lookup(good).Found() })
	if status, _ := w.get(c, good); status != 200 || w.lastDecision(good).Entry.List != urlfilter.None {
		t.Fatalf("/good once aged: %d %+v", status, w.lastDecision(good))
	}
	waitFor(t, "the lane to fetch /good again", func() bool { return o.count("/good") == fetched+2 })
	waitFor(t, "the renewed verdict", func() bool { return w.feed.Filter().Lookup(good).List == urlfilter.White })
}

// TestConnect: HTTPS is decided by host; a black host gets a 403 to its
// CONNECT, another tunnels to the real TLS server.
func TestConnect(t *testing.T) {
	o := newOrigin(t)
	tlsSrv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("secure hello")) }))
	defer tlsSrv.Close()
	path := filepath.Join(t.TempDir(), "trawler.db")
	d, id := crawled(t, o, path, "black localhost")
	defer d.Close()
	w := start(t, o, path, d, id, gateway.Config{Listen: "127.0.0.1:0"})
	proxy, _ := url.Parse("http://" + w.addr)
	tr := tlsSrv.Client().Transport.(*http.Transport).Clone()
	tr.Proxy = http.ProxyURL(proxy)
	tr.TLSClientConfig = &tls.Config{RootCAs: tr.TLSClientConfig.RootCAs, ServerName: "127.0.0.1"}
	c := &http.Client{Transport: tr}
	if status, body := w.get(c, tlsSrv.URL); status != 200 || body != "secure hello" {
		t.Errorf("tunnel: %d %q", status, body)
	}
	blocked := strings.Replace(tlsSrv.URL, "127.0.0.1", "localhost", 1)
	if _, err := c.Get(blocked); err == nil || !strings.Contains(err.Error(), "Forbidden") {
		t.Errorf("CONNECT to a black host: %v", err)
	}
}

// TestListsSurviveRestart: entries and verdicts are in the database; a
// new feed over the reopened file decides as before.
func TestListsSurviveRestart(t *testing.T) {
	o := newOrigin(t)
	path := filepath.Join(t.TempDir(), "trawler.db")
	d, id := crawled(t, o, path, "black blocked.example", "white "+o.URL+"/bad")
	d.Close()
	d, err := db.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	f := New(Config{Crawl: id}, d)
	if err := f.Load(t.Context()); err != nil {
		t.Fatal(err)
	}
	for u, want := range map[string]urlfilter.List{
		"http://a.blocked.example/": urlfilter.Black,
		o.URL + "/bad":              urlfilter.White, // a person's entry outweighs the verdict
		o.URL + "/good":             urlfilter.White,
		o.URL + "/nowhere":          urlfilter.None,
	} {
		if got := f.Filter().Lookup(u).List; got != want {
			t.Errorf("%s: %v, want %v", u, got, want)
		}
	}
}
