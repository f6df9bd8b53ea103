package robot_test

import (
	"context"
	"io"
	"net"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/robot"
	"github.com/trawler/trawler/crawl/testsite"
	"github.com/trawler/trawler/db"
	"github.com/trawler/trawler/db/pgtest"
)

// cable forwards TCP connections to a PostgreSQL server on loopback and
// can be cut: open connections close and new ones are refused until it
// is mended, as a database restart or a network outage looks to a robot.
type cable struct {
	ln     net.Listener
	target string

	mu    sync.Mutex
	cut   bool
	conns []net.Conn
}

// newCable starts a cable to the server of the postgres:// URL u and
// returns it with u rewritten to go through it.
func newCable(t *testing.T, u string) (*cable, string) {
	t.Helper()
	p, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c := &cable{ln: ln, target: p.Host}
	t.Cleanup(func() { ln.Close(); c.setCut(true) })
	go c.serve()
	p.Host = ln.Addr().String()
	return c, p.String()
}

func (c *cable) serve() {
	for {
		in, err := c.ln.Accept()
		if err != nil {
			return
		}
		c.mu.Lock()
		cut := c.cut
		c.mu.Unlock()
		if cut {
			in.Close()
			continue
		}
		out, err := net.Dial("tcp", c.target)
		if err != nil {
			in.Close()
			continue
		}
		c.mu.Lock()
		c.conns = append(c.conns, in, out)
		c.mu.Unlock()
		go func() { io.Copy(out, in); out.Close() }()
		go func() { io.Copy(in, out); in.Close() }()
	}
}

// setCut cuts (closing every connection) or mends the cable.
func (c *cable) setCut(cut bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cut = cut
	if cut {
		for _, conn := range c.conns {
			conn.Close()
		}
		c.conns = nil
	}
}

// TestRobotOutlastsOutage: the database goes away for a few seconds in
// the middle of a crawl (every connection cut, new ones refused); the
// robot waits, starts afresh when it is back, and finishes the crawl with
// every page stored once.
func TestRobotOutlastsOutage(t *testing.T) {
	site := &testsite.Site{Pages: 200, OutDegree: 4, Latency: 20 * time.Millisecond}
	direct := pgtest.URL(t)
	cab, u := newCable(t, direct)
	d, err := db.Open(u)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	srv := httptest.NewServer(site)
	t.Cleanup(srv.Close)
	cfg := crawl.DefaultConfig()
	cfg.Seeds, cfg.Depth, cfg.Threads, cfg.PerHost, cfg.NearThreshold = []string{srv.URL + "/"}, 50, 2, 2, 0
	ctx := context.Background()
	id, err := d.CreateCrawl(ctx, "outage", cfg)
	if err != nil {
		t.Fatal(err)
	}
	lease := time.Second
	st, err := d.SharedCrawl(id, lease)
	if err != nil {
		t.Fatal(err)
	}
	engines := 0
	r, err := robot.New(robot.Config{Info: robot.Info{ID: "r1"}, Lease: lease, Beat: 200 * time.Millisecond, Limits: st},
		func() (*crawl.Engine, error) { engines++; return crawl.New(cfg, st, crawl.Shared()) }, st.Robot("r1"))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	wait(t, "the first pages", func() bool { return r.Progress().Fetched() >= 20 })
	cab.setCut(true)
	time.Sleep(3 * time.Second)
	cab.setCut(false)
	select {
	case err = <-done:
	case <-time.After(90 * time.Second):
		t.Fatal("the robot did not finish the crawl")
	}
	if err != nil {
		t.Fatalf("the robot gave up: %v", err)
	}
	if engines < 2 {
		t.Errorf("%d engines, want a fresh one after the outage", engines)
	}
	check, err := db.Open(direct)
	if err != nil {
		t.Fatal(err)
	}
	defer check.Close()
	c, err := check.Crawl(id).Counts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if c.Done != int64(site.Pages) || c.Waiting+c.Processing != 0 {
		t.Errorf("counts %+v, want %d pages done and nothing left", c, site.Pages)
	}
}
