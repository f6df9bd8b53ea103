package gateway

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/trawler/trawler/urlfilter"
)

// benchBackend answers at once and keeps nothing.
type benchBackend struct{}

func (benchBackend) Enqueue(context.Context, string) error { return nil }
func (benchBackend) Report(context.Context, Report) error  { return nil }
func (benchBackend) Explain(context.Context, urlfilter.Match, string) (Explanation, error) {
	return Explanation{Source: "verdict", Score: 0.91, Terms: []TermCount{{"casino", 12}, {"poker", 4}},
		Snippet: "Win big tonight at the best online casino", CrawledAt: time.Now()}, nil
}

// quiet drops the log, as a gateway without a Logger does; the tests'
// recording logger would otherwise be measured too.
var quiet = slog.New(slog.DiscardHandler)

// paperLists is paper 002's experiment size: 10,000 entries a list.
func paperLists(b *testing.B, extra ...string) *urlfilter.Filter {
	lines := extra
	for i := range 10000 {
		lines = append(lines, fmt.Sprintf("black site%d.example gambling", i), fmt.Sprintf("white http://ok%d.example/page", i))
	}
	return newFilter(b, lines...)
}

// BenchmarkAddedLatency times the same small GET straight to a loopback
// origin and through the gateway, alternately, and reports both
// distributions' p50 and p99 and the difference (the gateway's cost).
func BenchmarkAddedLatency(b *testing.B) {
	o := newOrigin(b, "127.0.0.1", text("hello, world"))
	_, addr := startGateway(b, Config{Logger: quiet}, paperLists(b, "white 127.0.0.1"), benchBackend{})
	direct := &http.Client{Transport: &http.Transport{Proxy: nil, MaxIdleConnsPerHost: 1}}
	proxied := proxyClient(b, addr, "")
	fetch := func(c *http.Client) time.Duration {
		start := time.Now()
		res, err := c.Get(o.URL + "/page")
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != 200 {
			b.Fatalf("status %d", res.StatusCode)
		}
		return time.Since(start)
	}
	fetch(direct) // warm both connections
	fetch(proxied)
	var ds, ps []time.Duration
	for b.Loop() {
		ds = append(ds, fetch(direct))
		ps = append(ps, fetch(proxied))
	}
	d50, d99 := percentiles(ds)
	p50, p99 := percentiles(ps)
	b.ReportMetric(us(d50), "direct-p50-us")
	b.ReportMetric(us(d99), "direct-p99-us")
	b.ReportMetric(us(p50), "proxy-p50-us")
	b.ReportMetric(us(p99), "proxy-p99-us")
	b.ReportMetric(us(p50-d50), "added-p50-us")
	b.ReportMetric(us(p99-d99), "added-p99-us")
}

func percentiles(d []time.Duration) (p50, p99 time.Duration) {
	slices.Sort(d)
	return d[len(d)*50/100], d[min(len(d)*99/100, len(d)-1)]
}

func us(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }

// BenchmarkDecisions runs whole decisions through ServeHTTP, no network:
// lookup in a 20,000-entry filter, policy, counters, the ring, and the
// answer (a rendered block page, or a bare 403 for CONNECT).
func BenchmarkDecisions(b *testing.B) {
	p, err := ParsePolicy("bench.toml", stringsReader(benchPolicy))
	if err != nil {
		b.Fatal(err)
	}
	lists := paperLists(b)
	for _, c := range []struct {
		name, method, target string
		policy               *Policy
		want                 int
	}{
		{"black-page", "GET", "http://www.site123.example/a?b=c", nil, 403},
		{"black-page-20-rules", "GET", "http://www.site123.example/a?b=c", p, 403},
		{"unknown-block-page", "GET", "http://new.example/", nil, 403},
		{"connect-black", "CONNECT", "site9876.example:443", nil, 403},
		{"connect-black-20-rules", "CONNECT", "site9876.example:443", p, 403},
	} {
		b.Run(c.name, func(b *testing.B) {
			g := newTestGateway(b, Config{Unknown: Block, Policy: c.policy, Logger: quiet}, lists, benchBackend{})
			r := httptest.NewRequest(c.method, c.target, nil)
			if c.method == "CONNECT" {
				r.URL.Host, r.RequestURI = c.target, c.target
			}
			r.RemoteAddr = "127.0.0.1:40000"
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				w := httptest.NewRecorder()
				g.ServeHTTP(w, r)
				if w.Code != c.want {
					b.Fatalf("status %d, want %d", w.Code, c.want)
				}
				n++
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "decisions/s")
		})
	}
}

// benchPolicy has 20 rules none of which applies to 127.0.0.1, so every
// decision walks them all.
var benchPolicy = func() string {
	s := "[categories]\nnews = \"allow\"\n"
	for i := range 20 {
		s += fmt.Sprintf("[[rule]]\nname = \"r%d\"\nclients = [\"10.%d.0.0/16\"]\nfrom = \"08:00\"\nto = \"15:00\"\nblock = [\"gambling\", \"games\"]\nunknown = \"allow\"\n", i, i)
	}
	return s
}()

func stringsReader(s string) io.Reader { return strings.NewReader(s) }
