package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/robot"
	"github.com/trawler/trawler/db"
	"github.com/trawler/trawler/db/pgtest"
)

// binary is the headless trawler, built once for the tests that run it as
// processes.
var binary struct {
	once sync.Once
	path string
	err  error
}

func trawlerBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	binary.once.Do(func() {
		dir, err := os.MkdirTemp("", "trawler-bin-")
		if err != nil {
			binary.err = err
			return
		}
		binary.path = filepath.Join(dir, "trawler")
		// The headless build: what robots and servers run, and no cgo to build.
		cmd := exec.Command("go", "build", "-tags", "nogui", "-o", binary.path, ".")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		out, err := cmd.CombinedOutput()
		if err != nil {
			binary.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binary.err != nil {
		t.Fatal(binary.err)
	}
	return binary.path
}

// fiveHosts is a site on five loopback addresses (five hosts): page i of
// a host links to pages 2i+1 and 2i+2 of it and to page i of the next
// host, if it has one; /private is linked and refused by robots.txt; host 5 asks for a
// Crawl-delay. The server counts every fetch, the requests in flight per
// host, and when each request to host 5 arrived.
type fiveHosts struct {
	seeds []string
	pages map[string]int // pages per host, by "127.0.0.N:port"
	delay time.Duration  // host 5's Crawl-delay

	mu        sync.Mutex
	fetches   map[string]int               // by URL
	flying    map[string]map[string]flight // requests in flight by user agent, by URL
	inFlight  map[string]int               // by host
	most      map[string]int
	who       map[string]map[string]int // robots (user agents) with requests in flight, by host
	mostWho   map[string]string         // who was in flight when most was reached
	arrivals  map[string][]arrival
	privates  int
	latency   time.Duration
	servers   []*httptest.Server
	hostNames []string
}

func newFiveHosts(t *testing.T, perHost, last int, latency time.Duration) *fiveHosts {
	t.Helper()
	s := &fiveHosts{pages: map[string]int{}, fetches: map[string]int{}, inFlight: map[string]int{},
		most: map[string]int{}, flying: map[string]map[string]flight{}, who: map[string]map[string]int{}, mostWho: map[string]string{}, arrivals: map[string][]arrival{}, latency: latency, delay: 30 * time.Millisecond}
	var lns []net.Listener
	for n := 1; n <= 5; n++ {
		ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.%d:0", n))
		if err != nil {
			t.Fatal(err)
		}
		lns = append(lns, ln)
		s.hostNames = append(s.hostNames, ln.Addr().String())
	}
	for n, ln := range lns {
		host, count := s.hostNames[n], perHost
		if n == 4 {
			count = last
		}
		s.pages[host] = count
		nextCount := perHost
		if n == 3 {
			nextCount = last
		}
		srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: s.handler(n, host, count, nextCount)}}
		srv.Start()
		t.Cleanup(srv.Close)
		s.servers = append(s.servers, srv)
		s.seeds = append(s.seeds, "http://"+host+"/p/0")
	}
	return s
}

func (s *fiveHosts) handler(n int, host string, count, nextCount int) http.Handler {
	next := s.hostNames[(n+1)%5]
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			robots := "User-agent: *\nDisallow: /private\n"
			if n == 4 {
				robots += fmt.Sprintf("Crawl-delay: %g\n", s.delay.Seconds())
			}
			io.WriteString(w, robots)
			return
		}
		s.enter(host, r.URL.Path, r.UserAgent())
		defer s.leave(host, r.URL.Path, r.UserAgent())
		time.Sleep(s.latency)
		var i int
		if _, err := fmt.Sscanf(r.URL.Path, "/p/%d", &i); err != nil || i >= count {
			http.NotFound(w, r)
			return
		}
		s.mu.Lock()
		serial := s.flying[r.UserAgent()]["http://"+host+r.URL.Path].serial
		s.mu.Unlock()
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<title>%s page %d</title><p>fetch %d </p><a href="/private">x</a>`, host, i, serial)
		for _, c := range []int{2*i + 1, 2*i + 2} {
			if c < count {
				fmt.Fprintf(w, `<a href="/p/%d">child</a>`, c)
			}
		}
		if i < nextCount {
			fmt.Fprintf(w, `<a href="http://%s/p/%d">next host</a>`, next, i)
		}
	})
}

func (s *fiveHosts) enter(host, path, agent string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if path == "/private" {
		s.privates++
	}
	u := "http://" + host + path
	s.fetches[u]++
	if s.flying[agent] == nil {
		s.flying[agent] = map[string]flight{}
	}
	s.flying[agent][u] = flight{serial: s.fetches[u], at: time.Now()}
	s.inFlight[host]++
	if s.who[host] == nil {
		s.who[host] = map[string]int{}
	}
	s.who[host][agent]++
	if s.inFlight[host] > s.most[host] {
		s.most[host] = s.inFlight[host]
		s.mostWho[host] = fmt.Sprint(s.who[host])
	}
	s.arrivals[host] = append(s.arrivals[host], arrival{time.Now(), agent})
}

// arrival is when a request reached the site, and which robot sent it.
type arrival struct {
	at    time.Time
	agent string
}

func (s *fiveHosts) leave(host, path, agent string) {
	s.mu.Lock()
	delete(s.flying[agent], "http://"+host+path)
	s.inFlight[host]--
	if s.who[host][agent]--; s.who[host][agent] == 0 {
		delete(s.who[host], agent)
	}
	s.mu.Unlock()
}

// flight is a request being answered: the URL's fetch number, and when it
// came.
type flight struct {
	serial int
	at     time.Time
}

// fresh returns the requests of a robot that came less than d ago: their
// answers cannot have reached it yet.
func (s *fiveHosts) fresh(name string, d time.Duration) map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]int{}
	for agent, fl := range s.flying {
		if !strings.HasSuffix(agent, "(robot "+name+")") {
			continue
		}
		for u, f := range fl {
			if time.Since(f.at) < d {
				out[u] = f.serial
			}
		}
	}
	return out
}

func (s *fiveHosts) total() int {
	n := 0
	for _, c := range s.pages {
		n += c
	}
	return n
}

// fetched returns how many fetches there were in all.
func (s *fiveHosts) fetched() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, c := range s.fetches {
		n += c
	}
	return n
}

// twice returns the URLs fetched more than once.
func (s *fiveHosts) twice() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for u, c := range s.fetches {
		if c > 1 {
			out = append(out, u)
		}
	}
	sort.Strings(out)
	return out
}

// robotsCrawl creates a crawl of the site on a fresh PostgreSQL schema and
// marks it running, for robots to join.
func robotsCrawl(t *testing.T, site *fiveHosts, delay time.Duration) (string, *db.DB, int64) {
	t.Helper()
	url := pgtest.URL(t)
	d, err := db.Open(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	cfg := crawl.DefaultConfig()
	cfg.Seeds, cfg.Depth, cfg.Threads, cfg.PerHost, cfg.Delay = site.seeds, 100, 4, 2, delay
	cfg.NearThreshold = 0
	id, err := d.CreateCrawl(context.Background(), "five hosts", cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.SetState(context.Background(), id, db.StateRunning); err != nil {
		t.Fatal(err)
	}
	return url, d, id
}

// startRobot runs `trawler robot` as a process of its own.
func startRobot(t *testing.T, url string, id int64, name string, extra ...string) *exec.Cmd {
	t.Helper()
	home := t.TempDir()
	args := append([]string{"robot", "--db", url, "--crawl", fmt.Sprint(id), "--id", name, "--quiet"}, extra...)
	cmd := exec.Command(trawlerBinary(t), args...)
	cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home)
	cmd.Stdout, cmd.Stderr = io.Discard, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	return cmd
}

func waitUntil(t *testing.T, within time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting %v for %s", within, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// robotStates reads each robot's reported state and threads.
func robotStates(t *testing.T, d *db.DB, id int64) map[string]robot.State {
	t.Helper()
	list, err := d.Robots(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]robot.State{}
	for _, r := range list {
		out[r.ID] = r
	}
	return out
}

func allRobots(t *testing.T, d *db.DB, id int64, names []string, ok func(robot.State) bool) bool {
	states := robotStates(t, d, id)
	for _, n := range names {
		if s, found := states[n]; !found || !ok(s) {
			t.Logf("robot %s: %s, %d threads, beat %v ago", n, s.State, s.Status.Threads, time.Since(s.Heartbeat).Round(time.Millisecond))
			return false
		}
	}
	return true
}

func waitExit(t *testing.T, cmd interface{ Wait() error }, within time.Duration) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("robot: %v", err)
		}
	case <-time.After(within):
		t.Fatalf("a robot did not end within %v", within)
	}
}
