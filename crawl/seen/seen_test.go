package seen

import (
	"math"
	"sync"
	"sync/atomic"
	"testing"
)

func TestConfigParams(t *testing.T) {
	tests := []struct {
		name       string
		c          Config
		n          int
		bitsPerKey float64
		k          uint
	}{
		{"default is paper 004", Config{}, 1_000_000, 20, 10},
		{"expected settable", Config{Expected: 5000}, 5000, 20, 10},
		{"p = 1%", Config{Expected: 10, FalsePositive: 0.01}, 10, 9.585, 7},
		{"p = 8.9e-5: fewer bits, more hashes than the paper", Config{FalsePositive: 8.9e-5}, 1_000_000, 19.413, 13},
		{"p = 0.5", Config{FalsePositive: 0.5}, 1_000_000, 1.4427, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.c.Validate(); err != nil {
				t.Fatal(err)
			}
			n, bpk, k := tt.c.params()
			if n != tt.n || math.Abs(bpk-tt.bitsPerKey) > 0.001 || k != tt.k {
				t.Errorf("params = %d, %.4f, %d; want %d, %.4f, %d", n, bpk, k, tt.n, tt.bitsPerKey, tt.k)
			}
		})
	}
}

func TestConfigValidateRefuses(t *testing.T) {
	for _, c := range []Config{
		{Expected: -1},
		{Expected: maxPlanned + 1},
		{FalsePositive: -0.1},
		{FalsePositive: 1},
		{FalsePositive: math.NaN()},
	} {
		if err := c.Validate(); err == nil {
			t.Errorf("Validate(%+v) = nil, want an error", c)
		}
	}
}

func TestNewSizesBloomAsPlanned(t *testing.T) {
	st := New(Config{}).Stats()
	if st.Planned != 1_000_000 || st.M != 20_000_000 || st.K != 10 || st.Len != 0 {
		t.Errorf("default Stats: planned %d, m %d, k %d, len %d; want 1000000, 20000000, 10, 0",
			st.Planned, st.M, st.K, st.Len)
	}
	st = New(Config{Expected: 64_000, FalsePositive: 0.01}).Stats()
	if want := uint64(math.Ceil(9.585 * 1000 * 64)); st.M < want-64 || st.M > want+64 || st.K != 7 {
		t.Errorf("p=0.01 Stats: m %d, k %d; want about %d, 7", st.M, st.K, want)
	}
}

func TestAddContains(t *testing.T) {
	s := New(Config{Expected: 1000})
	ks := []uint64{0, 1, math.MaxUint64, 1 << 63, splitmix(1), splitmix(2)}
	for _, k := range ks {
		if s.Contains(k) {
			t.Errorf("Contains(%#x) before Add", k)
		}
		if !s.Add(k) {
			t.Errorf("first Add(%#x) = false", k)
		}
		if s.Add(k) {
			t.Errorf("second Add(%#x) = true", k)
		}
		if !s.Contains(k) {
			t.Errorf("Contains(%#x) after Add = false", k)
		}
	}
	st := s.Stats()
	if s.Len() != len(ks) || st.Len != len(ks) || st.Adds != uint64(2*len(ks)) || st.Admitted != uint64(len(ks)) {
		t.Errorf("Len %d, Stats %+v; want %d keys, %d adds", s.Len(), st, len(ks), 2*len(ks))
	}
}

// TestConcurrentAddsAdmitOnce drives a Bloom filter so small that it
// answers "maybe" often, from 50 goroutines adding overlapping ranges:
// every key must be admitted exactly once, false positives notwithstanding.
func TestConcurrentAddsAdmitOnce(t *testing.T) {
	const (
		distinct = 100_000
		workers  = 50
		overlap  = 3 // each key is added by this many goroutines
	)
	s := New(Config{Expected: 100, FalsePositive: 0.5})
	trues := make([]atomic.Int32, distinct)
	var wg sync.WaitGroup
	for g := range workers {
		wg.Go(func() {
			start := g * distinct / workers
			for j := range overlap * distinct / workers {
				i := (start + j) % distinct
				if s.Add(splitmix(uint64(i))) {
					trues[i].Add(1)
				}
			}
		})
	}
	wg.Wait()
	total := 0
	for i := range trues {
		n := int(trues[i].Load())
		if n != 1 {
			t.Fatalf("key %d admitted %d times, want 1", i, n)
		}
		total += n
	}
	st := s.Stats()
	if total != distinct || s.Len() != distinct || st.Admitted != distinct {
		t.Errorf("admitted %d, Len %d, Stats.Admitted %d; want %d", total, s.Len(), st.Admitted, distinct)
	}
	if st.Adds != overlap*distinct {
		t.Errorf("Stats.Adds = %d, want %d", st.Adds, overlap*distinct)
	}
	if st.FalsePositives < distinct/100 || st.Rebuilds == 0 {
		t.Errorf("tiny Bloom gave %d false positives and %d rebuilds; the test needs many of both",
			st.FalsePositives, st.Rebuilds)
	}
}

// TestBloomSparesExactSet checks the point of the Bloom filter: at the
// default size a new URL almost never costs an exact-set lookup, while a
// URL seen before always does and is refused.
func TestBloomSparesExactSet(t *testing.T) {
	const n = 200_000
	s := New(Config{})
	for i := range uint64(n) {
		if !s.Add(splitmix(i)) {
			t.Fatalf("new key %d refused", i)
		}
	}
	st := s.Stats()
	if ratio := float64(st.ExactLookups) / float64(st.Admitted); st.Admitted != n || ratio >= 0.01 {
		t.Fatalf("%d exact lookups for %d new keys (ratio %.4f), want < 1%%", st.ExactLookups, st.Admitted, ratio)
	}
	if st.BloomNegatives+st.ExactLookups != st.Adds {
		t.Errorf("Bloom negatives %d + exact lookups %d != adds %d", st.BloomNegatives, st.ExactLookups, st.Adds)
	}
	for i := range uint64(n) {
		if s.Add(splitmix(i)) {
			t.Fatalf("seen key %d admitted again", i)
		}
	}
	st2 := s.Stats()
	if got := st2.ExactLookups - st.ExactLookups; got != n {
		t.Errorf("re-adding %d seen keys made %d exact lookups, want %d", n, got, n)
	}
}

// TestGrowthKeepsFalsePositiveRate adds five times the planned n and checks,
// as it goes, that the Bloom filters were rebuilt and that the false-positive
// rate on fresh keys stays at the design p and matches what the filters'
// actual loads predict.
func TestGrowthKeepsFalsePositiveRate(t *testing.T) {
	const (
		planned = 10_000
		p       = 0.01
		probes  = 50_000
	)
	s := New(Config{Expected: planned, FalsePositive: p})
	fresh := uint64(1 << 40)
	for added := uint64(0); added < 5*planned; {
		for range planned / 2 {
			s.Add(splitmix(added))
			added++
		}
		before := s.Stats().FalsePositives
		for range probes {
			if s.Contains(splitmix(fresh)) {
				t.Fatalf("fresh key %d reported present", fresh)
			}
			fresh++
		}
		fps := float64(s.Stats().FalsePositives - before)
		predicted := probes * predictedFalsePositiveRate(s)
		t.Logf("%d keys: false-positive rate %.5f, predicted %.5f", added, fps/probes, predicted/probes)
		if limit := 1.25 * p * probes; fps > limit {
			t.Errorf("after %d keys: %v false positives in %d probes, want at most %v (p = %v)",
				added, fps, probes, limit, p)
		}
		if math.Abs(fps-predicted) > 4*math.Sqrt(predicted)+3 {
			t.Errorf("after %d keys: %v false positives, filters' loads predict %.1f", added, fps, predicted)
		}
	}
	st := s.Stats()
	if st.Rebuilds < uint64(st.Shards) || st.Planned < st.Len {
		t.Errorf("after 5× the plan: %d rebuilds over %d shards, planned %d for %d keys",
			st.Rebuilds, st.Shards, st.Planned, st.Len)
	}
	if bpk := float64(st.M) / float64(st.Planned); math.Abs(bpk-9.585) > 0.05 {
		t.Errorf("Bloom bits per planned key = %.3f, want 9.585", bpk)
	}
}

// predictedFalsePositiveRate is the mean over shards of (1 − e^(−kn/m))^k.
func predictedFalsePositiveRate(s *Set) float64 {
	sum := 0.0
	for i := range s.shards {
		sh := &s.shards[i]
		k, m, n := float64(sh.bloom.K()), float64(sh.bloom.Cap()), float64(sh.tab.len())
		sum += math.Pow(1-math.Exp(-k*n/m), k)
	}
	return sum / float64(len(s.shards))
}
