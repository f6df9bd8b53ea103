package cli

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"time"

	"github.com/trawler/trawler/crawl/peakmem"
)

// profileEnv names a file prefix; when set, `trawler bench` watches each
// run's memory (see watchMemory). It is an environment variable rather than
// a flag because it is a tool for whoever works on the crawler's memory,
// not a setting of the benchmark.
const profileEnv = "TRAWLER_BENCH_PROFILE"

// watchMemory, when TRAWLER_BENCH_PROFILE is set, reads the process's
// resident memory every second during a bench run and, at each new peak
// (2 MB above the last one), writes the Go heap profile to
// <prefix>-<threads>.heap and one line of the Go runtime's memory figures to
// <prefix>-<threads>.txt. The peak resident size can then be split between
// the Go heap (see the profile with go tool pprof -sample_index=inuse_space),
// the rest the Go runtime holds, and what it does not hold: SQLite's page
// caches, which modernc.org/sqlite allocates outside the Go heap. It
// returns a function that stops the watching.
func watchMemory(threads int) (stop func()) {
	prefix := os.Getenv(profileEnv)
	if prefix == "" {
		return func() {}
	}
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(time.Second)
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
			snapshot(fmt.Sprintf("%s-%d", prefix, threads), rss)
		}
	}()
	return func() { close(done); <-finished }
}

// snapshot writes the heap profile and the memory figures at a peak.
func snapshot(base string, rss int64) {
	if f, err := os.Create(base + ".heap"); err == nil {
		pprof.Lookup("heap").WriteTo(f, 0)
		f.Close()
	}
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	line := fmt.Sprintf("%s rss %d MB peak %d MB | go sys %d MB: heap inuse %d MB (live objects %d MB), heap idle %d MB (released %d MB), stacks %d MB, other %d MB | outside go ≈ %d MB; GCs %d\n",
		time.Now().Format(time.TimeOnly), rss>>20, peakmem.Peak()>>20, m.Sys>>20, m.HeapInuse>>20, m.HeapAlloc>>20,
		m.HeapIdle>>20, m.HeapReleased>>20, m.StackSys>>20,
		(m.Sys-m.HeapSys-m.StackSys)>>20, (rss-int64(m.Sys-m.HeapReleased))>>20, m.NumGC)
	if f, err := os.OpenFile(base+".txt", os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644); err == nil {
		f.WriteString(line)
		f.Close()
	}
}
