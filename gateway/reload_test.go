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

// reloading serves a gateway whose lists hold a million entries and are
// reloaded over and over until the test ends; it returns the gateway's
// address, a white origin's URL and the count of reloads so far.
func reloading(tb testing.TB) (addr, white string, reloads *atomic.Int64) {
	origin := newOrigin(tb, "127.0.0.1", text("fine"))
	f := urlfilter.New()
	b := millionBuilder(tb, 1_000_000, "blocked.example")
	if err := f.LoadBuilder(b); err != nil {
		tb.Fatal(err)
	}
	_, addr = startGateway(tb, Config{}, f, &recBackend{})
	done := make(chan struct{})
	reloads = new(atomic.Int64)
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
	tb.Cleanup(func() { close(done); wg.Wait() })
	return addr, origin.URL + "/", reloads
}

// ask sends request i through the gateway: even ones to the white origin,
// odd ones to a black-listed host; it returns how long the answer took.
func ask(tb testing.TB, c *http.Client, white string, i int) time.Duration {
	u, want := white, http.StatusOK
	if i%2 == 1 {
		u, want = "http://www.blocked.example/", http.StatusForbidden
	}
	start := time.Now()
	res, err := c.Get(u)
	took := time.Since(start)
	if err != nil || res.StatusCode != want {
		tb.Fatalf("%s during a reload: %v %v, want %d", u, res, err, want)
	}
	res.Body.Close()
	return took
}

func percentile(times []time.Duration, p int) time.Duration {
	slices.Sort(times)
	return times[(len(times)-1)*p/100]
}

// TestAnsweredDuringReload: a reload of 1,000,000 entries is built beside
// the lists in use, so every request during reloads is answered, from
// four clients at once, and decided by whole lists (never a half-built
// one).
func TestAnsweredDuringReload(t *testing.T) {
	addr, white, reloads := reloading(t)
	var mu sync.Mutex
	var times []time.Duration
	var clients sync.WaitGroup
	for c := range 4 {
		client := proxyClient(t, addr, "")
		clients.Go(func() {
			for i := 0; i < 100 || reloads.Load() < 2; i++ { // at least one reload starts and ends among them
				took := ask(t, client, white, i+c)
				mu.Lock()
				times = append(times, took)
				mu.Unlock()
			}
		})
	}
	clients.Wait()
	t.Logf("%d requests during %d reloads of 1,000,000 entries: p50 %v, p99 %v", len(times), reloads.Load(),
		percentile(times, 50), percentile(times, 99))
}

// BenchmarkAnsweredDuringReload reports the p50 and p99 time of requests
// through the gateway while 1,000,000 entries are reloaded over and over.
func BenchmarkAnsweredDuringReload(b *testing.B) {
	addr, white, _ := reloading(b)
	c := proxyClient(b, addr, "")
	var times []time.Duration
	i := 0
	for b.Loop() {
		times = append(times, ask(b, c, white, i))
		i++
	}
	b.ReportMetric(float64(percentile(times, 50).Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(percentile(times, 99).Microseconds())/1000, "p99-ms")
}
