package db

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/trawler/trawler/crawl"
)

func mustClaimUrgent(t *testing.T, s *CrawlStore, owner string) []crawl.Item {
	t.Helper()
	items, err := s.ClaimUrgent(context.Background(), owner, 10)
	if err != nil {
		t.Fatalf("ClaimUrgent: %v", err)
	}
	for _, it := range items {
		if !it.Urgent {
			t.Errorf("ClaimUrgent gave %s not marked urgent", it.URL)
		}
	}
	return items
}

func mustPrioritize(t *testing.T, d *DB, s *CrawlStore, raw string) string {
	t.Helper()
	u, err := d.Prioritize(context.Background(), s.ID(), raw)
	if err != nil {
		t.Fatalf("Prioritize(%s): %v", raw, err)
	}
	return u
}

func TestPriorityLane(t *testing.T) {
	const b1 = "http://127.0.0.1/b1"
	d := mustOpen(t)
	s := mustCrawl(t, d, "http://127.0.0.1/")
	mustApply(t, s, "run", &crawl.Batch{New: []crawl.Item{item("a0", 0), item(b1, 1)}})
	if got := mustClaimUrgent(t, s, "run"); len(got) != 0 {
		t.Fatalf("empty lane gave %v", urlsOf(got))
	}
	p := mustPrioritize(t, d, s, "HTTP://Gate.Example/page")
	if p != "http://gate.example/page" {
		t.Errorf("Prioritize gave %q", p)
	}
	items, err := s.Claim(context.Background(), "run", 2, crawl.BFS)
	if err != nil {
		t.Fatal(err)
	}
	if got := urlsOf(items); !slices.Equal(got, []string{p, "a0"}) || !items[0].Urgent || items[1].Urgent {
		t.Fatalf("Claim gave %v (urgent %v %v), want the lane first", got, items[0].Urgent, items[1].Urgent)
	}

	// Done: a visit clears the lane; pushed again, it waits again as a
	// revisit with its validators.
	pg := page(p, 0, 0)
	pg.ETag = `"v1"`
	mustApply(t, s, "run", &crawl.Batch{Pages: []*crawl.Page{pg}})
	if got := mustClaimUrgent(t, s, "other"); len(got) != 0 {
		t.Fatalf("a visited lane URL is still in the lane: %v", urlsOf(got))
	}
	mustPrioritize(t, d, s, p)
	got := mustClaimUrgent(t, s, "other")
	if len(got) != 1 || got[0].URL != p || got[0].Validators == nil || got[0].Validators.ETag != `"v1"` {
		t.Fatalf("revisit from the lane: %+v", got)
	}

	// A URL held by a run is let go, so the lane's claim takes it.
	mustPrioritize(t, d, s, b1)
	if got := mustClaimUrgent(t, s, "run"); len(got) != 1 || got[0].URL != b1 {
		t.Fatalf("held URL pushed to the lane: %v", urlsOf(got))
	}
	// A lease on a lane URL older than urgentLease belongs to a dead run.
	old := time.Now().Add(-2 * urgentLease).UnixNano()
	if _, err := d.w.Exec(`UPDATE urls SET leased_at = ? WHERE url = ?`, old, b1); err != nil {
		t.Fatal(err)
	}
	if got := mustClaimUrgent(t, s, "next"); len(got) != 1 || got[0].URL != b1 {
		t.Fatalf("stale lane lease not taken over: %v", urlsOf(got))
	}
	if c := mustCounts(t, s); c.Waiting != 3 || c.Done != 0 {
		t.Errorf("counts %+v, want 3 waiting (a0 leased, the revisit, b1)", c)
	}
}

func TestPrioritizeRefuses(t *testing.T) {
	d := mustOpen(t)
	s := mustCrawl(t, d, "http://127.0.0.1/")
	ctx := context.Background()
	if _, err := d.Prioritize(ctx, s.ID(), "mailto:x@example.com"); !errors.Is(err, ErrInput) || IsStorageError(err) {
		t.Errorf("mailto: %v", err)
	}
	if _, err := d.Prioritize(ctx, 999, "http://a.example/"); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing crawl: %v", err)
	}
}
