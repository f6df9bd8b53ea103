package db

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/rabin"
)

func urlsOf(items []crawl.Item) []string {
	var s []string
	for _, it := range items {
		s = append(s, it.URL)
	}
	return s
}

func mustClaim(t *testing.T, s *CrawlStore, owner string, n int, order crawl.Strategy) []string {
	t.Helper()
	items, err := s.Claim(context.Background(), owner, n, order)
	if err != nil {
		t.Fatalf("Claim: %v", err)
	}
	for _, it := range items {
		if it.FP != rabin.FingerprintString(it.URL) {
			t.Errorf("claimed %s with fp %x", it.URL, it.FP)
		}
	}
	return urlsOf(items)
}

func mustCounts(t *testing.T, s *CrawlStore) crawl.Counts {
	t.Helper()
	c, err := s.Counts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestClaimOrder(t *testing.T) {
	d := mustOpen(t)
	tests := []struct {
		order crawl.Strategy
		want  []string
	}{
		{crawl.BFS, []string{"a0", "b0", "c1", "d1", "e2"}},
		{crawl.Mixed, []string{"a0", "b0", "c1", "d1", "e2"}},
		{crawl.DFS, []string{"e2", "d1", "c1", "b0", "a0"}},
	}
	for _, tt := range tests {
		t.Run(string(tt.order), func(t *testing.T) {
			s := mustCrawl(t, d, "http://127.0.0.1/")
			mustApply(t, s, "run", &crawl.Batch{New: []crawl.Item{
				item("c1", 1), item("a0", 0), item("e2", 2), item("d1", 1), item("b0", 0),
			}})
			var got []string
			for range 3 {
				got = append(got, mustClaim(t, s, "run", 2, tt.order)...)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("claimed %v, want %v", got, tt.want)
			}
		})
	}
}

func TestApplyLeasesAndStates(t *testing.T) {
	d := mustOpen(t)
	s := mustCrawl(t, d, "http://127.0.0.1/")
	other := mustCrawl(t, d, "http://127.0.0.2/")
	ctx := context.Background()

	// Held URLs are leased to the writer already: nobody can claim them.
	mustApply(t, s, "run1", &crawl.Batch{
		New:  []crawl.Item{item("held", 0), item("free1", 1), item("free2", 1)},
		Held: []bool{true, false, false},
	})
	mustApply(t, other, "run1", &crawl.Batch{New: []crawl.Item{item("held", 0)}})
	if got := mustClaim(t, s, "run2", 10, crawl.BFS); !slices.Equal(got, []string{"free1", "free2"}) {
		t.Fatalf("run2 claimed %v, want the free URLs", got)
	}
	if got := mustClaim(t, s, "run2", 10, crawl.BFS); len(got) != 0 {
		t.Fatalf("second claim got %v, want nothing", got)
	}
	if c := mustCounts(t, s); c != (crawl.Counts{Waiting: 3}) {
		t.Errorf("counts %+v; leased URLs count as waiting", c)
	}

	// A URL turns done only when its page is applied, and its lease goes.
	mustApply(t, s, "run2", &crawl.Batch{Pages: []*crawl.Page{page("free1", 1, 0)}})
	failed := page("free2", 1, 0)
	failed.Status = 404
	mustApply(t, s, "run2", &crawl.Batch{Pages: []*crawl.Page{failed}})
	if c := mustCounts(t, s); c != (crawl.Counts{Waiting: 1, Done: 1, Error: 1}) {
		t.Errorf("counts %+v after two pages", c)
	}

	// Releasing frees the held URL, not other runs' or other crawls' leases.
	mustApply(t, s, "run1", &crawl.Batch{New: []crawl.Item{item("late", 2)}, Held: []bool{true}})
	if err := s.Release(ctx, "nobody"); err != nil {
		t.Fatal(err)
	}
	if got := mustClaim(t, s, "run3", 10, crawl.BFS); len(got) != 0 {
		t.Fatalf("claimed %v after releasing another owner", got)
	}
	if err := s.Release(ctx, "run1"); err != nil {
		t.Fatal(err)
	}
	if got := mustClaim(t, s, "run3", 10, crawl.BFS); !slices.Equal(got, []string{"held", "late"}) {
		t.Fatalf("after release claimed %v, want [held late]", got)
	}
	if got := mustClaim(t, other, "run3", 10, crawl.BFS); !slices.Equal(got, []string{"held"}) {
		t.Fatalf("other crawl claimed %v", got)
	}
	// Done and error URLs are never claimed again.
	if err := s.Recover(ctx); err != nil {
		t.Fatal(err)
	}
	if got := mustClaim(t, s, "run4", 10, crawl.BFS); !slices.Equal(got, []string{"held", "late"}) {
		t.Fatalf("after recovery claimed %v, want [held late]", got)
	}
}

func TestApplyKnownURLs(t *testing.T) {
	d := mustOpen(t)
	s := mustCrawl(t, d, "http://127.0.0.1/")
	deep := item("u", 3)
	deep.Parent, deep.Resource = "p3", true
	mustApply(t, s, "run", &crawl.Batch{New: []crawl.Item{deep, item("done", 3)}})
	mustApply(t, s, "run", &crawl.Batch{Pages: []*crawl.Page{page("done", 3, 0)}})

	shallow := item("u", 1)
	shallow.Parent = "p1"
	deeper := item("u", 5)
	deeper.Parent = "p5"
	mustApply(t, s, "run", &crawl.Batch{New: []crawl.Item{shallow, deeper, item("done", 0)}})

	items, err := s.Claim(context.Background(), "run", 10, crawl.BFS)
	if err != nil {
		t.Fatal(err)
	}
	want := crawl.Item{URL: "u", FP: rabin.FingerprintString("u"), Depth: 1, Parent: "p1"}
	if len(items) != 1 || items[0] != want {
		t.Errorf("claimed %+v; want %+v (smaller depth, its parent, no longer only a resource)", items, want)
	}
	if c := mustCounts(t, s); c != (crawl.Counts{Waiting: 1, Done: 1}) {
		t.Errorf("counts %+v; a done URL seen again must stay done", c)
	}
}

func TestRecoverKilledRun(t *testing.T) {
	path := testDB(t)
	d := mustOpenPath(t, path)
	s := mustCrawl(t, d, "http://127.0.0.1/")
	var news []crawl.Item
	for i := range 10 {
		news = append(news, item(fmt.Sprintf("u%d", i), 1))
	}
	mustApply(t, s, "dead", &crawl.Batch{New: news, Held: []bool{true, true, true}})
	if got := mustClaim(t, s, "dead", 4, crawl.BFS); len(got) != 4 {
		t.Fatalf("claimed %d", len(got))
	}
	mustApply(t, s, "dead", &crawl.Batch{Pages: []*crawl.Page{page("u0", 1, 0)}})
	// The process dies here: no Release. A processing row, as another
	// store implementation might leave, recovers too.
	if _, err := d.w.Exec(`UPDATE urls SET state = 1 WHERE url = 'u9'`); err != nil {
		t.Fatal(err)
	}
	d.Close()

	d = mustOpenPath(t, path)
	s = d.Crawl(s.ID())
	if got := mustClaim(t, s, "next", 100, crawl.BFS); len(got) != 2 {
		t.Fatalf("before Recover claimed %v; want the two never leased", got)
	}
	if err := s.Recover(context.Background()); err != nil {
		t.Fatal(err)
	}
	// Recover frees every lease, those of the run that just claimed too:
	// it is meant to be called before a run starts claiming.
	got := mustClaim(t, s, "next", 100, crawl.BFS)
	if want := []string{"u1", "u2", "u3", "u4", "u5", "u6", "u7", "u8", "u9"}; !slices.Equal(got, want) {
		t.Errorf("after Recover claimed %v, want %v", got, want)
	}
	if c := mustCounts(t, s); c != (crawl.Counts{Waiting: 9, Done: 1}) {
		t.Errorf("counts %+v", c)
	}
}

func TestFingerprints(t *testing.T) {
	d := mustOpen(t)
	s := mustCrawl(t, d, "http://127.0.0.1/")
	other := mustCrawl(t, d, "http://127.0.0.2/")
	mustApply(t, s, "run", &crawl.Batch{New: []crawl.Item{item("a", 0), item("b", 1)}})
	mustApply(t, s, "run", &crawl.Batch{Pages: []*crawl.Page{page("a", 0, 0), page("c", 1, 0)}})
	mustApply(t, other, "run", &crawl.Batch{New: []crawl.Item{item("x", 0)}})
	var got []uint64
	if err := s.Fingerprints(context.Background(), func(fp uint64, _ crawl.SkipReason) { got = append(got, fp) }); err != nil {
		t.Fatal(err)
	}
	want := []uint64{rabin.FingerprintString("a"), rabin.FingerprintString("b"), rabin.FingerprintString("c")}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("fingerprints %x, want %x", got, want)
	}
}

func TestApplyIsAtomic(t *testing.T) {
	d := mustOpen(t)
	mustCrawl(t, d, "http://127.0.0.1/")
	bad := page("bad", 0, 0)
	bad.Text = "x"
	missing := d.Crawl(999) // no such crawl: the foreign key fails the batch
	err := missing.Apply(context.Background(), "run", &crawl.Batch{New: []crawl.Item{item("n", 0)}, Pages: []*crawl.Page{bad}})
	if err == nil || !IsStorageError(err) {
		t.Fatalf("Apply to a missing crawl = %v; want a storage error", err)
	}
	var n int
	if err := d.r.QueryRow(`SELECT (SELECT count(*) FROM urls) + (SELECT count(*) FROM pages)`).Scan(&n); err != nil || n != 0 {
		t.Errorf("rows left behind by a failed batch: %d (%v)", n, err)
	}
}

func TestApplyCancelled(t *testing.T) {
	d := mustOpen(t)
	s := mustCrawl(t, d, "http://127.0.0.1/")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := s.Apply(ctx, "run", &crawl.Batch{New: []crawl.Item{item("n", 0)}, Pages: []*crawl.Page{page("p", 0, 3)}})
	if !errors.Is(err, context.Canceled) || IsStorageError(err) {
		t.Errorf("Apply with a cancelled context = %v; want context.Canceled, not a storage error", err)
	}
	if c := mustCounts(t, s); c != (crawl.Counts{}) {
		t.Errorf("counts %+v after a cancelled Apply", c)
	}
}

// TestTwoHandlesShareTheFrontier runs two database handles on one file, as
// two crawler processes would: they write and claim at once without
// "database is locked" errors, and no URL is leased to both.
func TestTwoHandlesShareTheFrontier(t *testing.T) {
	path := testDB(t)
	d1, d2 := mustOpenPath(t, path), mustOpenPath(t, path)
	id := mustCrawl(t, d1, "http://127.0.0.1/").ID()
	stores := []*CrawlStore{d1.Crawl(id), d2.Crawl(id)}
	const perWriter, writers = 2000, 2
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	claimed := make([][]string, 2)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for start := 0; start < perWriter; start += 100 {
				b := &crawl.Batch{}
				for i := start; i < start+100; i++ {
					b.New = append(b.New, item(fmt.Sprintf("w%d-%d", w, i), i%3))
				}
				if err := stores[w].Apply(ctx, "writer", b); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	for c := range claimed {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				items, err := stores[c].Claim(ctx, fmt.Sprintf("run%d", c), 50, crawl.BFS)
				if err != nil {
					errs <- err
					return
				}
				claimed[c] = append(claimed[c], urlsOf(items)...)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	seen := map[string]bool{}
	for _, list := range claimed {
		for _, u := range list {
			if seen[u] {
				t.Fatalf("%s leased twice", u)
			}
			seen[u] = true
		}
	}
	rest, err := stores[0].Claim(ctx, "last", perWriter*writers, crawl.BFS)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(seen) + len(rest); got != perWriter*writers {
		t.Errorf("%d URLs claimed in all, want %d", got, perWriter*writers)
	}
}
