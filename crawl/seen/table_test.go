package seen

import "testing"

func TestTableMatchesMap(t *testing.T) {
	tests := []struct {
		name string
		key  func(i uint64) uint64
		n    uint64
	}{
		{"spread", splitmix, 100_000},
		{"sequential from 0", func(i uint64) uint64 { return i }, 50_000},
		{"shared low bits", func(i uint64) uint64 { return i << 32 }, 50_000},
		{"shared high bits", func(i uint64) uint64 { return 0xabcd<<48 | i }, 50_000},
		{"duplicates", func(i uint64) uint64 { return splitmix(i % 1000) }, 20_000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var tab table
			want := map[uint64]bool{}
			for i := range tt.n {
				k := tt.key(i)
				if got, wantAdded := tab.insert(k, mix(k)), !want[k]; got != wantAdded {
					t.Fatalf("insert(%#x) = %v, want %v", k, got, wantAdded)
				}
				want[k] = true
			}
			if got, want := tab.len(), len(want); got != want {
				t.Fatalf("len = %d, want %d", got, want)
			}
			if len(tab.slots) > 0 && !tab.fits(tab.used) {
				t.Errorf("load %d/%d exceeds 3/4", tab.used, len(tab.slots))
			}
			for k := range want {
				if !tab.has(k, mix(k)) {
					t.Fatalf("has(%#x) = false after insert", k)
				}
			}
			for i := range uint64(1000) {
				k := splitmix(1<<40 + i)
				if tab.has(k, mix(k)) != want[k] {
					t.Fatalf("has(%#x) = %v, want %v", k, !want[k], want[k])
				}
			}
			if got := len(tab.keys(nil)); got != len(want) {
				t.Errorf("keys returned %d, want %d", got, len(want))
			}
		})
	}
}

func TestTableZeroKey(t *testing.T) {
	var tab table
	if tab.has(0, mix(0)) {
		t.Fatal("empty table has 0")
	}
	if !tab.insert(0, mix(0)) || tab.insert(0, mix(0)) {
		t.Fatal("insert(0) should succeed once")
	}
	if !tab.has(0, mix(0)) || tab.len() != 1 || tab.slots != nil {
		t.Fatalf("after insert(0): has=%v len=%d slots=%d", tab.has(0, mix(0)), tab.len(), len(tab.slots))
	}
	tab.insertNew(7, mix(7))
	if got := tab.keys(nil); len(got) != 2 || got[0] != 0 || got[1] != 7 {
		t.Errorf("keys = %v, want [0 7]", got)
	}
}

// TestTableGrowth checks that the slot array grows by about a quarter at a
// time and, past its first growths, stays between 3/4 and maxLoad full.
func TestTableGrowth(t *testing.T) {
	var tab table
	var sizes []int
	for i := range uint64(200_000) {
		k := splitmix(i)
		tab.insertNew(k, mix(k))
		if !tab.fits(tab.used) {
			t.Fatalf("%d keys in %d slots: over maxLoad", tab.used, len(tab.slots))
		}
		if len(sizes) == 0 || sizes[len(sizes)-1] != len(tab.slots) {
			sizes = append(sizes, len(tab.slots))
		}
		if len(tab.slots) >= 1000 && float64(tab.used)/float64(len(tab.slots)) < 0.75 {
			t.Fatalf("%d keys in %d slots: under 3/4 full", tab.used, len(tab.slots))
		}
	}
	for i := 1; i < len(sizes); i++ {
		if sizes[i] <= sizes[i-1] || sizes[i] > max(sizes[i-1]*5/4, sizes[i-1]+bucketSlots) {
			t.Fatalf("slot array sizes %v: step %d → %d is not a quarter", sizes, sizes[i-1], sizes[i])
		}
	}
	checkTable(t, &tab)
}

// TestTableFullBuckets fills tables whose keys all share a few buckets, so
// that chains of displacements fail and the table must grow to hold them;
// no key may be lost on the way.
func TestTableFullBuckets(t *testing.T) {
	tests := []struct {
		name string
		n    uint64
		key  func(i uint64) uint64
	}{
		{"one bucket", bucketSlots + 1, splitmix},
		{"tiny", 100, splitmix},
		{"duplicates", 5000, func(i uint64) uint64 { return splitmix(i % 2000) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var tab table
			want := map[uint64]bool{}
			for i := range tt.n {
				k := tt.key(i)
				if tab.insert(k, mix(k)) == want[k] {
					t.Fatalf("insert(%#x) disagrees with the map", k)
				}
				want[k] = true
			}
			if tab.len() != len(want) {
				t.Fatalf("len = %d, want %d", tab.len(), len(want))
			}
			for k := range want {
				if !tab.has(k, mix(k)) {
					t.Fatalf("lost %#x", k)
				}
			}
			checkTable(t, &tab)
		})
	}
}

// TestTableFailedChainKeepsKeys makes every chain of displacements fail, by
// filling both buckets of a table of two, and checks that growing keeps the
// key left without a place as well as all the others.
func TestTableFailedChainKeepsKeys(t *testing.T) {
	tab := table{slots: make([]uint64, 2*bucketSlots), buckets: 2}
	var in []uint64
	for i := uint64(1); len(in) < 2*bucketSlots; i++ {
		k := splitmix(i)
		if _, ok := tab.place(k, mix(k)); !ok {
			t.Fatalf("place failed with %d of %d slots used", len(in), len(tab.slots))
		}
		tab.used++
		in = append(in, k)
	}
	extra := splitmix(1 << 50)
	left, ok := tab.place(extra, mix(extra))
	if ok {
		t.Fatal("place succeeded in a full table")
	}
	tab.grow(left)
	tab.used++
	for _, k := range append(in, extra) {
		if !tab.has(k, mix(k)) {
			t.Fatalf("lost %#x after a failed chain", k)
		}
	}
	checkTable(t, &tab)
}

// checkTable checks the layout the lookups rely on: each bucket's keys fill
// a prefix of it, every key is in one of its two buckets, in its second only
// if its first is full, and used counts the keys.
func checkTable(t *testing.T, tab *table) {
	t.Helper()
	used := 0
	for b := uint64(0); b < uint64(len(tab.slots)); b += bucketSlots {
		empty := false
		for i := b; i < b+bucketSlots; i++ {
			k := tab.slots[i]
			if k == 0 {
				empty = true
				continue
			}
			used++
			if empty {
				t.Fatalf("bucket at slot %d has a key after an empty slot", b)
			}
			b1, b2 := tab.homes(mix(k))
			switch {
			case b == b1:
			case b == b2:
				if _, full := tab.scan(b1, 0); !full {
					t.Fatalf("key %#x in its second bucket while its first has room", k)
				}
			default:
				t.Fatalf("key %#x in bucket at slot %d, not %d or %d", k, b, b1, b2)
			}
		}
	}
	if used != tab.used {
		t.Fatalf("used = %d, slots hold %d keys", tab.used, used)
	}
}
