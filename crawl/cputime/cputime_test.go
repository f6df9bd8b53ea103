package cputime

import "testing"

// TestSelfGrows: work shows as CPU time.
func TestSelfGrows(t *testing.T) {
	used := Since()
	x := uint64(1)
	for i := 0; i < 200_000_000 && used() == 0; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	if used() <= 0 {
		t.Fatalf("no CPU time after a busy loop (%d)", x)
	}
}
