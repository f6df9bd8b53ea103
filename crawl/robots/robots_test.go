package robots_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/trawler/trawler/crawl/robots"
)

const rulesTxt = `# test rules
User-agent: *
Disallow: /private/
Allow: /private/open/
Disallow: /*.pdf$
Disallow: /search?

User-agent: Trawler
Disallow: /no-trawler/
Allow: /no-trawler/yes
Disallow: /tmp
Crawl-delay: 2

User-agent: OtherBot
Disallow: /

User-agent: Unicode
Disallow: /café
`

func TestCheckRules(t *testing.T) {
	s := newSite(t, http.StatusOK, rulesTxt)
	tests := []struct {
		agent, path string
		want        bool
	}{
		{"Trawler/0.1.0", "/", true},
		{"Trawler/0.1.0", "/robots.txt", true},
		{"Trawler/0.1.0", "/no-trawler/page", false},
		{"Trawler/0.1.0", "/no-trawler/yes", true},     // longer Allow beats Disallow
		{"Trawler/0.1.0", "/no-trawler/yes/sub", true}, // Allow is a prefix too
		{"Trawler/0.1.0", "/tmp", false},
		{"Trawler/0.1.0", "/tmpfile.html", false},
		{"Trawler/0.1.0", "/private/x", true}, // our group replaces "*"
		{"Trawler/0.1.0", "/a.pdf", true},
		{"trawler", "/no-trawler/page", false}, // agents match case-insensitively
		{"TRAWLER", "/private/x", true},
		{"SomeBot/2.0", "/private/x", false},
		{"SomeBot/2.0", "/private/open/x", true},
		{"SomeBot/2.0", "/private", true},
		{"SomeBot/2.0", "/doc/a.pdf", false},
		{"SomeBot/2.0", "/doc/a.pdf?x=1", true}, // $ anchors the end
		{"SomeBot/2.0", "/search?q=go", false},  // the query is matched too
		{"SomeBot/2.0", "/search", true},
		{"SomeBot/2.0", "/no-trawler/page", true},
		{"", "/private/x", false}, // no token: only "*" applies
		{"OtherBot", "/", false},
		{"OtherBot", "/robots.txt", true},
		{"Unicode", "/café/menu", false}, // the rule is percent-encoded to match
		{"Unicode", "/caf%C3%A9/menu", false},
		{"Unicode", "/cafe", true},
	}
	caches := map[string]*robots.Cache{}
	for _, tt := range tests {
		t.Run(tt.agent+tt.path, func(t *testing.T) {
			c := caches[tt.agent]
			if c == nil {
				c = robots.New(robots.Config{UserAgent: tt.agent}, httpFetcher(robots.MaxSize))
				caches[tt.agent] = c
			}
			if got := mustCheck(t, c, s.URL+tt.path).Allowed; got != tt.want {
				t.Errorf("agent %q, %s: allowed = %v, want %v", tt.agent, tt.path, got, tt.want)
			}
		})
	}
	if got, want := s.hits.Load(), int32(len(caches)); got != want {
		t.Errorf("robots.txt requests = %d, want %d (one per cache)", got, want)
	}
}

func TestCrawlDelay(t *testing.T) {
	s := newSite(t, http.StatusOK, "")
	tests := []struct {
		name, body  string
		max         time.Duration
		want        time.Duration
		wantIgnored int
	}{
		{"our group", "User-agent: *\nCrawl-delay: 9\n\nUser-agent: trawler\nCrawl-delay: 2\n", 0, 2 * time.Second, 0},
		{"star group", "User-agent: *\nCrawl-delay: 5\n", 0, 5 * time.Second, 0},
		{"our group has none", "User-agent: *\nCrawl-delay: 5\n\nUser-agent: Trawler\nDisallow: /x\n", 0, 0, 0},
		{"fraction", "User-agent: *\nCrawl-delay: 0.5\n", 0, 500 * time.Millisecond, 0},
		{"capped at default", "User-agent: *\nCrawl-delay: 3600\n", 0, robots.DefaultMaxCrawlDelay, 0},
		{"capped at config", "User-agent: *\nCrawl-delay: 3600\n", 10 * time.Second, 10 * time.Second, 0},
		{"none", "User-agent: *\nDisallow: /x\n", 0, 0, 0},
		{"bad value ignored", "User-agent: *\nCrawl-delay: soon\nCrawl-delay: -1\nDisallow: /x\n", 0, 0, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s.set(http.StatusOK, tt.body)
			c := newCache(nil, robots.Config{MaxCrawlDelay: tt.max})
			if got := mustCheck(t, c, s.URL+"/page").CrawlDelay; got != tt.want {
				t.Errorf("crawl delay = %v, want %v", got, tt.want)
			}
			hi, _ := c.Host(s.URL)
			if hi.CrawlDelay != tt.want || hi.Ignored != tt.wantIgnored {
				t.Errorf("Host: crawl delay %v, ignored %d; want %v, %d", hi.CrawlDelay, hi.Ignored, tt.want, tt.wantIgnored)
			}
		})
	}
}

func TestLenientParsing(t *testing.T) {
	// A rule before any User-agent line and a bad Crawl-delay make the parser
	// reject the whole file; the remaining rules must still hold.
	body := "Disallow: /orphan\nUser-agent: *\nCrawl-delay: later\nDisallow: /secret\n"
	s := newSite(t, http.StatusOK, body)
	c := newCache(nil, robots.Config{})
	for path, want := range map[string]bool{"/secret/a": false, "/orphan": true, "/ok": true} {
		if got := mustCheck(t, c, s.URL+path).Allowed; got != want {
			t.Errorf("%s: allowed = %v, want %v", path, got, want)
		}
	}
	hi, _ := c.Host(s.URL)
	if hi.Ignored != 1 || hi.RuleLines != 2 {
		t.Errorf("ignored %d, rule lines %d; want 1, 2", hi.Ignored, hi.RuleLines)
	}
}

func TestSitemaps(t *testing.T) {
	s := newSite(t, http.StatusOK, "")
	s.set(http.StatusOK, "User-agent: *\nDisallow: /x\n\nSitemap: "+s.URL+"/a.xml\nsitemap: /b.xml.gz\nSitemap: ftp://127.0.0.1/c.xml\n")
	c := newCache(nil, robots.Config{})
	got := mustCheck(t, c, s.URL+"/").Sitemaps
	want := []string{s.URL + "/a.xml", s.URL + "/b.xml.gz"}
	if !slices.Equal(got, want) {
		t.Errorf("sitemaps = %q, want %q", got, want)
	}
}

func TestStatus(t *testing.T) {
	const denyAll = "User-agent: *\nDisallow: /\n"
	tests := []struct {
		status      int
		wantAllowed bool
		wantUnavail bool
	}{
		{http.StatusOK, false, false},
		{http.StatusMultipleChoices, true, false}, // a redirect the Fetcher did not follow
		{http.StatusBadRequest, true, false},
		{http.StatusUnauthorized, true, false},
		{http.StatusForbidden, true, false},
		{http.StatusNotFound, true, false},
		{http.StatusGone, true, false},
		{http.StatusTooManyRequests, false, true},
		{http.StatusInternalServerError, false, true},
		{http.StatusServiceUnavailable, false, true},
		{599, false, true},
	}
	s := newSite(t, http.StatusOK, denyAll)
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.status), func(t *testing.T) {
			s.set(tt.status, denyAll) // the body must not count unless the status is 2xx
			clk := newClock()
			c := newCache(clk, robots.Config{})
			d, err := c.Check(context.Background(), s.URL+"/page")
			if d.Allowed != tt.wantAllowed {
				t.Errorf("allowed = %v, want %v", d.Allowed, tt.wantAllowed)
			}
			var ue *robots.UnavailableError
			if got := errors.As(err, &ue); got != tt.wantUnavail {
				t.Fatalf("err = %v, want unavailable %v", err, tt.wantUnavail)
			}
			if !tt.wantUnavail {
				return
			}
			if !errors.Is(err, robots.ErrUnavailable) || ue.Status != tt.status || !ue.RetryAt.Equal(clk.Now().Add(robots.DefaultRetryAfter)) {
				t.Errorf("err = %#v, want status %d, retry in %v", ue, tt.status, robots.DefaultRetryAfter)
			}
		})
	}
}

func TestRedirectFollowed(t *testing.T) {
	target := newSite(t, http.StatusOK, "User-agent: *\nDisallow: /moved-rule\n")
	from := httptest.NewServer(http.RedirectHandler(target.URL+"/robots.txt", http.StatusMovedPermanently))
	defer from.Close()
	c := newCache(nil, robots.Config{})
	if mustCheck(t, c, from.URL+"/moved-rule").Allowed {
		t.Errorf("rule of the redirect target not applied")
	}
}

func TestNetworkError(t *testing.T) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
			conn.Close()
		}
	}))
	defer s.Close()
	clk := newClock()
	c := newCache(clk, robots.Config{RetryAfter: 5 * time.Second})
	_, err := c.Check(context.Background(), s.URL+"/page")
	var ue *robots.UnavailableError
	if !errors.As(err, &ue) || ue.Status != 0 || ue.Err == nil || !ue.RetryAt.Equal(clk.Now().Add(5*time.Second)) {
		t.Fatalf("err = %v, want unavailable after a network error, retry in 5s", err)
	}
	if !errors.Is(err, ue.Err) {
		t.Errorf("the network error does not unwrap from %v", err)
	}
}

func TestSizeCap(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\nDisallow: /a\n")
	for b.Len() < 2*robots.MaxSize {
		b.WriteString("# " + strings.Repeat("padding ", 12) + "\n")
	}
	b.WriteString("Disallow: /b\n")
	s := newSite(t, http.StatusOK, b.String())
	for _, limit := range []int64{robots.MaxSize, 4 * robots.MaxSize} {
		t.Run(fmt.Sprint(limit), func(t *testing.T) {
			c := robots.New(robots.Config{UserAgent: "Trawler"}, httpFetcher(limit))
			if mustCheck(t, c, s.URL+"/a").Allowed || !mustCheck(t, c, s.URL+"/b").Allowed {
				t.Errorf("want /a disallowed and /b, past the cap, allowed")
			}
			if hi, _ := c.Host(s.URL); hi.Size > robots.MaxSize || hi.Size < robots.MaxSize-200 || hi.Ignored != 0 {
				t.Errorf("size %d, ignored %d; want just under %d, 0", hi.Size, hi.Ignored, robots.MaxSize)
			}
		})
	}
}

func TestURLs(t *testing.T) {
	s := newSite(t, http.StatusOK, "User-agent: *\nDisallow: /x\n")
	other := newSite(t, http.StatusNotFound, "")
	c := newCache(nil, robots.Config{})
	port := s.URL[strings.LastIndex(s.URL, ":")+1:]
	tests := []struct {
		url     string
		allowed bool
		wantErr bool
	}{
		{s.URL + "/x", false, false},
		{"HTTP://127.0.0.1:" + port + "/x?q", false, false}, // same origin, one fetch
		{"http://user:pw@127.0.0.1:" + port + "/y#frag", true, false},
		{other.URL + "/x", true, false}, // another port, another origin
		{"ftp://127.0.0.1/x", true, false},
		{"mailto:a@b.c", true, false},
		{"http://[::1", false, true},
		{"http:///x", false, true},
	}
	for _, tt := range tests {
		d, err := c.Check(context.Background(), tt.url)
		if d.Allowed != tt.allowed || (err != nil) != tt.wantErr {
			t.Errorf("Check(%s) = %v, %v; want allowed %v, error %v", tt.url, d.Allowed, err, tt.allowed, tt.wantErr)
		}
	}
	if s.hits.Load() != 1 || other.hits.Load() != 1 {
		t.Errorf("robots.txt requests = %d and %d, want 1 each", s.hits.Load(), other.hits.Load())
	}
	hosts := c.Hosts()
	if len(hosts) != 2 || hosts[0].Origin > hosts[1].Origin {
		t.Fatalf("Hosts = %+v, want 2 sorted", hosts)
	}
	for _, q := range []string{s.URL, s.URL + "/any/path", "http://127.0.0.1:" + port} {
		if hi, ok := c.Host(q); !ok || hi.Origin != "http://127.0.0.1:"+port || hi.RuleLines != 1 || hi.Status != 200 {
			t.Errorf("Host(%s) = %+v, %v", q, hi, ok)
		}
	}
	if _, ok := c.Host("http://127.0.0.2:1"); ok {
		t.Errorf("Host of an unknown origin found")
	}
}

func BenchmarkCheckCached(b *testing.B) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, rulesTxt)
	}))
	defer s.Close()
	c := robots.New(robots.Config{UserAgent: "Trawler/0.1.0"}, httpFetcher(robots.MaxSize))
	url := s.URL + "/no-trawler/yes/page?id=42"
	if _, err := c.Check(context.Background(), url); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := c.Check(context.Background(), url); err != nil {
				b.Fatal(err)
			}
		}
	})
}
