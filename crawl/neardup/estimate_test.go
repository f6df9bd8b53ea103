package neardup

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestUnbiased checks that each version is a proper MinHash: for pairs of
// texts of known Jaccard index, the estimates under 100 seeds (100 hash
// functions) average to the Jaccard index within the statistical error
// of their mean, and spread as the theory of one permutation hashing
// says: each of the n bins not empty in both agrees with probability
// p = J + (1-J)/255, sampled without replacement from the U shingles of
// the union, so the estimate's standard deviation is
// sqrt(p(1-p)/n · (U-n)/(U-1)) / (1-1/255). A hash whose bins were not
// independent, or favoured some shingles, would miss one or the other.
func TestUnbiased(t *testing.T) {
	const seeds = 100
	base := paragraphs(rand.New(rand.NewPCG(17, 17)), 120, 25) // 3,000 words
	for _, v := range []int{Version1, Version2} {
		for _, rewrite := range []float64{0.03, 0.2, 0.5, 0.8} {
			t.Run(fmt.Sprintf("v=%d/rewrite=%.2f", v, rewrite), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(18, math.Float64bits(rewrite)))
				other := make([][]string, len(base))
				for i := range other {
					other[i] = base[i]
					if float64(i%100)/100 < rewrite {
						other[i] = randomWords(rng, len(base[i]))
					}
				}
				a, b := join(base), join(other)
				sa, sb := shingleSet(a, DefaultShingle), shingleSet(b, DefaultShingle)
				jaccard, _ := exact(sa, sb)
				union := float64(len(sa)) // |A ∪ B|
				for s := range sb {
					if !sa[s] {
						union++
					}
				}
				var sum, sumSq, bins float64
				for seed := range uint64(seeds) {
					c := Config{Version: v, Seed: seed}
					x, y := c.Sketch(a), c.Sketch(b)
					e := Resemblance(x, y)
					_, n := agree(x, y)
					sum, sumSq, bins = sum+e, sumSq+e*e, bins+float64(n)
				}
				mean, n := sum/seeds, bins/seeds
				sd := math.Sqrt((sumSq - seeds*mean*mean) / (seeds - 1))
				p := jaccard + (1-jaccard)*chance
				theory := math.Sqrt(p*(1-p)/n*(union-n)/(union-1)) / (1 - chance)
				z := (mean - jaccard) / (sd / math.Sqrt(seeds))
				t.Logf("Jaccard %.4f: mean estimate %.4f (z = %+.2f), standard deviation %.4f, theory %.4f",
					jaccard, mean, z, sd, theory)
				if math.Abs(z) > 4 {
					t.Errorf("mean estimate %.4f is %.1f standard errors from the Jaccard index %.4f", mean, z, jaccard)
				}
				// The sample deviation of 100 estimates is within ±30% of the
				// true one but about once in 10^4.
				if r := sd / theory; r < 0.7 || r > 1.3 {
					t.Errorf("standard deviation %.4f is %.2f times the theory's %.4f", sd, r, theory)
				}
			})
		}
	}
}
