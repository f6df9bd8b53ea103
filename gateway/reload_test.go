package gateway

import (
	"fmt"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/trawler/trawler/urlfilter"
)

// millionBuilder holds n entries, a tenth of them black, all under
// www.example-N.test, so a reload is the size users report trouble with.
func millionBuilder(tb testing.TB, n int, black string) *urlfilter.Builder {
	tb.Helper()
	b := urlfilter.NewBuilder(n)
	for i := range n {
		l := urlfilter.White
		if i%10 == 0 {
			l = urlfilter.Black
		}
		if err := b.Add(urlfilter.Entry{List: l, Kind: urlfilter.KindURL, Value: fmt.Sprintf("http://www.example-%d.test/page", i)}); err != nil {
			tb.Fatal(err)
		}
	}
	e, _ := urlfilter.ParseEntry(urlfilter.Black, black)
	b.Add(e)
	return b
}

// duringReloads asks through the gateway, from several clients at once,
// for a white origin and a black-listed URL while the lists are reloaded
// again and again with a million entries, and returns each request's time.
func duringReloads(tb testing.TB, requests int) []time.Duration {
	white := newOrigin(tb, "127.0.0.1", text("fine"))
	f := urlfilter.New()
	b := millionBuilder(tb, 1_000_000, "blocked.example")
	if err := f.LoadBuilder(b); err != nil {
		tb.Fatal(err)
	}
	_, addr := startGateway(tb, Config{}, f, &recBackend{})
	done := make(chan struct{})
	var reloads atomic.Int64
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			select {
			case <-done:
				return
			default:
			}
			if err := f.LoadBuilder(b); err != nil {
				tb.Error(err)
				return
			}
			reloads.Add(1)
		}
	})
	var mu sync.Mutex
	var times []time.Duration
	var clients sync.WaitGroup
	for c := range 4 {
		client := proxyClient(tb, addr, "")
		clients.Go(func() {
			for i := range requests / 4 {
				u, want := white.URL+"/", http.StatusOK
				if (i+c)%2 == 1 {
					u, want = "http://www.blocked.example/", http.StatusForbidden
				}
				start := time.Now()
				res, err := client.Get(u)
				took := time.Since(start)
				if err != nil || res.StatusCode != want {
					tb.Errorf("%s during a reload: %v %v, want %d", u, res, err, want)
					return
				}
				res.Body.Close()
				mu.Lock()
				times = append(times, took)
				mu.Unlock()
			}
		})
	}
	clients.Wait()
	close(done)
	wg.Wait()
	if reloads.Load() == 0 {
		tb.Error("no reload happened while the requests ran")
	}
	slices.Sort(times)
	return times
}

// TestAnsweredDuringReload: a reload of 1,000,000 entries is built beside
// the lists in use, so every request during it is answered, and decided
// by whole lists (never a half-built one).
func TestAnsweredDuringReload(t *testing.T) {
	times := duringReloads(t, 400)
	t.Logf("%d requests during reloads of 1,000,000 entries: p50 %v, p99 %v, max %v",
		len(times), times[len(times)/2], times[len(times)*99/100], times[len(times)-1])
}

// BenchmarkAnsweredDuringReload reports the p50 and p99 time of requests
// through the gateway while 1,000,000 entries are reloaded over and over.
func BenchmarkAnsweredDuringReload(b *testing.B) {
	var all []time.Duration
	for b.Loop() {
		all = append(all, duringReloads(b, 400)...)
	}
	slices.Sort(all)
	b.ReportMetric(float64(all[len(all)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(all[len(all)*99/100].Microseconds())/1000, "p99-ms")
}
