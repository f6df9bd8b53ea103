package urlfilter

import (
	"testing"
	"time"
)

func TestExperiment(t *testing.T) {
	lookups := 30_000
	if raceEnabled {
		lookups = 5_000
	}
	cfg := ExperimentConfig{Entries: 3000, Buckets: 30, Lookups: lookups, Seed: 1}
	rows, err := Experiment(cfg)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{StructChained, StructBitmap, StructBloom, StructGoMap}
	if len(rows) != len(names) {
		t.Fatalf("%d rows", len(rows))
	}
	for i, r := range rows {
		t.Logf("%+v", r)
		if r.Structure != names[i] || r.Entries != 3000 || r.Lookups != lookups || r.NsPerLookup <= 0 || r.BytesPerEntry <= 0 {
			t.Errorf("row %d: %+v", i, r)
		}
		// 10 % listed, the same URLs for every structure.
		if r.Found != rows[0].Found || r.Found < lookups*7/100 || r.Found > lookups*13/100 {
			t.Errorf("%s found %d of %d", r.Structure, r.Found, lookups)
		}
	}
	chained, bitmap, bloom := rows[0].Comparisons, rows[1].Comparisons, rows[2].Comparisons
	// A chain holds 100 digests: a miss compares all of them in both lists.
	if chained < 150 || bitmap >= chained/3 || bloom >= bitmap/5 || rows[3].Comparisons != -1 {
		t.Errorf("comparisons per URL: chained %.1f, bitmap %.1f, Bloom+bitmap %.1f, map %.1f", chained, bitmap, bloom, rows[3].Comparisons)
	}
	if rows[0].Buckets != 30 || rows[3].Buckets != 0 {
		t.Errorf("buckets: %d, %d", rows[0].Buckets, rows[3].Buckets)
	}
}

func TestExperimentTimeBound(t *testing.T) {
	rows, err := Experiment(ExperimentConfig{Entries: 1000, Buckets: 1, Lookups: 20_000, MaxTime: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if r := rows[0]; r.Lookups >= 20_000 || r.Lookups%1024 != 0 {
		t.Errorf("chained table of one 1,000-digest chain measured %d URLs in 1 ms", r.Lookups)
	}
}

func TestExperimentRefuses(t *testing.T) {
	for _, cfg := range []ExperimentConfig{{Entries: -1}, {Buckets: -5}, {Lookups: -1}, {Listed: 2}} {
		if _, err := Experiment(cfg); err == nil {
			t.Errorf("Experiment(%+v) accepted", cfg)
		}
	}
}
