package feed

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/db"
	"github.com/trawler/trawler/gateway"
	"github.com/trawler/trawler/urlfilter"
)

// site is the origin the people behind the gateway ask for. /new is
// linked from nowhere: the crawl never meets it, the gateway does.
var site = map[string]string{
	"/":     `<title>Home</title><a href="/bad">a</a> <a href="/good">b</a> <a href="/meh">c</a>`,
	"/bad":  `<title>Casino</title><p>Casino tonight: poker and the jackpot.</p>`,
	"/good": `<title>Garden</title><p>Roses and tulips.</p>`,
	"/meh":  `<title>Cards</title><p>Poker night at the club.</p>`,
	"/new":  `<title>New</title><p>A new CASINO with roulette.</p>`,
}

// origin serves site and counts the requests for each path.
type origin struct {
	*httptest.Server
	mu   sync.Mutex
	hits map[string]int
}

func newOrigin(t *testing.T) *origin {
	o := &origin{hits: map[string]int{}}
	o.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		o.mu.Lock()
		o.hits[r.URL.Path]++
		o.mu.Unlock()
		doc, ok := site[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, doc)
	}))
	t.Cleanup(o.Close)
	return o
}

func (o *origin) count(path string) int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.hits[path]
}

// world is a crawled site, a database, a feed, the gateway's crawler and
// the gateway, all real, on loopback.
type world struct {
	t    *testing.T
	path string
	d    *db.DB
	id   int64
	site *origin
	feed *Feed
	gw   *gateway.Gateway
	addr string
}

// crawled creates a database at path with one crawl of the site judged by
// testdata/gambling.txt, and the given entries on the lists.
func crawled(t *testing.T, o *origin, path string, entries ...string) (*db.DB, int64) {
	t.Helper()
	d, err := db.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg := crawl.DefaultConfig()
	cfg.Seeds, cfg.Robots, cfg.Threads = []string{o.URL + "/"}, false, 2
	lists, _ := filepath.Abs("testdata/gambling.txt")
	cfg.WordLists = []string{lists}
	id, err := d.CreateCrawl(context.Background(), "site", cfg)
	if err != nil {
		t.Fatal(err)
	}
	e, err := crawl.New(cfg, d.Crawl(id))
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, line := range entries {
		list, rest, _ := strings.Cut(line, " ")
		l, _ := urlfilter.ParseList(list)
		en, err := urlfilter.ParseEntry(l, rest)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.AddListEntries(context.Background(), db.SourceManual, "", []urlfilter.Entry{en}); err != nil {
			t.Fatal(err)
		}
	}
	return d, id
}

// start runs a feed, the gateway's crawler and the gateway over d.
func start(t *testing.T, o *origin, path string, d *db.DB, id int64, cfg gateway.Config) *world {
	t.Helper()
	srv, err := Start(context.Background(), d, Options{Gateway: cfg, Crawl: id, CrawlUnknown: true, Poll: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Stop() })
	return &world{t: t, path: path, d: d, id: id, site: o, feed: srv.Feed(), gw: srv.Gateway(), addr: srv.Gateway().Addr().String()}
}

// client asks through the gateway from the loopback address from.
func (w *world) client(from string) *http.Client {
	proxy, _ := url.Parse("http://" + w.addr)
	dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
	return &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxy), DialContext: dialer.DialContext}}
}

func (w *world) get(c *http.Client, u string) (int, string) {
	w.t.Helper()
	res, err := c.Get(u)
	if err != nil {
		w.t.Fatalf("GET %s: %v", u, err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(body)
}

// waitFor polls cond until it holds; the deadline only guards against a hang.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// backdate sets the time a page was crawled, as if long ago.
func (w *world) backdate(rawURL string, at time.Time) {
	w.t.Helper()
	raw, err := sql.Open("sqlite", "file:"+w.path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		w.t.Fatal(err)
	}
	defer raw.Close()
	res, err := raw.Exec(`UPDATE pages SET fetched_at = ? WHERE crawl_id = ? AND url = ?`, at.UnixNano(), w.id, rawURL)
	if n, _ := res.RowsAffected(); err != nil || n != 1 {
		w.t.Fatalf("backdate %s: %v (%d rows)", rawURL, err, n)
	}
}

// lastDecision is the gateway's latest decision on target.
func (w *world) lastDecision(target string) gateway.Decision {
	for _, d := range w.gw.Recent(100) {
		if d.Target == target {
			return d
		}
	}
	return gateway.Decision{}
}

func policyFor(t *testing.T, client string, block ...string) *gateway.Policy {
	t.Helper()
	toml := fmt.Sprintf("[[rule]]\nname = \"strict\"\nclients = [%q]\nblock = [%q]\n", client, strings.Join(block, `", "`))
	p, err := gateway.ParsePolicy("policy.toml", strings.NewReader(toml))
	if err != nil {
		t.Fatal(err)
	}
	return p
}
