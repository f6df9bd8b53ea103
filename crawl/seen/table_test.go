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

// TestTableGrowth checks that the slot array grows by a quarter at a time
// and, past its first growths, stays between 0.72 and maxLoad full.
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
		if len(tab.slots) >= 1000 && float64(tab.used)/float64(len(tab.slots)) < 0.72 {
			t.Fatalf("%d keys in %d slots: under 0.72 full", tab.used, len(tab.slots))
		}
	}
	for i := 1; i < len(sizes); i++ {
		if sizes[i] <= sizes[i-1] || sizes[i] > max(sizes[i-1]*5/4, minSlots) {
			t.Fatalf("slot array sizes %v: step %d → %d is not a quarter", sizes, sizes[i-1], sizes[i])
		}
	}
	checkTable(t, &tab)
}

// TestTableWraps fills a small table whose keys all have their home in the
// last slots, so that their runs wrap around to the start, and checks that
// lookups and growth follow them there.
func TestTableWraps(t *testing.T) {
	tab := table{slots: make([]uint64, 64)}
	var in []uint64
	for i := uint64(1); len(in) < 40; i++ {
		k := splitmix(i)
		if tab.home(mix(k)) >= 60 {
			tab.insertNew(k, mix(k))
			in = append(in, k)
		}
	}
	if tab.slots[0] == 0 {
		t.Fatal("no key wrapped around to slot 0")
	}
	checkTable(t, &tab)
	for _, k := range in {
		if !tab.has(k, mix(k)) {
			t.Fatalf("lost %#x", k)
		}
	}
	for i := uint64(1 << 40); tab.len() < 1000; i++ {
		tab.insertNew(splitmix(i), mix(splitmix(i)))
	}
	checkTable(t, &tab)
	for _, k := range in {
		if !tab.has(k, mix(k)) {
			t.Fatalf("lost %#x after growing", k)
		}
	}
}

// checkTable checks the layout lookups rely on: every key is found by
// walking from its home slot without crossing an empty slot, and used
// counts the keys.
func checkTable(t *testing.T, tab *table) {
	t.Helper()
	used := 0
	for i, k := range tab.slots {
		if k == 0 {
			continue
		}
		used++
		for j := tab.home(mix(k)); j != i; j = (j + 1) % len(tab.slots) {
			if tab.slots[j] == 0 {
				t.Fatalf("key %#x at slot %d, but slot %d between its home and it is empty", k, i, j)
			}
		}
	}
	if used != tab.used {
		t.Fatalf("used = %d, slots hold %d keys", tab.used, used)
	}
}
