package neardup

import (
	"math"
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	tests := []struct {
		c    Config
		want string // a part of the error; "" for none
	}{
		{Config{}, ""},
		{DefaultConfig(), ""},
		{Config{Hashes: 16}, ""},
		{Config{Hashes: 4096, Bands: 4096, Rows: 1, Shingle: MaxShingle, Threshold: 1}, ""},
		{Config{Version: Version1}, ""},
		{Config{Version: Version2}, ""},
		{Config{Version: -1}, "sketch version -1"},
		{Config{Version: LatestVersion + 1}, "sketch version 3"},
		{Config{Shingle: -1}, "shingle size -1"},
		{Config{Shingle: MaxShingle + 1}, "shingle size 65"},
		{Config{Hashes: 100}, "hashes 100"},
		{Config{Hashes: 8}, "hashes 8"},
		{Config{Hashes: 8192}, "hashes 8192"},
		{Config{Bands: 257}, "bands 257"},
		{Config{Bands: -3}, "bands -3"},
		{Config{Rows: -1}, "rows -1"},
		{Config{Rows: 2000}, "rows 2000"},
		{Config{Hashes: 16, Bands: 2}, "bands 2 of 9 rows"},
		{Config{Threshold: 1.5}, "threshold 1.5"},
		{Config{Threshold: -0.1}, "threshold -0.1"},
		{Config{Threshold: math.NaN()}, "threshold NaN"},
	}
	for _, tt := range tests {
		err := tt.c.Validate()
		if tt.want == "" && err != nil {
			t.Errorf("%+v: %v, want no error", tt.c, err)
		}
		if tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%+v: %v, want an error about %q", tt.c, err, tt.want)
		}
	}
}

func TestInvalidConfigPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"Sketch":   func() { Config{Hashes: 100}.Sketch("x") },
		"NewIndex": func() { NewIndex(Config{Threshold: 2}) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s with an invalid Config did not panic", name)
				}
			}()
			f()
		}()
	}
}

// TestDetectionProbability pins the S-curve of the defaults quoted in the
// package documentation, and checks it against the formula.
func TestDetectionProbability(t *testing.T) {
	c := DefaultConfig()
	if got := c.Rows; got != 9 {
		t.Fatalf("Rows = %d, want 9", got)
	}
	tests := []struct{ s, lo, hi float64 }{
		{0, 0, 0},
		{0.5, 0.001, 0.002},
		{0.7, 0.10, 0.11},
		{0.8, 0.52, 0.53},
		{0.9, 0.993, 0.994},
		{0.95, 0.99999, 1},
		{1, 1, 1},
	}
	for _, tt := range tests {
		got := c.DetectionProbability(tt.s)
		if got < tt.lo || got > tt.hi {
			t.Errorf("DetectionProbability(%v) = %.5f, want in [%v, %v]", tt.s, got, tt.lo, tt.hi)
		}
		j := tt.s / (2 - tt.s)
		if want := 1 - math.Pow(1-math.Pow(j, 9), 28); math.Abs(got-want) > 1e-12 {
			t.Errorf("DetectionProbability(%v) = %v, formula gives %v", tt.s, got, want)
		}
	}
}
