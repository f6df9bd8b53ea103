package cli

import (
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"time"

	"github.com/trawler/trawler/crawl/peakmem"
)

// Environment variables that name a file prefix for the heap profiles
// taken at peaks of resident memory (see watchMemory). They are
// environment variables rather than flags because they are tools for
// whoever works on the crawler's memory, not settings. peakProfileEnv
// works around any command (a crawl, the window); benchProfileEnv around
// each of `trawler bench`'s runs, one file pair per thread count.
const (
	peakProfileEnv  = "TRAWLER_PEAK_PROFILE"
	benchProfileEnv = "TRAWLER_BENCH_PROFILE"
)

// benchWatch watches one bench run's memory when TRAWLER_BENCH_PROFILE is
// set.
func benchWatch(threads int) (stop func()) {
	prefix := os.Getenv(benchProfileEnv)
	if prefix == "" {
		return func() {}
	}
	return watchMemory(fmt.Sprintf("%s-%d", prefix, threads))
}

// watchMemory reads the process's resident memory ten times a second and, at
// each new peak (2 MB above the last one), writes the Go heap profile to
// <base>.heap and appends one line of the Go runtime's memory figures to
// <base>.txt. The peak resident size can then be split between the Go heap
// (see the profile with go tool pprof -sample_index=inuse_space), the rest
// the Go runtime holds, and what it does not hold: SQLite's page caches and
// the rest of modernc.org/sqlite's C heap, allocated outside the Go heap.
// An empty base watches nothing. It returns a function that stops the
// watching.
func watchMemory(base string) (stop func()) {
	if base == "" {
		return func() {}
	}
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		var last int64
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			rss := peakmem.Current()
			if rss < last+2<<20 {
				continue
			}
			last = rss
			snapshot(base, rss)
		}
	}()
	return func() { close(done); <-finished }
}

// snapshot writes the heap profile and the memory figures at a peak: the
// Go heap's live bytes (at the last GC) and goal, what the Go runtime holds
// in all, the anonymous memory outside it (SQLite's, which the Go runtime
// does not see), and the resident pages of files (the program's code).
func snapshot(base string, rss int64) {
	if f, err := os.Create(base + ".heap"); err == nil {
		pprof.Lookup("heap").WriteTo(f, 0)
		f.Close()
	}
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	gc := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/heap/goal:bytes"}}
	metrics.Read(gc)
	goHeld := int64(m.Sys - m.HeapReleased)
	anon, file := peakmem.Anon(), peakmem.File()
	line := fmt.Sprintf("%s rss %d MB peak %d MB | go %d MB: heap live %d MB, goal %d MB, in use %d MB, idle %d MB, stacks %d MB, other %d MB; GCs %d | outside go %d MB (sqlite) | files %d MB (code)\n",
		time.Now().Format("15:04:05.0"), rss>>20, peakmem.Peak()>>20, goHeld>>20,
		gc[0].Value.Uint64()>>20, gc[1].Value.Uint64()>>20, m.HeapInuse>>20, (m.HeapIdle-m.HeapReleased)>>20,
		m.StackSys>>20, (m.Sys-m.HeapSys-m.StackSys)>>20, m.NumGC, (anon-goHeld)>>20, file>>20)
	if f, err := os.OpenFile(base+".txt", os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644); err == nil {
		f.WriteString(line)
		f.Close()
	}
}
