package seen

import (
	"fmt"
	"hash/fnv"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// benchURLs caches generated URL strings between benchmarks of one run.
var benchURLs struct {
	sync.Mutex
	n    int
	urls []string
}

// urls returns n distinct, realistic URL strings, built once per size.
func urls(n int) []string {
	benchURLs.Lock()
	defer benchURLs.Unlock()
	if benchURLs.n != n {
		benchURLs.urls = nil
		runtime.GC()
		us := make([]string, n)
		for i := range us {
			us[i] = fmt.Sprintf("http://host%d.example.com/path/%d/page-%d.html?id=%d", i/200, i/7%100, i%1000, i)
		}
		benchURLs.n, benchURLs.urls = n, us
	}
	return benchURLs.urls
}

// heapAlloc returns the live heap after a full collection.
func heapAlloc() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// BenchmarkAdmit builds, per iteration, a seen-set of every URL offered once,
// and reports admissions per second and the live heap the set holds per URL.
// Set+fnv hashes each URL string with FNV-1a first; Set/fp takes
// fingerprints already computed, as the crawler has them, into a set planned
// for n; Set/fp/default-plan does the same into a set planned for
// DefaultExpected, which grows its Bloom filters on the way, as a crawl not
// told its size does; map[string] keeps a copy of each URL string, as a set
// fed from parsed pages must.
func BenchmarkAdmit(b *testing.B) {
	sizes := []int{1_000_000, 10_000_000}
	for _, n := range sizes {
		name := fmt.Sprintf("%dM", n/1_000_000)
		b.Run(name+"/Set+fnv", func(b *testing.B) {
			us := urlsOrSkip(b, n)
			admitBench(b, n, func() any {
				s := New(Config{Expected: n})
				h := fnv.New64a()
				var buf []byte
				for _, u := range us {
					buf = append(buf[:0], u...)
					h.Reset()
					h.Write(buf)
					s.Add(h.Sum64())
				}
				return s
			})
		})
		b.Run(name+"/Set/fp", func(b *testing.B) {
			urlsOrSkip(b, n)
			fps := keys(0, uint64(n))
			admitBench(b, n, func() any {
				s := New(Config{Expected: n})
				for _, fp := range fps {
					s.Add(fp)
				}
				return s
			})
		})
		if n != DefaultExpected {
			b.Run(name+"/Set/fp/default-plan", func(b *testing.B) {
				urlsOrSkip(b, n)
				fps := keys(0, uint64(n))
				admitBench(b, n, func() any {
					s := New(Config{})
					for _, fp := range fps {
						s.Add(fp)
					}
					return s
				})
			})
		}
		b.Run(name+"/map[string]", func(b *testing.B) {
			us := urlsOrSkip(b, n)
			admitBench(b, n, func() any {
				m := map[string]struct{}{}
				for _, u := range us {
					if _, ok := m[u]; !ok {
						m[strings.Clone(u)] = struct{}{}
					}
				}
				return m
			})
		})
		b.Run(name+"/map[uint64]+fnv", func(b *testing.B) {
			us := urlsOrSkip(b, n)
			admitBench(b, n, func() any {
				m := map[uint64]struct{}{}
				h := fnv.New64a()
				var buf []byte
				for _, u := range us {
					buf = append(buf[:0], u...)
					h.Reset()
					h.Write(buf)
					if _, ok := m[h.Sum64()]; !ok {
						m[h.Sum64()] = struct{}{}
					}
				}
				return m
			})
		})
	}
}

// urlsOrSkip skips sizes above 1M unless TRAWLER_LONG=1, and returns n URLs.
func urlsOrSkip(b *testing.B, n int) []string {
	longOrSkip(b, n)
	return urls(n)
}

// longOrSkip skips sizes above 1M unless TRAWLER_LONG=1.
func longOrSkip(b *testing.B, n int) {
	if n > 1_000_000 && os.Getenv("TRAWLER_LONG") != "1" {
		b.Skip("set TRAWLER_LONG=1 for sizes above 1M")
	}
}

// admitBench times build, which admits n URLs, and reports admissions per
// second and live bytes per URL of what build returns.
func admitBench(b *testing.B, n int, build func() any) {
	var perURL float64
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		before := heapAlloc()
		b.StartTimer()
		set := build()
		b.StopTimer()
		perURL = float64(heapAlloc()-before) / float64(n)
		runtime.KeepAlive(set)
		b.StartTimer()
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "adm/s")
	b.ReportMetric(perURL, "B/URL")
	b.ReportMetric(b.Elapsed().Seconds()*1e9/float64(n)/float64(b.N), "ns/URL")
}

// BenchmarkAddParallel calls Add from 50 goroutines, as 50 crawl workers
// would, with one lock (shards=1) and with the default sharding; "new" adds
// fingerprints never seen, "seen" re-adds ones already in the set.
func BenchmarkAddParallel(b *testing.B) {
	const preset = DefaultExpected / 2 // no shard is due a rebuild at the start
	for _, bits := range []uint{0, defaultShardBits} {
		for _, mode := range []string{"new", "seen"} {
			b.Run(fmt.Sprintf("shards=%d/%s", 1<<bits, mode), func(b *testing.B) {
				s := newSet(bits, DefaultExpected, PaperBitsPerURL, PaperHashes)
				for i := range uint64(preset) {
					s.Add(splitmix(i))
				}
				var next atomic.Uint64
				b.SetParallelism(25) // × GOMAXPROCS goroutines
				b.ResetTimer()
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						i := next.Add(1)
						if mode == "new" {
							i += preset
						} else {
							i %= preset
						}
						s.Add(splitmix(i))
					}
				})
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "adm/s")
			})
		}
	}
}

// BenchmarkTable times the exact table alone: insert adds n new keys to an
// empty table, growth included; has looks up keys present. It reports
// bytes per key of the slot array.
func BenchmarkTable(b *testing.B) {
	for _, n := range []int{1_000_000, 10_000_000} {
		ks := keys(0, uint64(n))
		b.Run(fmt.Sprintf("insert/%dM", n/1_000_000), func(b *testing.B) {
			longOrSkip(b, n)
			var tab table
			for range b.N {
				tab = table{}
				for _, k := range ks {
					tab.insertNew(k, mix(k))
				}
			}
			b.ReportMetric(float64(tab.bytes())/float64(n), "B/key")
			b.ReportMetric(b.Elapsed().Seconds()*1e9/float64(n)/float64(b.N), "ns/key")
		})
	}
}
