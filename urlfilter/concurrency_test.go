package urlfilter

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func hostEntries(l List, prefix string, n int) []Entry {
	out := make([]Entry, n)
	for i := range out {
		out[i] = Entry{List: l, Kind: KindHost, Value: fmt.Sprintf("%s%d.example", prefix, i), Category: "c" + prefix}
	}
	return out
}

// TestLookupsRaceUpdates runs lookups while Update and Load swap snapshots
// (run with -race): entries present in every snapshot are always found
// with their category, entries in none never are.
func TestLookupsRaceUpdates(t *testing.T) {
	f := New()
	stable := hostEntries(Black, "stable", 200)
	if err := f.Load(stable); err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for r := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; !stop.Load(); i++ {
				if m := f.Lookup(fmt.Sprintf("http://www.stable%d.example/x", (i+r)%200)); m.List != Black || m.Category != "cstable" {
					errs <- fmt.Errorf("stable entry: %+v", m)
					return
				}
				if m := f.Lookup(fmt.Sprintf("http://never%d.example/", i%50)); m.Found() {
					errs <- fmt.Errorf("never-listed URL: %+v", m)
					return
				}
				f.Lookup(fmt.Sprintf("http://churn%d.example/", i%100))
				f.Len()
			}
		}()
	}
	rounds := 300
	if raceEnabled {
		rounds = 100
	}
	for i := range rounds {
		add := hostEntries(White, "churn", 100)[i%100 : i%100+1]
		remove := hostEntries(White, "churn", 100)[(i+50)%100 : (i+50)%100+1]
		if err := f.Update(add, remove); err != nil {
			t.Fatal(err)
		}
		if i%25 == 0 {
			if err := f.Load(append(hostEntries(White, "churn", i%100), stable...)); err != nil {
				t.Fatal(err)
			}
		}
		runtime.Gosched()
	}
	stop.Store(true)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestLoadWhileLookingUp loads a million entries while other goroutines
// keep looking up: each sees the old lists or the whole new ones, never a
// part. The new lists' first entry, their last and the old marker are
// probed in that order: once the first is found the snapshot is the new
// one, so the last must be found too and the old marker be gone; and
// nothing new is followed by something old.
func TestLoadWhileLookingUp(t *testing.T) {
	n := 1_000_000
	if !longTests() {
		n = 50_000
	}
	f := New()
	if err := f.Load([]Entry{{List: White, Kind: KindHost, Value: "old.example"}}); err != nil {
		t.Fatal(err)
	}
	b := NewBuilder(n)
	for i := range n {
		e := Entry{List: List(1 + i%2), Kind: KindURL, Value: fmt.Sprintf("http://new%d.example/p", i)}
		if err := b.Add(e); err != nil {
			t.Fatal(err)
		}
	}
	first, last := "http://new0.example/p", fmt.Sprintf("http://new%d.example/p", n-1)
	var stop atomic.Bool
	var sawNew atomic.Int32
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			seen := false
			for !stop.Load() {
				a, z, old := f.Lookup(first).Found(), f.Lookup(last).Found(), f.Lookup("http://old.example/").Found()
				switch {
				case a && (!z || old):
					errs <- fmt.Errorf("half a snapshot: first %v, last %v, old %v", a, z, old)
					return
				case seen && !a, z && old:
					errs <- fmt.Errorf("went back to the old snapshot")
					return
				}
				if a && !seen {
					seen = true
					sawNew.Add(1)
				}
			}
		}()
	}
	if err := f.LoadBuilder(b); err != nil {
		t.Fatal(err)
	}
	for sawNew.Load() < 2 && len(errs) == 0 {
		runtime.Gosched()
	}
	stop.Store(true)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if f.Len() != n {
		t.Errorf("Len %d, want %d", f.Len(), n)
	}
}

// TestUpdateIsCheap: a handful of entries on a big filter allocates a few
// buckets and Bloom parts, not a copy of the lists.
func TestUpdateIsCheap(t *testing.T) {
	n := 200_000
	if raceEnabled {
		n = 20_000
	}
	f := New()
	if err := f.Load(hostEntries(Black, "big", n)); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	const updates = 20
	for i := range updates {
		add := hostEntries(Black, fmt.Sprintf("add%d-", i), 5)
		remove := hostEntries(Black, "big", 5*(i+1))[5*i:]
		if err := f.Update(add, remove); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	perUpdate := float64(after.TotalAlloc-before.TotalAlloc) / updates
	total := float64(f.load().lists[0].bytes())
	t.Logf("%d entries (%.1f MB): %.0f bytes allocated per Update of 10 entries", n, total/1e6, perUpdate)
	if perUpdate > 400_000 || n >= 200_000 && perUpdate > total/20 {
		t.Errorf("an Update of 10 entries allocates %.0f bytes; the list is %.0f", perUpdate, total)
	}
	if f.Len() != n {
		t.Errorf("Len %d, want %d", f.Len(), n)
	}
}

// TestTenMillion loads the largest size the parameters are chosen for and
// checks memory, answers and the cost of an Update there. It takes about
// 10 s and 600 MB, so it runs only with TRAWLER_LONG=1.
func TestTenMillion(t *testing.T) {
	if os.Getenv("TRAWLER_LONG") != "1" {
		t.Skip("set TRAWLER_LONG=1 to load ten million entries")
	}
	const n = 10_000_000
	b := NewBuilder(n)
	for i := range n {
		if err := b.Add(Entry{List: List(1 + i%2), Kind: KindURL, Value: "http://e.example/" + strconv.Itoa(i)}); err != nil {
			t.Fatal(err)
		}
	}
	f := New()
	start := time.Now()
	if err := f.LoadBuilder(b); err != nil {
		t.Fatal(err)
	}
	loaded := time.Since(start)
	st := f.Stats()
	t.Logf("loaded in %v: %.2f bytes/entry, %d buckets of %d bits per list", loaded, float64(st.Bytes)/n, st.Black.Buckets, st.Black.BitmapBits)
	if float64(st.Bytes)/n > 24 {
		t.Errorf("%.2f bytes/entry", float64(st.Bytes)/n)
	}
	for _, i := range []int{0, 1, n / 2, n - 1} {
		if m := f.Lookup("http://e.example/" + strconv.Itoa(i)); m.List != List(1+i%2) {
			t.Errorf("entry %d: %+v", i, m)
		}
	}
	if f.Lookup("http://e.example/x").Found() {
		t.Error("unlisted URL found")
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start = time.Now()
	const updates = 20
	for i := range updates {
		add := hostEntries(Black, fmt.Sprintf("u%d-", i), 5)
		if err := f.Update(add, nil); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	t.Logf("Update of 5 entries: %v, %d bytes allocated", time.Since(start)/updates, (after.TotalAlloc-before.TotalAlloc)/updates)
	if per := (after.TotalAlloc - before.TotalAlloc) / updates; per > 1<<20 {
		t.Errorf("an Update of 5 entries allocates %d bytes", per)
	}
}
