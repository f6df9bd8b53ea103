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

func TestTableGrowsByDoubling(t *testing.T) {
	var tab table
	sizes := []int{}
	for i := range uint64(1000) {
		tab.insertNew(splitmix(i), mix(splitmix(i)))
		if len(sizes) == 0 || sizes[len(sizes)-1] != len(tab.slots) {
			sizes = append(sizes, len(tab.slots))
		}
	}
	want := []int{8, 16, 32, 64, 128, 256, 512, 1024, 2048}
	if len(sizes) != len(want) {
		t.Fatalf("slot array sizes %v, want %v", sizes, want)
	}
	for i := range want {
		if sizes[i] != want[i] {
			t.Fatalf("slot array sizes %v, want %v", sizes, want)
		}
	}
}
