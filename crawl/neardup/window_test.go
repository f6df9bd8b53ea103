package neardup

import (
	"math/rand/v2"
	"testing"
)

// TestWindow adds 20,000 random pages to an index holding 2,048, with
// near-copies (one bin in ten changed) of pages 100 and 19,000 pages back:
// the recent original is found, the old one is not, and the index holds
// about the window's worth of pages and band keys.
func TestWindow(t *testing.T) {
	const window, n = 2048, 20_000
	c := Config{Window: window}
	rng := rand.New(rand.NewPCG(21, 21))
	x := NewIndex(c)
	var sketches []Sketch
	for i := range n {
		s := randomSketch(rng, DefaultHashes)
		sketches = append(sketches, s)
		if _, ok := x.Add(uint64(i), s); ok {
			t.Fatalf("random page %d matched", i)
		}
	}
	for _, tt := range []struct {
		back int
		want bool
	}{{100, true}, {window - chunkPages, true}, {n - 1000, false}} {
		orig := n - tt.back
		near := changed(sketches[orig], 0, DefaultHashes/10, 5)
		m, ok := x.Add(uint64(n+tt.back), near)
		if ok != tt.want || (ok && m.ID != uint64(orig)) {
			t.Errorf("copy of the page %d back: Add = %+v, %v; want found %v", tt.back, m, ok, tt.want)
		}
	}
	if held := x.Held(); held < window || held > window+2*chunkPages {
		t.Errorf("Held = %d, want %d to %d", held, window, window+2*chunkPages)
	}
	keys := 0
	for _, h := range x.heads {
		keys += h.used
	}
	if max := (window + window/4 + 2*chunkPages) * DefaultBands; keys > max {
		t.Errorf("%d band keys kept, want at most %d", keys, max)
	}
	chunks := 0
	for _, c := range x.chunks {
		if c != nil {
			chunks++
		}
	}
	if chunks*chunkPages > window+2*chunkPages {
		t.Errorf("%d chunks of sketches kept for a window of %d pages", chunks, window)
	}
}
