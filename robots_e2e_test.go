//go:build unix

package main

import (
	"context"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/trawler/trawler/crawl/robot"
	"github.com/trawler/trawler/db"
)

// TestRobotsCrawlTogether: three robot processes crawl a five-host site of
// over a thousand pages together. Every page is fetched exactly once, no
// host sees more requests at once than the per-host limit, robots.txt and
// Crawl-delay hold across robots, and the control (pause, threads) reaches
// every robot within two seconds.
func TestRobotsCrawlTogether(t *testing.T) {
	site := newFiveHosts(t, 240, 100, 5*time.Millisecond)
	url, d, id := robotsCrawl(t, site, 0)
	ctx := context.Background()
	names := []string{"r1", "r2", "r3"}
	cmds := map[string]interface{ Wait() error }{}
	for _, n := range names {
		cmds[n] = startRobot(t, url, id, n)
	}
	waitUntil(t, 60*time.Second, "300 fetches", func() bool { return site.fetched() >= 300 })

	if err := d.SetControl(ctx, id, robot.Control{Delay: -1, Command: robot.CommandPause}); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, 2*time.Second, "every robot paused", func() bool {
		return allRobots(t, d, id, names, func(s robot.State) bool { return s.State == "paused" })
	})
	time.Sleep(300 * time.Millisecond) // fetches in flight end
	before := site.fetched()
	time.Sleep(500 * time.Millisecond)
	if after := site.fetched(); after != before {
		t.Errorf("%d fetches while every robot was paused", after-before)
	}
	if err := d.SetControl(ctx, id, robot.Control{Threads: 1, Delay: -1, Command: robot.CommandPause}); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, 2*time.Second, "one thread in every robot", func() bool {
		return allRobots(t, d, id, names, func(s robot.State) bool { return s.Status.Threads == 1 })
	})
	if err := d.SetControl(ctx, id, robot.Control{Threads: 2, Delay: -1}); err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		waitExit(t, cmds[n], 120*time.Second)
	}

	if twice := site.twice(); len(twice) > 0 {
		t.Errorf("%d URLs fetched more than once, e.g. %v", len(twice), twice[0])
	}
	if got, want := site.fetched(), site.total(); got != want {
		t.Errorf("%d fetches, want %d (each page once)", got, want)
	}
	checkStored(t, d, id, site.total())
	for host, most := range site.most {
		if most > 2 {
			t.Errorf("host %s saw %d requests at once, per-host limit 2: %s", host, most, site.mostWho[host])
		}
	}
	if site.privates > 0 {
		t.Errorf("/private, refused by robots.txt, was requested %d times", site.privates)
	}
	checkGaps(t, site, site.hostNames[4], site.delay)
	if info, _ := d.CrawlInfo(ctx, id); info.State != db.StateDone {
		t.Errorf("crawl state %s, want done", info.State)
	}
}

// TestRobotKilledAndStalled: a robot killed outright and one stopped past
// its leases lose their URLs to the others; nothing is lost, nothing is
// stored twice, and the stalled robot's late pages are not stored.
func TestRobotKilledAndStalled(t *testing.T) {
	site := newFiveHosts(t, 240, 100, 20*time.Millisecond)
	url, d, id := robotsCrawl(t, site, 0)
	lease := []string{"--lease", "2s"}
	r1, r2, r3 := startRobot(t, url, id, "r1", lease...), startRobot(t, url, id, "r2", lease...),
		startRobot(t, url, id, "r3", lease...)
	// Each robot is caught with requests in flight, whose answers (the
	// server takes 20 ms) cannot have reached it.
	var killed, stalled map[string]int
	waitUntil(t, 60*time.Second, "200 fetches and r3 fetching", func() bool {
		if site.fetched() < 200 {
			return false
		}
		killed = site.fresh("r3", 10*time.Millisecond)
		return len(killed) > 0 && r3.Process.Kill() == nil
	})
	r3.Wait()
	waitUntil(t, 60*time.Second, "400 fetches and r2 fetching", func() bool {
		if site.fetched() < 400 {
			return false
		}
		stalled = site.fresh("r2", 10*time.Millisecond)
		return len(stalled) > 0 && r2.Process.Signal(syscall.SIGSTOP) == nil
	})
	time.Sleep(3500 * time.Millisecond) // past r2's leases: the others take its URLs and hosts
	r2.Process.Signal(syscall.SIGCONT)
	waitExit(t, r1, 120*time.Second)
	waitExit(t, r2, 120*time.Second)

	checkStored(t, d, id, site.total())
	// The stalled robot's answers came after its leases ended: none of
	// them is stored (each of those URLs was fetched again by a robot
	// holding its lease).
	pages := map[string]string{}
	rows, err := d.Pages(context.Background(), db.PageQuery{Crawl: id, Limit: 10000})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		p, err := d.Page(context.Background(), id, r.ID)
		if err != nil {
			t.Fatal(err)
		}
		pages[r.URL] = p.Text
	}
	for u, serial := range stalled {
		if strings.Contains(pages[u], fmt.Sprintf("fetch %d ", serial)) {
			t.Errorf("%s: the stalled robot's late answer (fetch %d) was stored", u, serial)
		}
	}
	for u := range killed {
		if !strings.HasPrefix(pages[u], "fetch") {
			t.Errorf("%s, in flight in the killed robot, was not stored: %q", u, pages[u])
		}
	}
	t.Logf("killed with %d requests in flight, stalled with %d", len(killed), len(stalled))
}

// TestRobotsStop: stop, given to every robot, ends them all at once.
func TestRobotsStop(t *testing.T) {
	site := newFiveHosts(t, 2000, 2000, 30*time.Millisecond)
	url, d, id := robotsCrawl(t, site, 0)
	a, b := startRobot(t, url, id, "a"), startRobot(t, url, id, "b")
	waitUntil(t, 60*time.Second, "some fetches", func() bool { return site.fetched() >= 40 })
	if err := d.SetControl(context.Background(), id, robot.Control{Delay: -1, Command: robot.CommandStop}); err != nil {
		t.Fatal(err)
	}
	// Two seconds to hear it, and the fetches in flight to end.
	waitExit(t, a, 2500*time.Millisecond)
	waitExit(t, b, 2500*time.Millisecond)
	states := robotStates(t, d, id)
	for _, n := range []string{"a", "b"} {
		if s := states[n].State; s != "stopped" {
			t.Errorf("robot %s left in state %s, want stopped", n, s)
		}
	}
}

// checkStored checks that the crawl stored every page once.
func checkStored(t *testing.T, d *db.DB, id int64, want int) {
	t.Helper()
	n, err := d.CountPages(context.Background(), db.PageQuery{Crawl: id})
	if err != nil {
		t.Fatal(err)
	}
	c, err := d.Crawl(id).Counts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// /private is the one more URL known: skipped by robots.txt.
	if n != want || c.Done != int64(want) || c.Waiting != 0 || c.Error != 0 {
		t.Errorf("stored %d pages (counts %+v), want %d done and nothing else", n, c, want)
	}
}

// checkGaps checks that requests to host arrived at least gap apart.
func checkGaps(t *testing.T, site *fiveHosts, host string, gap time.Duration) {
	t.Helper()
	site.mu.Lock()
	at := append([]arrival(nil), site.arrivals[host]...)
	site.mu.Unlock()
	for i := 1; i < len(at); i++ {
		if d := at[i].at.Sub(at[i-1].at); d < gap {
			t.Errorf("requests %d and %d to %s (from %s and %s) arrived %v apart, Crawl-delay %v",
				i-1, i, host, at[i-1].agent, at[i].agent, d, gap)
			return
		}
	}
}
