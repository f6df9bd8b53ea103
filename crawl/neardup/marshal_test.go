package neardup

import (
	"encoding/hex"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func TestMarshalRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	tests := []struct {
		name string
		s    Sketch
	}{
		{"nil", nil},
		{"default", DefaultConfig().Sketch(join(paragraphs(rng, 3, 30)))},
		{"k=16", Config{Hashes: 16}.Sketch("a short page")},
		{"random", randomSketch(rng, 4096)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := tt.s.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			if got, want := len(b), len(tt.s)+min(len(tt.s), 1); got != want {
				t.Errorf("%d bytes, want %d", got, want)
			}
			got := Sketch{1} // overwritten
			if err := got.UnmarshalBinary(b); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.s) || (got == nil) != (tt.s == nil) {
				t.Errorf("round trip gives %v, want %v", got, tt.s)
			}
		})
	}
}

func TestUnmarshalErrors(t *testing.T) {
	for _, b := range [][]byte{{3, 1, 1}, {2, 1, 2, 3}, {0}, {0, 1, 2}} {
		var s Sketch
		if err := s.UnmarshalBinary(b); err == nil {
			t.Errorf("UnmarshalBinary(%v) = %v, want an error", b, s)
		}
	}
}

// TestOlderEncoding checks that a sketch of the first encoding decodes as
// no sketch: it cannot be compared with today's.
func TestOlderEncoding(t *testing.T) {
	s := Sketch{1}
	if err := s.UnmarshalBinary([]byte{1, 0x12, 0x34, 0x56, 0x78}); err != nil || s != nil {
		t.Errorf("encoding 1 decodes as %v, %v; want nil, nil", s, err)
	}
}

// TestGolden pins the sketches of fixed texts under each version: stored
// sketches of a resumed crawl are compared with new ones, so any change to
// shingling, hashing or bin values must be deliberate (go test -update).
// The version 1 lines are those from before version 2 existed.
func TestGolden(t *testing.T) {
	v1 := func(c Config) Config { c.Version = Version1; return c }
	text := join(paragraphs(rand.New(rand.NewPCG(42, 42)), 4, 25))
	cases := []struct {
		name string
		c    Config
		text string
	}{
		{"default", v1(DefaultConfig()), text},
		{"short", v1(DefaultConfig()), "Page not found"},
		{"seeded", Config{Version: Version1, Hashes: 64, Shingle: 3, Seed: 7}, text},
		{"sparse", Config{Version: Version1, Hashes: 64}, "one two three four five six seven eight"},
		{"v2/default", DefaultConfig(), text},
		{"v2/short", DefaultConfig(), "Page not found"},
		{"v2/seeded", Config{Version: Version2, Hashes: 64, Shingle: 3, Seed: 7}, text},
		{"v2/sparse", Config{Version: Version2, Hashes: 64}, "one two three four five six seven eight"},
		{"v2/long-words", Config{Version: Version2, Hashes: 64, Shingle: 2}, "abcdefgh abcdefghijklmnopq x\x00y  tab\there ünïcödé"},
	}
	var b strings.Builder
	for _, tc := range cases {
		m, err := tc.c.Sketch(tc.text).MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s %s\n", tc.name, hex.EncodeToString(m))
	}
	path := filepath.Join("testdata", "sketch.golden")
	if *update {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file (go test -update writes it): %v", err)
	}
	if got := b.String(); got != string(want) {
		t.Errorf("sketches changed; if on purpose, run go test -update and say so, as stored sketches no longer compare:\ngot:\n%s\nwant:\n%s", got, want)
	}
}
