package urlfilter

import (
	"crypto/md5"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"testing"
	"unsafe"
)

// longTests reports whether slow tests run at full size: always without
// the race detector (unless -short), and with it only when TRAWLER_LONG=1.
func longTests() bool {
	return os.Getenv("TRAWLER_LONG") == "1" || !raceEnabled && !testing.Short()
}

// digestN returns the i-th test digest of a family (distinct families never
// collide, short of an MD5 collision).
func digestN(family byte, i int) Digest {
	var b [9]byte
	b[0] = family
	binary.LittleEndian.PutUint64(b[1:], uint64(i))
	return md5.Sum(b[:])
}

func digests(family byte, n int) []slot {
	out := make([]slot, n)
	for i := range out {
		out[i] = slot{d: digestN(family, i), tag: uint8(i % 7)}
	}
	return out
}

// checkTable compares t with want: every listed digest found with its tag,
// the count right, and every digest of t in want.
func checkTable(t *testing.T, tb *table, want map[Digest]uint8) {
	t.Helper()
	if tb.count != len(want) {
		t.Fatalf("count %d, want %d", tb.count, len(want))
	}
	for d, tag := range want {
		if got, ok := tb.lookup(&d); !ok || got != tag {
			t.Fatalf("lookup(%x) = %d %v, want %d", d[:4], got, ok, tag)
		}
		if got, ok, _ := tb.lookupCount(&d); !ok || got != tag {
			t.Fatalf("lookupCount(%x) = %d %v, want %d", d[:4], got, ok, tag)
		}
	}
	n := 0
	tb.each(func(s *slot) {
		n++
		if tag, ok := want[s.d]; !ok || tag != s.tag {
			t.Fatalf("table holds %x tag %d, want map says %d %v", s.d[:4], s.tag, tag, ok)
		}
	})
	if n != len(want) {
		t.Fatalf("each visited %d digests, want %d", n, len(want))
	}
}

// TestTableAgainstMap applies random inserts, re-inserts with a new tag and
// removes through writers, checking each published table against a map,
// and that tables published earlier are untouched by later writers.
func TestTableAgainstMap(t *testing.T) {
	for _, tc := range []struct {
		name    string
		entries int // Load size
		buckets int
		rounds  int
		keys    int // key space of the random operations
	}{
		{"empty start", 0, 0, 300, 400},
		{"tiny, one bucket", 10, 1, 300, 60},
		{"paper shape", 2000, 20, 200, 3000},
		{"default shape", 5000, 0, 100, 8000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if raceEnabled {
				tc.rounds /= 3
			}
			rng := rand.New(rand.NewPCG(1, uint64(tc.entries)))
			items := make([]slot, tc.entries)
			want := map[Digest]uint8{}
			for i := range items {
				items[i] = slot{d: digestN(1, rng.IntN(tc.keys)), tag: uint8(rng.IntN(4))}
				want[items[i].d] = items[i].tag
			}
			tb := buildTable(shapeFor(tc.entries, tc.buckets, true), items, nil)
			checkTable(t, tb, want)
			type published struct {
				tb   *table
				want map[Digest]uint8
			}
			var history []published
			for round := range tc.rounds {
				history = append(history, published{tb, clone(want)})
				w := newWriter(tb)
				for range 1 + rng.IntN(20) {
					d := digestN(1, rng.IntN(tc.keys))
					if rng.IntN(3) == 0 {
						_, listed := want[d]
						if w.remove(&d) != listed {
							t.Fatalf("round %d: remove = %v, listed %v", round, !listed, listed)
						}
						delete(want, d)
						continue
					}
					tag := uint8(rng.IntN(4))
					_, listed := want[d]
					if w.insert(&d, tag) != listed {
						t.Fatalf("round %d: insert replaced = %v, listed %v", round, !listed, listed)
					}
					want[d] = tag
				}
				tb = w.done()
				checkTable(t, tb, want)
			}
			for _, h := range history[max(0, len(history)-5):] {
				checkTable(t, h.tb, h.want)
			}
		})
	}
}

func clone(m map[Digest]uint8) map[Digest]uint8 {
	c := make(map[Digest]uint8, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// TestTableGrowth inserts one digest at a time into a table sized for far
// fewer, so that its bucket arrays grow by r several times over.
func TestTableGrowth(t *testing.T) {
	tb := buildTable(shapeFor(64, 2, false), nil, nil)
	p0 := len(tb.buckets[0].slots)
	want := map[Digest]uint8{}
	growths := 0
	for i := range 2000 {
		d := digestN(2, i)
		w := newWriter(tb)
		p := len(tb.buckets[tb.bucketOf(&d)].slots)
		w.insert(&d, uint8(i))
		want[d] = uint8(i)
		tb = w.t // not done(): keep the original shape so arrays must grow
		if q := len(tb.buckets[tb.bucketOf(&d)].slots); q != p {
			growths++
			if q != max(p+1, int(float64(p)*growFactor+0.999999)) {
				t.Fatalf("array grew from %d to %d slots, want ×%v", p, q, growFactor)
			}
		}
	}
	checkTable(t, tb, want)
	if p := len(tb.buckets[0].slots); float64(p) < float64(p0)*growFactor*growFactor*growFactor*growFactor {
		t.Errorf("bucket 0 grew from %d to only %d slots", p0, p)
	}
	if growths < 8 {
		t.Errorf("%d growths", growths)
	}
	// Now remove all but a few, from the overflow area and the bitmap area.
	for i := range 1990 {
		d := digestN(2, i)
		w := newWriter(tb)
		if !w.remove(&d) {
			t.Fatalf("remove %d failed", i)
		}
		tb = w.t
		delete(want, d)
	}
	checkTable(t, tb, want)
}

// TestNoFalsePositives lists a million digests, checks every one is found
// and that none of a million others is.
func TestNoFalsePositives(t *testing.T) {
	n := 1_000_000
	if !longTests() {
		n = 20_000
	}
	listed := digests(3, n)
	for _, withBloom := range []bool{true, false} {
		tb := buildTable(shapeFor(n, 0, withBloom), listed, nil)
		for i := range listed {
			if tag, ok := tb.lookup(&listed[i].d); !ok || tag != listed[i].tag {
				t.Fatalf("listed digest %d: %d %v", i, tag, ok)
			}
		}
		passed := 0
		for i := range n {
			d := digestN(4, i)
			if _, ok := tb.lookup(&d); ok {
				t.Fatalf("unlisted digest %d found (bloom %v)", i, withBloom)
			}
			if withBloom && tb.front.test(&d) {
				passed++
			}
		}
		if withBloom {
			rate := float64(passed) / float64(n)
			t.Logf("%d entries: Bloom filter passes %.3f%% of unlisted digests, %.2f bytes/entry",
				n, 100*rate, float64(tb.bytes())/float64(n))
			if rate > 0.02 {
				t.Errorf("Bloom false-positive rate %.4f", rate)
			}
		}
	}
}

// TestBytesPerEntry checks the memory target, counted from the table's
// allocations and, as a cross-check, from the heap.
func TestBytesPerEntry(t *testing.T) {
	if unsafe.Sizeof(slot{}) != 17 {
		t.Fatalf("slot is %d bytes", unsafe.Sizeof(slot{}))
	}
	sizes := []int{10, 10_000, 200_000}
	if raceEnabled {
		sizes = sizes[:2]
	}
	for _, n := range sizes {
		items := digests(5, n)
		heap, _ := measureHeap(n*24, func() any { return buildTable(shapeFor(n, 0, true), items, nil) })
		tb := buildTable(shapeFor(n, 0, true), items, nil)
		per := float64(tb.bytes()) / float64(n)
		t.Logf("%d entries: %.2f bytes/entry counted, %.2f on the heap; n=%d w=%d", n, per, heap/float64(n), tb.n, tb.w)
		if n >= 10_000 && (per > 24 || heap/float64(n) > 24) {
			t.Errorf("%d entries: %.2f bytes/entry counted, %.2f on the heap", n, per, heap/float64(n))
		}
	}
}

// TestFilterBytesPerEntry checks the memory target for a whole Filter
// (both lists, their Bloom filters, the sieve), by Stats and by the heap.
func TestFilterBytesPerEntry(t *testing.T) {
	n := 1_000_000
	if !longTests() {
		n = 40_000
	}
	b := NewBuilder(n)
	for i := range n {
		e := Entry{List: List(1 + i%2), Kind: Kind(1 + i%3), Value: fmt.Sprintf("v%d.example/x", i), Category: fmt.Sprint(i % 9)}
		if err := b.Add(e); err != nil {
			t.Fatal(err)
		}
	}
	heap, x := measureHeap(n*24, func() any {
		f := New()
		if err := f.LoadBuilder(b); err != nil {
			t.Fatal(err)
		}
		return f
	})
	runtime.KeepAlive(b) // not counted: the builder lives before and after
	st := x.(*Filter).Stats()
	t.Logf("%d entries: %.2f bytes/entry by Stats, %.2f on the heap; %+v", n, float64(st.Bytes)/float64(n), heap/float64(n), st)
	if st.Black.Entries+st.White.Entries != n || st.Categories != 9 || st.Black.Buckets == 0 || st.Black.BloomBits == 0 || st.SieveBits == 0 {
		t.Errorf("stats %+v", st)
	}
	if float64(st.Bytes)/float64(n) > 24 || heap/float64(n) > 24 {
		t.Errorf("%.2f bytes/entry by Stats, %.2f on the heap", float64(st.Bytes)/float64(n), heap/float64(n))
	}
}
