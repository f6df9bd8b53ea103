package neardup

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/trawler/trawler/crawl/cputime"
)

// sparseSketch returns a sketch of k bins of which filled (at most k) are
// non-empty, at random places.
func sparseSketch(rng *rand.Rand, k, filled int) Sketch {
	s := make(Sketch, k)
	for _, j := range rng.Perm(k)[:filled] {
		s[j] = uint8(1 + rng.IntN(255))
	}
	return s
}

// mixedSketches returns n sketches of the configuration's size: random
// ones of every density (empty, one bin, around sqrt(k) where lenders
// switch from search to probing, full), near-copies of earlier ones (a
// few bins changed) and exact copies.
func mixedSketches(rng *rand.Rand, c Config, n int) []Sketch {
	k := c.withDefaults().Hashes
	root := 1
	for (root+1)*(root+1) <= k {
		root++
	}
	densities := []int{0, 1, 2, root - 1, root, root + 1, k / 4, k / 2, k - 1, k}
	out := make([]Sketch, 0, n)
	for len(out) < n {
		switch r := rng.IntN(10); {
		case r < 3 && len(out) > 0:
			orig := out[rng.IntN(len(out))]
			from := rng.IntN(k)
			out = append(out, changed(orig, from, min(k, from+1+rng.IntN(k/8+1)), uint8(rng.IntN(250))))
		case r < 4 && len(out) > 0:
			out = append(out, slices.Clone(out[rng.IntN(len(out))]))
		case r < 6:
			out = append(out, sparseSketch(rng, k, densities[rng.IntN(len(densities))]))
		default:
			out = append(out, sparseSketch(rng, k, rng.IntN(k+1)))
		}
	}
	return out
}

// checkIndexSame adds the sketches to an Index and to the reference, in
// order, and fails t at the first Add whose keys, match or outcome differ.
func checkIndexSame(t testing.TB, c Config, sketches []Sketch) {
	t.Helper()
	x, ref := NewIndex(c), newRefIndex(c)
	keys := make([]uint32, x.cfg.Bands)
	for i, s := range sketches {
		if len(s) == x.cfg.Hashes {
			x.keys(s, keys)
			if want := ref.keys(s); !slices.Equal(keys, want) {
				t.Fatalf("page %d: keys %v, reference %v", i, keys, want)
			}
		}
		m, ok := x.Add(uint64(i), s)
		wm, wok := ref.Add(uint64(i), s)
		if m != wm || ok != wok {
			t.Fatalf("page %d: Add = %+v, %v; reference %+v, %v", i, m, ok, wm, wok)
		}
	}
	if x.stored != ref.stored || x.first != ref.first || x.added != ref.added {
		t.Fatalf("stored %d, first %d, added %d; reference %d, %d, %d",
			x.stored, x.first, x.added, ref.stored, ref.first, ref.added)
	}
}

// TestIndexMatchesReference holds Index to the implementation it
// replaced, on text corpora and on random sketches of every density, under
// several configurations, with windows small enough to forget pages and
// sweep the band heads.
func TestIndexMatchesReference(t *testing.T) {
	site, template := siteCorpus(3000), templateCorpus(1500)
	tests := []struct {
		name  string
		c     Config
		texts []string
		n     int // random sketches when texts is nil
	}{
		{"site", DefaultConfig(), site, 0},
		{"site/window", Config{Window: 1024}, site, 0},
		{"template", DefaultConfig(), template, 0},
		{"template/window", Config{Window: 600}, template, 0},
		{"random", DefaultConfig(), nil, 4000},
		{"random/window", Config{Window: 700}, nil, 4000},
		{"random/16", Config{Hashes: 16, Rows: 2, Bands: 8}, nil, 3000},
		{"random/64/seeded", Config{Hashes: 64, Rows: 3, Seed: 99, Threshold: 0.5, Window: 300}, nil, 4000},
		{"random/4096", Config{Hashes: 4096, Rows: 1, Bands: 100, Threshold: 0.7}, nil, 300},
		{"random/rows-all", Config{Hashes: 32, Rows: 32, Bands: 1}, nil, 2000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(len(tt.name)), 31))
			var sketches []Sketch
			for _, text := range tt.texts {
				sketches = append(sketches, tt.c.Sketch(text))
			}
			if tt.texts == nil {
				sketches = mixedSketches(rng, tt.c, tt.n)
			}
			sketches = append(sketches, nil, Sketch{1, 2, 3}) // not recorded
			checkIndexSame(t, tt.c, sketches)
		})
	}
}

// FuzzIndexMatchesReference compares Index with the reference on random
// configurations and sketch sequences drawn from the fuzzer's numbers:
//
//	go test -run '^$' -fuzz FuzzIndexMatchesReference -fuzztime 3m ./crawl/neardup
func FuzzIndexMatchesReference(f *testing.F) {
	f.Add(uint64(1), uint8(6), uint8(4), uint8(3), uint16(500), uint16(0), uint8(90))
	f.Add(uint64(2), uint8(6), uint8(9), uint8(28), uint16(1500), uint16(100), uint8(90))
	f.Add(uint64(3), uint8(4), uint8(1), uint8(16), uint16(2000), uint16(1025), uint8(1))
	f.Fuzz(func(t *testing.T, seed uint64, logK, rows, bands uint8, n, window uint16, threshold uint8) {
		k := 1 << (4 + logK%9)
		c := Config{
			Hashes: k, Rows: 1 + int(rows)%k, Seed: seed,
			Window: int(window) % 1500, Threshold: float64(1+threshold%100) / 100,
		}
		c.Bands = 1 + int(bands)%max(1, k/c.Rows)
		if c.Validate() != nil {
			t.Skip()
		}
		// Pages are fewer the larger the sketch, so that an input runs in
		// well under the fuzzer's ten seconds on a loaded machine; the table
		// test covers windows over large sketches.
		pages := min(int(n)%2500, 300_000/k)
		rng := rand.New(rand.NewPCG(seed, uint64(n)))
		checkIndexSame(t, c, mixedSketches(rng, c, pages))
	})
}

// BenchmarkIndexVsReference adds 3,000 pages of a site and of a template
// to an Index and to the reference it replaced, reporting the time per
// page in CPU time besides wall time, which on a shared machine says more.
func BenchmarkIndexVsReference(b *testing.B) {
	const n = 3000
	c := DefaultConfig()
	for _, corpus := range []struct {
		name  string
		texts func(int) []string
	}{{"site", siteCorpus}, {"template", templateCorpus}} {
		sketches := make([]Sketch, n)
		for i, text := range corpus.texts(n) {
			sketches[i] = c.Sketch(text)
		}
		for _, impl := range []struct {
			name string
			add  func() func(uint64, Sketch) (Match, bool)
		}{
			{"ref", func() func(uint64, Sketch) (Match, bool) { return newRefIndex(c).Add }},
			{"new", func() func(uint64, Sketch) (Match, bool) { return NewIndex(c).Add }},
		} {
			b.Run(corpus.name+"/impl="+impl.name, func(b *testing.B) {
				cpu := cputime.Since()
				for b.Loop() {
					add := impl.add()
					for i, s := range sketches {
						add(uint64(i), s)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/page")
				b.ReportMetric(float64(cpu().Nanoseconds())/float64(b.N*n), "cpu-ns/page")
			})
		}
	}
}
