package robot_test

import (
	"context"
	"net/http/httptest"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/robot"
	"github.com/trawler/trawler/crawl/testsite"
	"github.com/trawler/trawler/db"
	"github.com/trawler/trawler/db/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// shared opens a crawl of site on a private PostgreSQL, as robots share it.
func shared(t *testing.T, site *testsite.Site, lease time.Duration) (*db.DB, *db.CrawlStore, crawl.Config) {
	t.Helper()
	srv := httptest.NewServer(site)
	t.Cleanup(srv.Close)
	d, err := db.Open(pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	cfg := crawl.DefaultConfig()
	cfg.Seeds, cfg.Depth, cfg.Threads, cfg.PerHost, cfg.NearThreshold = []string{srv.URL + "/"}, 50, 2, 2, 0
	id, err := d.CreateCrawl(context.Background(), "robot", cfg)
	if err != nil {
		t.Fatal(err)
	}
	st, err := d.SharedCrawl(id, lease)
	if err != nil {
		t.Fatal(err)
	}
	return d, st, cfg
}

// run starts a robot whose beats the test sends; it returns the robot, how
// many engines it made, and its result.
func run(t *testing.T, st *db.CrawlStore, cfg crawl.Config, lease time.Duration, tick chan time.Time) (*robot.Robot, *atomic.Int32, <-chan error) {
	t.Helper()
	engines := new(atomic.Int32)
	newEngine := func() (*crawl.Engine, error) {
		engines.Add(1)
		return crawl.New(cfg, st, crawl.Shared())
	}
	r, err := robot.New(robot.Config{Info: robot.Info{ID: "r1"}, Lease: lease, Tick: tick, Limits: st},
		newEngine, st.Robot("r1"))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- r.Run(context.Background()) }()
	return r, engines, done
}

func wait(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
	}
}

// TestRobotStartsAfresh: a robot whose beats stopped past its lease (a
// stalled process, a cut network) does not go on with URLs that may be
// another's by then: it starts a fresh engine, and the crawl still ends
// with every page stored.
func TestRobotStartsAfresh(t *testing.T) {
	site := &testsite.Site{Pages: 150, OutDegree: 4, Latency: 30 * time.Millisecond}
	lease := time.Second
	_, st, cfg := shared(t, site, lease)
	tick := make(chan time.Time)
	r, engines, done := run(t, st, cfg, lease, tick)
	wait(t, "the first pages", func() bool { return r.Progress().Fetched() >= 5 })
	time.Sleep(lease + 300*time.Millisecond) // no beat: the leases run out
	select {
	case tick <- time.Now():
	case err := <-done:
		t.Fatalf("the robot ended (%v) before its leases ran out", err)
	}
	wait(t, "a second engine", func() bool { return engines.Load() == 2 })
	go func() { // beats from now on
		for {
			select {
			case tick <- time.Now():
			case <-done:
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	}()
	var err error
	select {
	case err = <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("the robot did not finish the crawl")
	}
	if err != nil {
		t.Fatal(err)
	}
	c, err := st.Counts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if c.Done != int64(site.Pages) || c.Waiting+c.Processing != 0 {
		t.Errorf("counts %+v, want %d pages done and nothing left", c, site.Pages)
	}
	if n := engines.Load(); n != 2 {
		t.Errorf("%d engines, want 2 (one fresh start)", n)
	}
}

// TestRobotFollowsControl: the crawl's control reaches the robot without a
// beat of its own (a notification), and stop ends it as stopped.
func TestRobotFollowsControl(t *testing.T) {
	site := &testsite.Site{Pages: 400, OutDegree: 4, Latency: 20 * time.Millisecond}
	d, st, cfg := shared(t, site, time.Minute)
	r, _, done := run(t, st, cfg, time.Minute, make(chan time.Time))
	ctx := context.Background()
	wait(t, "the first pages", func() bool { return r.Progress().Fetched() >= 3 })
	steps := []struct {
		c    robot.Control
		want crawl.RunState
	}{
		{robot.Control{Delay: -1, Command: robot.CommandPause}, crawl.StatePaused},
		{robot.Control{Delay: -1}, crawl.StateRunning},
		{robot.Control{Delay: -1, Command: robot.CommandStop}, crawl.StateStopped},
	}
	for _, s := range steps {
		if err := d.SetControl(ctx, st.ID(), s.c); err != nil {
			t.Fatal(err)
		}
		wait(t, string(s.want), func() bool {
			list, _ := d.Robots(ctx, st.ID())
			return len(list) == 1 && list[0].State == string(s.want)
		})
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the robot did not stop")
	}
	if n := r.Progress().Fetched(); n >= int64(site.Pages) {
		t.Errorf("the robot fetched all %d pages before it was stopped", n)
	}
}
