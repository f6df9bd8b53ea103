package seen

import (
	"encoding/binary"
	"fmt"
	"math"
	"testing"

	"github.com/bits-and-blooms/bloom/v3"
)

// fpProbesPerKey is how many absent keys are probed per key inserted: at
// n = 10M and k = 10 that is about 8,900 expected false positives, so the
// observed rate is within about ±2% (two standard deviations) of the truth.
const fpProbesPerKey = 10

// BenchmarkBloomFalsePositives measures paper 004's Bloom parameters: it
// inserts n distinct fingerprints into one bits-and-blooms filter of
// m = 20n bits with k hash functions, probes it with 10n other distinct
// fingerprints, and reports the observed false-positive rate beside the
// predicted (1 − e^(−kn/m))^k, for the paper's k = 10 and for k = 14, the
// optimum (m/n)·ln 2 rounded. Set/k=10 does the same through a Set planned
// for n, as the crawler uses it; its prediction is the mean over shards,
// whose filters have their own sizes and loads. Sizes above 1M need
// TRAWLER_LONG=1; one iteration is enough (-benchtime 1x).
func BenchmarkBloomFalsePositives(b *testing.B) {
	for _, n := range []int{1_000_000, 10_000_000} {
		for _, k := range []uint{PaperHashes, 14} {
			b.Run(fmt.Sprintf("%dM/m=20n/k=%d", n/1_000_000, k), func(b *testing.B) {
				urlsOrSkip(b, n)
				var fps int
				for range b.N {
					fps = bloomFalsePositives(n, k)
				}
				predicted := math.Pow(1-math.Exp(-float64(k)/PaperBitsPerURL), float64(k))
				reportFalsePositives(b, fps, n*fpProbesPerKey, predicted)
			})
		}
		b.Run(fmt.Sprintf("%dM/Set/k=%d", n/1_000_000, PaperHashes), func(b *testing.B) {
			urlsOrSkip(b, n)
			var fps int
			var predicted float64
			for range b.N {
				s := New(Config{Expected: n})
				for i := range uint64(n) {
					s.Add(splitmix(i))
				}
				for j := range uint64(n * fpProbesPerKey) {
					s.Contains(splitmix(uint64(n) + j))
				}
				fps = int(s.Stats().FalsePositives)
				predicted = predictedFalsePositiveRate(s)
			}
			reportFalsePositives(b, fps, n*fpProbesPerKey, predicted)
		})
	}
}

// bloomFalsePositives builds a filter of 20n bits and k hashes holding the
// fingerprints splitmix(0 … n−1), encoded as the Set encodes them, and
// returns how many of the n·fpProbesPerKey fingerprints that follow it
// reports present.
func bloomFalsePositives(n int, k uint) int {
	f := bloom.New(uint(PaperBitsPerURL*n), k)
	var b [8]byte
	for i := range uint64(n) {
		binary.LittleEndian.PutUint64(b[:], splitmix(i))
		f.Add(b[:])
	}
	fps := 0
	for j := range uint64(n * fpProbesPerKey) {
		binary.LittleEndian.PutUint64(b[:], splitmix(uint64(n)+j))
		if f.Test(b[:]) {
			fps++
		}
	}
	return fps
}

// reportFalsePositives reports the observed rate, the predicted one, their
// ratio and the count the observed rate rests on.
func reportFalsePositives(b *testing.B, fps, probes int, predicted float64) {
	observed := float64(fps) / float64(probes)
	b.ReportMetric(observed, "fp-observed")
	b.ReportMetric(predicted, "fp-predicted")
	b.ReportMetric(observed/predicted, "observed/predicted")
	b.ReportMetric(float64(fps), "false-positives")
	b.ReportMetric(0, "ns/op") // the time is of no interest here
}
