package neardup

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// versions are the sketch versions the corpus and accuracy tests run
// under.
var versions = []int{Version1, Version2}

// TestNearCopies is the first criterion: a page with one paragraph
// of twenty rewritten is a near-duplicate at the default threshold, one
// with half of them rewritten is not, under either version.
func TestNearCopies(t *testing.T) {
	for _, v := range versions {
		t.Run(fmt.Sprintf("v=%d", v), func(t *testing.T) {
			c := DefaultConfig()
			c.Version = v
			testNearCopies(t, c)
		})
	}
}

func testNearCopies(t *testing.T, c Config) {
	tests := []struct {
		name    string
		rewrite []int // paragraphs rewritten, of 20
		want    bool
	}{
		{"first paragraph", []int{0}, true},
		{"middle paragraph", []int{10}, true},
		{"last paragraph", []int{19}, true},
		{"half, alternate", []int{0, 2, 4, 6, 8, 10, 12, 14, 16, 18}, false},
		{"half, first ten", []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lo, hi := 1.0, 0.0
			defer func() { t.Logf("estimated similarity %.3f to %.3f over 25 texts", lo, hi) }()
			for trial := range 25 {
				rng := rand.New(rand.NewPCG(uint64(trial), 6))
				ps := paragraphs(rng, 20, 50)
				a, b := join(ps), join(replaced(rng, ps, tt.rewrite...))
				_, dice := exact(shingleSet(a, c.Shingle), shingleSet(b, c.Shingle))
				sa, sb := c.Sketch(a), c.Sketch(b)
				lo, hi = min(lo, Similarity(sa, sb)), max(hi, Similarity(sa, sb))
				x := NewIndex(c)
				x.Add(1, sa)
				m, ok := x.Add(2, sb)
				if ok != tt.want || (ok && m != Match{ID: 1, Similarity: Similarity(sa, sb), Group: 1}) {
					t.Fatalf("trial %d: Add = %+v, %v; want match %v (exact similarity %.3f, estimate %.3f)",
						trial, m, ok, tt.want, dice, Similarity(sa, sb))
				}
			}
		})
	}
}

// pair is two texts with their exact and estimated resemblance.
type pair struct {
	a, b          string
	jaccard, dice float64
}

// varied returns n pairs whose overlap is spread over [0, 1]: texts of 3
// to 2,000 words in paragraphs of 10, the second text with each paragraph
// rewritten with a probability drawn per pair, and sometimes paragraphs
// added or dropped at the end.
func varied(n, w int) []pair {
	rng := rand.New(rand.NewPCG(1000, 3))
	ps := make([]pair, n)
	for i := range ps {
		var base [][]string
		switch {
		case i%20 == 0: // a few tiny pages
			base = paragraphs(rng, 1, 3+rng.IntN(30))
		default:
			base = paragraphs(rng, 2+int(math.Exp(rng.Float64()*math.Log(199))), 10)
		}
		q := rng.Float64()
		other := slices.Clone(base)
		for j := range other {
			if rng.Float64() < q {
				other[j] = editWords(rng, other[j], 1+rng.IntN(len(other[j])))
			}
		}
		if i%4 == 1 {
			other = append(other, paragraphs(rng, 1+rng.IntN(len(base)), 10)...)
		} else if i%4 == 2 && len(other) > 1 {
			other = other[:1+rng.IntN(len(other)-1)]
		}
		a, b := join(base), join(other)
		ps[i].a, ps[i].b = a, b
		ps[i].jaccard, ps[i].dice = exact(shingleSet(a, w), shingleSet(b, w))
	}
	return ps
}

// TestEstimateAccuracy compares the MinHash estimate with the exact
// Jaccard index on 1,000 pairs of varied overlap and size. The estimate
// from n bins not empty in both has a standard deviation of about
// sqrt(p(1-p)/n)/(1-1/255), p = J+(1-J)/255 the chance that a bin agrees
// (less when the sets are not much larger than k); at the default k =
// 1,024, every estimate must be within ±0.05. The test checks the errors
// against that law, and reports the worst, under either version.
func TestEstimateAccuracy(t *testing.T) {
	pairs := varied(1000, DefaultShingle)
	for _, v := range versions {
		for _, k := range []int{256, 512, 1024, 2048} {
			t.Run(fmt.Sprintf("v=%d/k=%d", v, k), func(t *testing.T) {
				estimateAccuracy(t, Config{Version: v, Hashes: k}, pairs)
			})
		}
	}
}

func estimateAccuracy(t *testing.T, c Config, pairs []pair) {
	k := c.Hashes
	var sum, sumSq, worst, worstZ, worstDice float64
	within, withinDice := 0, 0
	for _, p := range pairs {
		sa, sb := c.Sketch(p.a), c.Sketch(p.b)
		e := Resemblance(sa, sb) - p.jaccard
		sum += e
		sumSq += e * e
		worst = max(worst, math.Abs(e))
		if math.Abs(e) <= 0.05 {
			within++
		}
		if d := math.Abs(Similarity(sa, sb) - p.dice); d <= 0.05 {
			withinDice++
		} else {
			worstDice = max(worstDice, d)
		}
		_, bins := agree(sa, sb)
		agreeP := p.jaccard + (1-p.jaccard)*chance
		sd := math.Sqrt(max(agreeP*(1-agreeP), 1/float64(bins))/float64(bins)) / (1 - chance)
		worstZ = max(worstZ, math.Abs(e)/sd)
	}
	n := float64(len(pairs))
	mean, rms := sum/n, math.Sqrt(sumSq/n)
	t.Logf("k=%d: mean error %+.4f, rms %.4f, worst %.4f (%.1f σ); within ±0.05: Jaccard %d/%d, Similarity %d/%d",
		k, mean, rms, worst, worstZ, within, len(pairs), withinDice, len(pairs))
	if math.Abs(mean) > 0.005 {
		t.Errorf("mean error %+.4f: the estimate is biased", mean)
	}
	if limit := 0.6 / math.Sqrt(float64(k)); rms > limit {
		t.Errorf("rms error %.4f > %.4f", rms, limit)
	}
	if worstZ > 5 {
		t.Errorf("worst error is %.1f standard deviations", worstZ)
	}
	if k == DefaultHashes && within < len(pairs) {
		t.Errorf("%d of %d estimates within ±0.05, want all", within, len(pairs))
	}
}

// TestSparseTexts checks texts with fewer shingles than bins, where most
// bins borrow their minimum: one shared shingle among two does not make
// two texts near-duplicates, and one word in a hundred changed keeps them
// close, under either version.
func TestSparseTexts(t *testing.T) {
	tests := []struct {
		a, b     string
		lo, hi   float64 // bounds of the estimated Similarity
		sameText bool
	}{
		{"page not found", "page not found", 1, 1, true},
		{"page not found", "page not here", 0, 0.05, false},
		{"a b c d e f", "a b c d e g", 0.3, 0.7, false}, // shingles {abcde, bcdef} and {abcde, bcdeg}
		{"one", "two", 0, 0.05, false},
	}
	for _, v := range versions {
		c := Config{Version: v}
		for _, tt := range tests {
			s := Similarity(c.Sketch(tt.a), c.Sketch(tt.b))
			if s < tt.lo || s > tt.hi {
				t.Errorf("v%d: Similarity(%q, %q) = %.3f, want in [%.2f, %.2f]", v, tt.a, tt.b, s, tt.lo, tt.hi)
			}
		}
	}
}

// TestSketchEdgeCases covers empty and short texts, spacing, seeds and
// versions.
func TestSketchEdgeCases(t *testing.T) {
	for _, v := range versions {
		t.Run(fmt.Sprintf("v=%d", v), func(t *testing.T) { sketchEdgeCases(t, Config{Version: v}) })
	}
	text := join(paragraphs(rand.New(rand.NewPCG(1, 1)), 5, 40))
	if got := Similarity(Config{Version: Version1}.Sketch(text), Config{Version: Version2}.Sketch(text)); got > 0.05 {
		t.Errorf("sketches of one text under versions 1 and 2: Similarity %.3f, want about 0", got)
	}
}

func sketchEdgeCases(t *testing.T, c Config) {
	for _, text := range []string{"", " ", "   "} {
		if s := c.Sketch(text); s != nil {
			t.Errorf("Sketch(%q) = %d minima, want nil", text, len(s))
		}
	}
	if got := Similarity(nil, nil); got != 0 {
		t.Errorf("Similarity(nil, nil) = %v, want 0", got)
	}
	short := c.Sketch("hello world")
	if len(short) != DefaultHashes {
		t.Fatalf("short text: %d minima, want %d", len(short), DefaultHashes)
	}
	if got := Similarity(short, c.Sketch(" hello world ")); got != 1 {
		t.Errorf("spaces around short text: Similarity %v, want 1", got)
	}
	text := join(paragraphs(rand.New(rand.NewPCG(1, 1)), 5, 40))
	if !slices.Equal(c.Sketch(text), c.Sketch(strings.Clone(text))) {
		t.Error("Sketch is not deterministic")
	}
	seeded := c
	seeded.Seed = 1
	if got := Similarity(c.Sketch(text), seeded.Sketch(text)); got > 0.05 {
		t.Errorf("sketches under different seeds: Similarity %.3f, want about 0", got)
	}
	small := c
	small.Hashes = 128
	if got := Similarity(c.Sketch(text), small.Sketch(text)); got != 0 {
		t.Errorf("sketches of different sizes: Similarity %v, want 0", got)
	}
}

// TestLenderBothWays checks that the ways of finding the bin an empty bin
// borrows from agree for every number of full bins: probing, searching
// the full bins, and lenders.fill, which scans the full bins' lists of
// early positions and searches where they find none.
func TestLenderBothWays(t *testing.T) {
	for _, c := range []Config{DefaultConfig(), {Hashes: 64, Rows: 1, Bands: 64, Seed: 3}, {Hashes: 4096, Rows: 4, Bands: 200}} {
		c = c.withDefaults()
		k := c.Hashes
		rng := rand.New(rand.NewPCG(5, uint64(k)))
		l := c.lenders()
		bins := make([]uint32, c.Bands*c.Rows)
		for filled := 0; filled <= k; filled += 1 + filled/16 {
			s := make(Sketch, k)
			var full []uint32
			for _, j := range rng.Perm(k)[:filled] {
				s[j] = uint8(1 + rng.IntN(255))
			}
			for j, v := range s {
				if v != 0 {
					full = append(full, uint32(j))
				}
			}
			l.fill(s, bins)
			for i, got := range bins {
				want := uint32(i)
				if s[i] == 0 && filled > 0 {
					q := c.lendSeq(uint64(i))
					if want = q.probe(s); want != q.search(full, uint32(k-1)) || s[want] == 0 {
						t.Fatalf("k=%d, %d full bins, bin %d: probing gives %d, searching %d", k, filled, i, want, q.search(full, uint32(k-1)))
					}
				} else if s[i] == 0 {
					want = 0
				}
				if got != want {
					t.Fatalf("k=%d, %d full bins, bin %d: fill gives %d, probing %d", k, filled, i, got, want)
				}
			}
		}
	}
}

func TestInverse(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for range 1000 {
		x := rng.Uint64() | 1
		if got := x * inverse(x); got != 1 {
			t.Fatalf("%#x · inverse = %#x, want 1", x, got)
		}
	}
}
