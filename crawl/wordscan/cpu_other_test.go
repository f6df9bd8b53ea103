//go:build !unix

package wordscan

// cpuSeconds is not measured here; benchmarks then report wall-clock
// figures only.
func cpuSeconds() float64 { return 0 }
