package frontier

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
)

// tree is a site where page p links to children p*10+1 … p*10+3 (3 levels).
func children(p int) []int {
	if p >= 100 {
		return nil
	}
	return []int{p*10 + 1, p*10 + 2, p*10 + 3}
}

func entries(ids ...int) []Entry[int] {
	out := make([]Entry[int], len(ids))
	for i, id := range ids {
		out[i] = Entry[int]{Value: id, FP: uint64(id)}
	}
	return out
}

func oneHost(int) string { return "h:80" }

// walk crawls the tree with one worker and returns the visit order.
func walk(t *testing.T, cfg Config) []int {
	t.Helper()
	f := New[int](cfg)
	f.Push(entries(1, 2), oneHost)
	var order []int
	for !f.Idle() {
		l, err := f.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range l.Entries {
			order = append(order, e.Value)
			f.Push(entries(children(e.Value)...), oneHost)
		}
		f.Return(l)
	}
	return order
}

func TestOrder(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		want []int
	}{
		{"bfs", Config{Order: BFS, Batch: 1}, []int{1, 2, 11, 12, 13, 21, 22, 23, 111, 112, 113, 121, 122, 123, 131, 132, 133, 211, 212, 213, 221, 222, 223, 231, 232, 233}},
		{"bfs batch", Config{Order: BFS, Batch: 4}, []int{1, 2, 11, 12, 13, 21, 22, 23, 111, 112, 113, 121, 122, 123, 131, 132, 133, 211, 212, 213, 221, 222, 223, 231, 232, 233}},
		{"dfs", Config{Order: DFS, Batch: 1}, []int{1, 11, 111, 112, 113, 12, 121, 122, 123, 13, 131, 132, 133, 2, 21, 211, 212, 213, 22, 221, 222, 223, 23, 231, 232, 233}},
		{"mixed 0 is bfs", Config{Order: Mixed, Mix: 0, Batch: 1}, nil},
		{"mixed 1 is dfs", Config{Order: Mixed, Mix: 1, Batch: 1}, nil},
	}
	results := map[string][]int{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := walk(t, tt.cfg)
			results[tt.name] = got
			if tt.want != nil && !slices.Equal(got, tt.want) {
				t.Errorf("order\n got %v\nwant %v", got, tt.want)
			}
		})
	}
	if !slices.Equal(results["mixed 0 is bfs"], tests[0].want) {
		t.Errorf("mixed with Mix 0 differs from bfs: %v", results["mixed 0 is bfs"])
	}
	if !slices.Equal(results["mixed 1 is dfs"], tests[2].want) {
		t.Errorf("mixed with Mix 1 differs from dfs: %v", results["mixed 1 is dfs"])
	}
}

func TestMixedIsSeededAndBetween(t *testing.T) {
	a := walk(t, Config{Order: Mixed, Mix: 0.5, Seed: 7, Batch: 1})
	b := walk(t, Config{Order: Mixed, Mix: 0.5, Seed: 7, Batch: 1})
	c := walk(t, Config{Order: Mixed, Mix: 0.5, Seed: 8, Batch: 1})
	if !slices.Equal(a, b) {
		t.Errorf("same seed, different orders:\n%v\n%v", a, b)
	}
	if slices.Equal(a, c) {
		t.Errorf("seeds 7 and 8 gave the same order %v", a)
	}
	bfs := walk(t, Config{Order: BFS, Batch: 1})
	dfs := walk(t, Config{Order: DFS, Batch: 1})
	if slices.Equal(a, bfs) || slices.Equal(a, dfs) {
		t.Errorf("mixed 0.5 equals a pure order: %v", a)
	}
	if len(a) != len(bfs) {
		t.Errorf("mixed visited %d URLs, bfs %d", len(a), len(bfs))
	}
}

func TestLower(t *testing.T) {
	f := New[int](Config{})
	f.Push([]Entry[int]{{Value: 5, FP: 5, Depth: 4}}, oneHost)
	if !f.Lower(5, 2) || f.Lower(6, 1) {
		t.Fatal("Lower found the wrong entries")
	}
	f.Lower(5, 3) // a larger depth never raises it
	l, _ := f.Next(context.Background())
	if got := l.Entries[0].Depth; got != 2 {
		t.Errorf("depth = %d, want 2", got)
	}
	if f.Lower(5, 1) {
		t.Error("an entry taken by a worker is still lowered")
	}
}

// TestPerHostLimit checks that a host is never worked by more workers than
// it has queues, while other hosts keep the remaining workers busy.
func TestPerHostLimit(t *testing.T) {
	for _, perHost := range []int{1, 3} {
		t.Run(fmt.Sprint(perHost), func(t *testing.T) {
			f := New[int](Config{PerHost: perHost, Batch: 1})
			hostOf := func(v int) string { return fmt.Sprintf("h%d:80", v%2) }
			var es []Entry[int]
			for i := range 200 {
				es = append(es, Entry[int]{Value: i, FP: uint64(i * 7919)})
			}
			f.Push(es, hostOf)
			var mu sync.Mutex
			busy, peak := map[string]int{}, map[string]int{}
			var wg sync.WaitGroup
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			for range 8 {
				wg.Go(func() {
					for {
						l, err := f.Next(ctx)
						if err != nil {
							return
						}
						mu.Lock()
						busy[l.Host]++
						peak[l.Host] = max(peak[l.Host], busy[l.Host])
						mu.Unlock()
						time.Sleep(100 * time.Microsecond)
						mu.Lock()
						busy[l.Host]--
						mu.Unlock()
						f.Return(l)
						if f.Idle() {
							cancel()
						}
					}
				})
			}
			wg.Wait()
			for h, p := range peak {
				if p > perHost {
					t.Errorf("host %s had %d workers at once, limit %d", h, p, perHost)
				}
			}
			if f.Len() != 0 {
				t.Errorf("%d URLs left", f.Len())
			}
		})
	}
}

func TestDelayKeepsOtherHostsGoing(t *testing.T) {
	f := New[int](Config{PerHost: 2, Batch: 4})
	f.SetDelay("slow:80", time.Hour)
	hostOf := func(v int) string {
		if v < 100 {
			return "slow:80"
		}
		return "fast:80"
	}
	f.Push(entries(1, 2, 3, 101, 102, 103, 104, 105, 106), hostOf)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var slow, fast int
	for fast < 6 {
		l, err := f.Next(ctx)
		if err != nil {
			t.Fatalf("Next: %v (slow %d, fast %d)", err, slow, fast)
		}
		if l.Host == "slow:80" {
			slow += len(l.Entries)
		} else {
			fast += len(l.Entries)
		}
		f.Return(l)
	}
	if slow != 1 {
		t.Errorf("slow host served %d URLs within its hour-long delay, want 1", slow)
	}
	if got := f.Len(); got != 2 {
		t.Errorf("waiting = %d, want 2", got)
	}
}

func TestNextUnblocks(t *testing.T) {
	f := New[int](Config{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { _, err := f.Next(ctx); done <- err }()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("after cancel: %v", err)
	}
	go func() { _, err := f.Next(context.Background()); done <- err }()
	f.Close()
	if err := <-done; !errors.Is(err, ErrClosed) {
		t.Errorf("after Close: %v", err)
	}
}

func TestDrain(t *testing.T) {
	f := New[int](Config{PerHost: 3})
	f.Push(entries(1, 2, 3, 4, 5), oneHost)
	l, _ := f.Next(context.Background())
	got := f.Drain()
	if len(got)+len(l.Entries) != 5 || f.Len() != 0 {
		t.Errorf("drained %d + leased %d, want 5 in all", len(got), len(l.Entries))
	}
}

func TestPushUrgent(t *testing.T) {
	hostOf := func(v int) string { return fmt.Sprintf("h%d:80", v/100) }
	f := New[int](Config{Batch: 1})
	f.Push(entries(101, 102, 103), hostOf)
	f.Push(entries(201, 202), hostOf)
	f.PushUrgent(entries(301, 103), hostOf)
	if f.Len() != 6 {
		t.Fatalf("Len = %d after moving 103 to the lane, want 6", f.Len())
	}
	var got []int
	for !f.Idle() {
		l, err := f.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range l.Entries {
			got = append(got, e.Value)
		}
		f.Return(l)
	}
	// The lane's hosts go first, each lane URL first within its queue;
	// the moved URL is not taken twice.
	want := []int{103, 301, 201, 101, 202, 102}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("order %v, want %v", got, want)
	}
	if f.Len() != 0 {
		t.Errorf("Len = %d at the end", f.Len())
	}
}

func TestUrgentWaitsForItsHost(t *testing.T) {
	now := time.Unix(1000, 0)
	f := New[int](Config{Batch: 1, Delay: time.Hour, Now: func() time.Time { return now }})
	f.Push(entries(1, 2), oneHost)
	l, _ := f.Next(context.Background())
	f.Return(l)
	f.PushUrgent(entries(3), oneHost)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if l, err := f.Next(ctx); err == nil {
		t.Fatalf("took %v before the host's delay ended", l.Entries)
	}
	if got := f.Drain(); len(got) != 2 || got[0].Value != 3 {
		t.Errorf("drained %v, want the lane's URL first and 2 in all", got)
	}
}

// TestSetPerHost lowers and raises a host's limit while its queues are in
// workers' hands.
func TestSetPerHost(t *testing.T) {
	f := New[int](Config{PerHost: 3, Batch: 1})
	f.Push(entries(1, 2, 3, 4, 5, 6, 7, 8, 9), oneHost)
	ctx := context.Background()
	var held []*Lease[int]
	for range 3 {
		l, _ := f.Next(ctx)
		held = append(held, l)
	}
	f.SetPerHost(1)
	f.Return(held[0])
	f.Return(held[1])
	ctx2, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if l, err := f.Next(ctx2); err == nil {
		t.Fatalf("took %v with one queue in a worker's hands and a limit of 1", l.Entries)
	}
	f.Return(held[2])
	l, err := f.Next(ctx)
	if err != nil {
		t.Fatal(err)
	}
	f.SetPerHost(5)
	f.Push(entries(10, 11, 12, 13, 14, 15, 16, 17, 18, 19), oneHost) // into all five queues now
	var more []*Lease[int]
	for range 4 {
		ctx3, cancel := context.WithTimeout(ctx, time.Second)
		m, err := f.Next(ctx3)
		cancel()
		if err != nil {
			t.Fatalf("after raising the limit to 5: %v", err)
		}
		more = append(more, m)
	}
	if got := f.Hosts()[0].Busy; got != 5 {
		t.Errorf("busy %d, want 5", got)
	}
	f.Return(l)
	for _, m := range more {
		f.Return(m)
	}
}

// TestQueuesEvenlyFilled: a host's URLs are dealt to its queues in turn,
// whatever their fingerprints, so every queue has as many to give, give
// or take one, and the host's workers run dry together.
func TestQueuesEvenlyFilled(t *testing.T) {
	const perHost = 4
	for _, tt := range []struct {
		name string
		fp   func(i int) uint64
	}{
		{"spread fingerprints", func(i int) uint64 { return uint64(i) * 0x9e3779b97f4a7c15 }},
		{"fingerprints of one residue", func(i int) uint64 { return uint64(i) * perHost }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := New[int](Config{PerHost: perHost, Batch: 1})
			for page := range 10 { // ten pages of 7 links each
				var es []Entry[int]
				for j := range 7 {
					i := page*7 + j
					es = append(es, Entry[int]{Value: i, FP: tt.fp(i)})
				}
				f.Push(es, func(int) string { return "a:80" })
			}
			var lens []int
			for _, q := range f.hosts["a:80"].queues {
				lens = append(lens, q.n)
			}
			if slices.Max(lens)-slices.Min(lens) > 1 {
				t.Errorf("queue lengths %v: want them within one of each other", lens)
			}
		})
	}
}

// TestDelayMeansOneAtATime: a host with a delay gets one request at a time
// whatever its per-host limit, the next the delay after the last ended.
// With two at once, a first answer slower than the delay let the second
// request start while it was under way, and a server saw the two closer
// than the delay.
func TestDelayMeansOneAtATime(t *testing.T) {
	const delay = time.Millisecond
	f := New[int](Config{PerHost: 2, Batch: 4})
	f.SetDelay("h:80", delay)
	f.Push(entries(1, 2, 3), oneHost)
	ctx := context.Background()
	first, err := f.Next(ctx)
	if err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 100*delay)
	defer cancel()
	if l, err := f.Next(short); err == nil {
		t.Fatalf("a second lease %v of the host while %v is under way, 100 delays after it began", l.Entries, first.Entries)
	}
	ended := time.Now()
	f.Return(first)
	second, err := f.Next(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if gap := time.Since(ended); gap < delay {
		t.Errorf("the second lease came %v after the first ended, delay %v", gap, delay)
	}
	if len(first.Entries) != 1 || len(second.Entries) != 1 {
		t.Errorf("leases of %d and %d URLs, want one each under a delay", len(first.Entries), len(second.Entries))
	}
}
