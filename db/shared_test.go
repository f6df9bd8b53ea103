package db

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/robot"
)

// pgOnly skips a test of what only the PostgreSQL store has.
func pgOnly(tb testing.TB) {
	if !onPostgres {
		tb.Skip("PostgreSQL only (robots)")
	}
}

// hostsOf returns the hosts of claimed items, sorted, once each.
func hostsOf(items []crawl.Item) []string {
	var hs []string
	for _, it := range items {
		h := strings.SplitN(strings.TrimPrefix(it.URL, "http://"), "/", 2)[0]
		if !slices.Contains(hs, h) {
			hs = append(hs, h)
		}
	}
	slices.Sort(hs)
	return hs
}

func sharedPair(t *testing.T, lease time.Duration) (d *DB, a, b *CrawlStore) {
	t.Helper()
	pgOnly(t)
	d = mustOpen(t)
	id := mustCrawl(t, d, "http://a.test/").ID()
	var err error
	if a, err = d.SharedCrawl(id, lease); err != nil {
		t.Fatal(err)
	}
	b, _ = d.SharedCrawl(id, lease)
	var news []crawl.Item
	for _, h := range []string{"a.test", "b.test", "c.test"} {
		for i := range 4 {
			news = append(news, item(fmt.Sprintf("http://%s/%d", h, i), 1))
		}
	}
	mustApply(t, a, "", &crawl.Batch{New: news})
	return d, a, b
}

// TestSharedClaimsByHost: each robot gets whole hosts, at most its share,
// and never another's.
func TestSharedClaimsByHost(t *testing.T) {
	_, a, b := sharedPair(t, time.Minute)
	ctx := context.Background()
	first, err := a.Claim(ctx, "A", 100, crawl.BFS)
	if err != nil {
		t.Fatal(err)
	}
	if hs := hostsOf(first); len(hs) != 1 || len(first) != 4 {
		t.Fatalf("robot A (one host at a time) claimed %v on %v", urlsOf(first), hs)
	}
	b.SetMaxHosts(5)
	second, err := b.Claim(ctx, "B", 100, crawl.BFS)
	if err != nil {
		t.Fatal(err)
	}
	if hs := hostsOf(second); len(hs) != 2 || slices.Contains(hs, hostsOf(first)[0]) {
		t.Fatalf("robot B claimed hosts %v beside A's %v", hs, hostsOf(first))
	}
	if more, _ := a.Claim(ctx, "A", 100, crawl.BFS); len(more) != 0 {
		t.Errorf("A claimed %v again", urlsOf(more))
	}
	// A hands its host back: B may take it.
	if err := a.Release(ctx, "A"); err != nil {
		t.Fatal(err)
	}
	if got, _ := b.Claim(ctx, "B", 100, crawl.BFS); len(got) != 4 {
		t.Errorf("after A released, B claimed %v", urlsOf(got))
	}
}

// TestLeaseExpiresAndFences: a robot that stops beating loses its URLs and
// host to another, and its late page is not stored.
func TestLeaseExpiresAndFences(t *testing.T) {
	d, a, b := sharedPair(t, 300*time.Millisecond)
	ctx := context.Background()
	u := claimOne(t, a, "A")
	fetchedByA := time.Now()
	if more, _ := b.Claim(ctx, "B", 100, crawl.BFS); slices.Contains(urlsOf(more), u.URL) {
		t.Fatal("B claimed A's URL while A's lease held")
	}
	time.Sleep(400 * time.Millisecond) // A stalls past its lease
	claimsAgain(t, b, "B", u.URL)
	applyFetched(t, a, "A", u.URL, "A's late page", fetchedByA)
	if n := a.LostPages(); n != 1 {
		t.Errorf("A lost %d pages, want 1", n)
	}
	applyFetched(t, b, "B", u.URL, "B's page", time.Now())
	rows, err := d.Pages(ctx, PageQuery{Crawl: a.ID()})
	if err != nil || len(rows) != 1 || rows[0].Title != "B's page" {
		t.Errorf("stored %+v (%v), want B's page alone", rows, err)
	}
}

// TestLeaseTakenAgainFences: a robot that stalls past its lease and
// claims its URL again before it stores the page fetched under the old
// lease does not store that page (it is as late as anyone's); the page it
// fetches under the new lease is stored.
func TestLeaseTakenAgainFences(t *testing.T) {
	d, a, _ := sharedPair(t, 300*time.Millisecond)
	ctx := context.Background()
	u := claimOne(t, a, "A")
	fetched := time.Now()
	time.Sleep(400 * time.Millisecond) // A stalls past its lease
	claimsAgain(t, a, "A", u.URL)
	applyFetched(t, a, "A", u.URL, "fetched under the old lease", fetched)
	if n := a.LostPages(); n != 1 {
		t.Errorf("A lost %d pages, want 1", n)
	}
	if rows, err := d.Pages(ctx, PageQuery{Crawl: a.ID()}); err != nil || len(rows) != 0 {
		t.Fatalf("stored %+v (%v), want nothing", rows, err)
	}
	applyFetched(t, a, "A", u.URL, "fetched under the new lease", time.Now())
	rows, err := d.Pages(ctx, PageQuery{Crawl: a.ID()})
	if err != nil || len(rows) != 1 || rows[0].Title != "fetched under the new lease" {
		t.Errorf("stored %+v (%v), want the page fetched under the new lease", rows, err)
	}
}

// claimOne has owner claim one URL of s.
func claimOne(t *testing.T, s *CrawlStore, owner string) crawl.Item {
	t.Helper()
	got, err := s.Claim(context.Background(), owner, 1, crawl.BFS)
	if err != nil || len(got) != 1 {
		t.Fatalf("%s claimed %v, %v", owner, got, err)
	}
	return got[0]
}

// claimsAgain has owner claim (three times, as a robot's refills would)
// until it holds url, whose lease has run out.
func claimsAgain(t *testing.T, s *CrawlStore, owner, url string) {
	t.Helper()
	var taken []crawl.Item
	for range 3 {
		more, _ := s.Claim(context.Background(), owner, 100, crawl.BFS)
		taken = append(taken, more...)
	}
	if !slices.Contains(urlsOf(taken), url) {
		t.Fatalf("%s did not take the expired %s; took %v", owner, url, urlsOf(taken))
	}
}

// applyFetched has owner store the page of url, fetched at the given time.
func applyFetched(t *testing.T, s *CrawlStore, owner, url, title string, fetched time.Time) {
	t.Helper()
	p := page(url, 1, 0)
	p.Title, p.FetchedAt = title, fetched
	mustApply(t, s, owner, &crawl.Batch{Pages: []*crawl.Page{p}})
}

// TestControlAndBeat: a robot registers, beats, renews its leases, and
// reads the control a SetControl or a CommandRobot gives it, notified.
func TestControlAndBeat(t *testing.T) {
	d, a, _ := sharedPair(t, time.Minute)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := a.Robot("r1")
	if err := r.Register(ctx, robot.Info{ID: "r1", Owner: "A", Hostname: "box", PID: 42, Version: "t", Started: time.Now()}); err != nil {
		t.Fatal(err)
	}
	notes, err := r.Watch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c, err := r.Beat(ctx, robot.Status{State: "running", Pages: 3}, nil)
	if err != nil || c.Effective() != robot.CommandRun || c.Delay >= 0 {
		t.Fatalf("first beat: %+v %v", c, err)
	}
	if err := d.SetControl(ctx, a.ID(), robot.Control{Threads: 7, Delay: time.Second, Command: robot.CommandPause}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-notes:
	case <-time.After(5 * time.Second):
		t.Fatal("no notification of the control's change")
	}
	c, _ = r.Beat(ctx, robot.Status{State: "paused"}, nil)
	if c.Threads != 7 || c.Delay != time.Second || c.Effective() != robot.CommandPause {
		t.Errorf("control after SetControl: %+v", c)
	}
	if err := d.CommandRobot(ctx, a.ID(), "r1", robot.CommandStop); err != nil {
		t.Fatal(err)
	}
	if c, _ = r.Beat(ctx, robot.Status{}, nil); c.Effective() != robot.CommandStop {
		t.Errorf("after CommandRobot stop: %+v", c)
	}
	list, err := d.Robots(ctx, a.ID())
	if err != nil || len(list) != 1 || list[0].Hostname != "box" || list[0].Command != robot.CommandStop {
		t.Errorf("robots %+v, %v", list, err)
	}
	if err := d.CommandRobot(ctx, a.ID(), "nobody", robot.CommandStop); err == nil {
		t.Error("a command to no robot was taken")
	}
}
