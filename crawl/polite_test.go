package crawl_test

import (
	"compress/gzip"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/trawler/trawler/crawl"
)

// logServer serves docs and records every request with its arrival time.
type logServer struct {
	*httptest.Server
	mu   sync.Mutex
	hits []hit
}

type hit struct {
	path string
	at   time.Time
}

func newLogServer(t *testing.T, h http.HandlerFunc) *logServer {
	s := &logServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.hits = append(s.hits, hit{r.URL.Path, time.Now()})
		s.mu.Unlock()
		h(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *logServer) log() []hit {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.hits)
}

func (s *logServer) paths() []string {
	var out []string
	for _, h := range s.log() {
		out = append(out, h.path)
	}
	return out
}

// chain serves /robots.txt from robots and pages /, /1 … /n-1, each
// linking to the next.
func chain(n int, robots string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			if robots == "" {
				http.NotFound(w, r)
				return
			}
			w.Write([]byte(robots))
			return
		}
		var i int
		if r.URL.Path != "/" {
			fmt.Sscanf(r.URL.Path, "/%d", &i)
		}
		w.Header().Set("Content-Type", "text/html")
		if i+1 < n {
			fmt.Fprintf(w, `<a href="/%d">next</a> <a href="/private/%d">private</a>`, i+1, i)
		}
	}
}

func politeConfig(seeds ...string) crawl.Config {
	c := config(seeds...)
	c.Robots = true
	c.Depth = 50
	return c
}

func TestRobotsDisallowIsNeverRequested(t *testing.T) {
	s := newLogServer(t, chain(6, "User-agent: *\nDisallow: /private/\n"))
	h := newHarness(t, politeConfig(s.URL+"/"))
	h.run()
	for _, p := range s.paths() {
		if strings.HasPrefix(p, "/private/") {
			t.Errorf("disallowed %s was requested", p)
		}
	}
	if n := slices.Index(s.paths(), "/robots.txt"); n != 0 {
		t.Errorf("robots.txt requested at position %d; want first", n)
	}
	if why := h.skips()[s.URL+"/private/0"]; why != crawl.SkipRobots {
		t.Errorf("blocked URL skipped for %q, want robots", why)
	}
}

// gaps checks that no two page requests to one server came closer than d.
func gaps(t *testing.T, name string, hits []hit, d time.Duration) {
	t.Helper()
	var last time.Time
	for _, h := range hits {
		if h.path == "/robots.txt" {
			continue
		}
		if !last.IsZero() && h.at.Sub(last) < d-5*time.Millisecond {
			t.Errorf("%s: requests %s apart, delay is %s", name, h.at.Sub(last), d)
		}
		last = h.at
	}
}

func TestDelays(t *testing.T) {
	t.Run("crawl-delay from robots.txt", func(t *testing.T) {
		s := newLogServer(t, chain(4, "User-agent: *\nCrawl-delay: 0.3\n"))
		c := politeConfig(s.URL + "/")
		c.Threads = 4
		newHarness(t, c).run()
		gaps(t, "crawl-delay", s.log(), 300*time.Millisecond)
	})
	t.Run("server delay, two hosts in parallel", func(t *testing.T) {
		a := newLogServer(t, chain(4, ""))
		b := newLogServer(t, chain(4, ""))
		c := politeConfig(a.URL+"/", b.URL+"/")
		c.Threads, c.Delay = 4, 250*time.Millisecond
		newHarness(t, c).run()
		gaps(t, "host a", a.log(), c.Delay)
		gaps(t, "host b", b.log(), c.Delay)
		// In parallel, the two hosts' requests interleave: b's first page
		// comes before a's last, and the other way round.
		la, lb := a.log(), b.log()
		if !lb[0].at.Before(la[len(la)-1].at) || !la[0].at.Before(lb[len(lb)-1].at) {
			t.Errorf("hosts crawled one after the other: a %s..%s, b %s..%s",
				la[0].at.Format("05.000"), la[len(la)-1].at.Format("05.000"), lb[0].at.Format("05.000"), lb[len(lb)-1].at.Format("05.000"))
		}
	})
}

func TestBackoffOn429(t *testing.T) {
	var mu sync.Mutex
	busy := 0
	s := newLogServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Write([]byte(`<a href="/busy">busy</a>`))
		case "/busy":
			mu.Lock()
			busy++
			first := busy == 1
			mu.Unlock()
			if first {
				w.Header().Set("Retry-After", "1")
				w.WriteHeader(http.StatusTooManyRequests)
				return
			}
			w.Write([]byte("<title>ok now</title>"))
		default:
			http.NotFound(w, r)
		}
	})
	h := newHarness(t, config(s.URL+"/"))
	h.run()
	var times []time.Time
	for _, x := range s.log() {
		if x.path == "/busy" {
			times = append(times, x.at)
		}
	}
	if len(times) != 2 || times[1].Sub(times[0]) < 990*time.Millisecond {
		t.Fatalf("/busy requested at %v; want twice, a second apart", times)
	}
	if p := h.page(s.URL + "/busy"); p.Status != 200 || p.Title != "ok now" {
		t.Errorf("stored %d %q", p.Status, p.Title)
	}
}

func TestRobots503DelaysHost(t *testing.T) {
	var mu sync.Mutex
	tries := 0
	s := newLogServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			mu.Lock()
			tries++
			n := tries
			mu.Unlock()
			if n == 1 {
				w.WriteHeader(http.StatusServiceUnavailable)
				return
			}
			w.Write([]byte("User-agent: *\nDisallow: /private/\n"))
			return
		}
		chain(3, "")(w, r)
	})
	c := politeConfig(s.URL + "/")
	c.RobotsRetry = 400 * time.Millisecond
	newHarness(t, c).run()
	log := s.log()
	if len(log) < 2 || log[0].path != "/robots.txt" || log[1].path != "/robots.txt" {
		t.Fatalf("requests %v; want robots.txt twice first", s.paths())
	}
	if wait := log[1].at.Sub(log[0].at); wait < 390*time.Millisecond {
		t.Errorf("robots.txt retried after %s, want the 400ms wait", wait)
	}
	for _, p := range s.paths() {
		if strings.HasPrefix(p, "/private/") {
			t.Errorf("%s requested: the rules read after the retry were ignored", p)
		}
	}
}

func TestSitemapsAddURLs(t *testing.T) {
	var base string
	s := newLogServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprintf(w, "Sitemap: %s/sitemap.xml.gz\n", base)
		case "/sitemap.xml.gz":
			gz := gzip.NewWriter(w)
			fmt.Fprintf(gz, `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>%[1]s/orphan-a</loc></url><url><loc>%[1]s/orphan-b</loc></url></urlset>`, base)
			gz.Close()
		case "/", "/orphan-a", "/orphan-b":
			w.Write([]byte("<p>page</p>"))
		default:
			http.NotFound(w, r)
		}
	})
	base = s.URL
	c := politeConfig(s.URL + "/")
	c.Sitemaps = true
	h := newHarness(t, c)
	h.run()
	if got := h.paths(s.URL); !slices.Equal(got, []string{"/", "/orphan-a", "/orphan-b"}) {
		t.Errorf("pages %v; want the sitemap's orphans too", got)
	}
}

func TestTrapGuardStopsCalendar(t *testing.T) {
	s := newLogServer(t, func(w http.ResponseWriter, r *http.Request) {
		var y, m int
		if _, err := fmt.Sscanf(r.URL.Path, "/cal/%d/%d", &y, &m); err != nil {
			y, m = 2026, 11
		}
		if m++; m > 12 {
			y, m = y+1, 1
		}
		fmt.Fprintf(w, `<a href="/cal/%d/%d">next month</a>`, y, m)
	})
	c := config(s.URL + "/")
	c.Depth, c.TrapBudget = 1000, 30
	p := newHarness(t, c).run()
	if p.Done != 31 { // the start page and the budget of 30 months
		t.Errorf("crawled %d pages of an endless calendar, want 31", p.Done)
	}
}
