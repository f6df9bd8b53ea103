package rabin

import (
	"fmt"
	"hash/crc64"
	"hash/fnv"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/trawler/trawler/crawl/cputime"
)

var sink uint64

// BenchmarkHash compares Fingerprint with hash/crc64 (ECMA, slicing-by-8
// in the standard library) and FNV-1a on the same inputs; compare the
// sub-benchmarks with benchstat -col /impl.
func BenchmarkHash(b *testing.B) {
	ecma := crc64.MakeTable(crc64.ECMA)
	funcs := []struct {
		name string
		sum  func([]byte) uint64
	}{
		{"rabin", Fingerprint},
		{"crc64", func(p []byte) uint64 { return crc64.Checksum(p, ecma) }},
		{"fnv64a", func(p []byte) uint64 {
			h := fnv.New64a()
			h.Write(p)
			return h.Sum64()
		}},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, size := range []struct {
		name string
		n    int
	}{{"64B", 64}, {"1KiB", 1 << 10}, {"64KiB", 64 << 10}} {
		data := make([]byte, size.n)
		for i := range data {
			data[i] = byte(rng.Uint32())
		}
		for _, f := range funcs {
			b.Run(fmt.Sprintf("impl=%s/size=%s", f.name, size.name), func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				cpu := cputime.Since()
				for b.Loop() {
					sink = f.sum(data)
				}
				reportCPU(b, cpu)
			})
		}
	}
}

// BenchmarkFingerprintString measures the crawler's common case: a URL.
func BenchmarkFingerprintString(b *testing.B) {
	u := "https://www.example.com/catalog/books/item-1234567.html?sort=price&page=3"
	b.SetBytes(int64(len(u)))
	cpu := cputime.Since()
	for b.Loop() {
		sink = FingerprintString(u)
	}
	reportCPU(b, cpu)
}

// reportCPU reports the CPU time per op since cpu was started: on a
// machine shared with other work it varies far less than wall time.
func reportCPU(b *testing.B, cpu func() time.Duration) {
	b.ReportMetric(float64(cpu().Nanoseconds())/float64(b.N), "cpu-ns/op")
}
