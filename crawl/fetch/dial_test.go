package fetch

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// noKeepAlive serves "ok" and closes every connection, so each fetch dials.
func noKeepAlive(t *testing.T) *httptest.Server {
	s := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "ok")
	}))
	s.Config.SetKeepAlivesEnabled(false)
	s.Start()
	t.Cleanup(s.Close)
	return s
}

// fakeClock is a settable time source for the DNS cache.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func TestDNSCacheResolvesOnce(t *testing.T) {
	s := noKeepAlive(t)
	res := newResolver(map[string][]string{"site.test": {"127.0.0.1"}})
	f := mustNew(t, Config{Resolver: res, DNSCacheTTL: time.Minute})
	clock := &fakeClock{t: time.Unix(1e9, 0)}
	f.dialer.now = clock.now
	u := "http://site.test:" + portOf(t, s)
	for i := range 5 {
		r := mustFetch(t, f, fmt.Sprintf("%s/%d", u, i), false)
		if r.IP != "127.0.0.1" || string(r.Body) != "ok" {
			t.Fatalf("fetch %d: IP %q body %q", i, r.IP, r.Body)
		}
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := f.Fetch(context.Background(), fmt.Sprintf("%s/c%d", u, i), false); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if got := res.count("site.test"); got != 1 {
		t.Errorf("13 fetches resolved %d times, want 1", got)
	}
	clock.add(time.Minute + time.Second)
	mustFetch(t, f, u+"/after-ttl", false)
	if got := res.count("site.test"); got != 2 {
		t.Errorf("after the TTL: %d lookups, want 2", got)
	}
}

func TestDNSFailureCachedBriefly(t *testing.T) {
	res := newResolver(nil)
	f := mustNew(t, Config{Resolver: res})
	clock := &fakeClock{t: time.Unix(1e9, 0)}
	f.dialer.now = clock.now
	for range 3 {
		_, err := f.Fetch(context.Background(), "http://gone.test/", false)
		wantKind(t, err, KindDNS)
	}
	if got := res.count("gone.test"); got != 1 {
		t.Errorf("3 failing fetches looked up %d times, want 1", got)
	}
	clock.add(negativeTTL + time.Second)
	f.Fetch(context.Background(), "http://gone.test/", false)
	if got := res.count("gone.test"); got != 2 {
		t.Errorf("after the negative TTL: %d lookups, want 2", got)
	}
}

func TestIPLiteralSkipsDNS(t *testing.T) {
	s := noKeepAlive(t)
	res := newResolver(nil)
	f := mustNew(t, Config{Resolver: res})
	mustFetch(t, f, s.URL, false)
	if n := res.total.Load(); n != 0 {
		t.Errorf("%d lookups for an IP literal", n)
	}
}

func TestDialTriesEachAddress(t *testing.T) {
	s := noKeepAlive(t)
	// 127.0.0.2 is loopback but nothing listens there: refused, then the
	// next address answers.
	res := newResolver(map[string][]string{"multi.test": {"127.0.0.2", "127.0.0.1"}})
	f := mustNew(t, Config{Resolver: res})
	r := mustFetch(t, f, "http://multi.test:"+portOf(t, s)+"/", false)
	if r.IP != "127.0.0.1" {
		t.Errorf("IP = %q, want 127.0.0.1", r.IP)
	}
}

func TestConnectionRefused(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	f := mustNew(t, Config{})
	for _, scheme := range []string{"http", "ftp"} {
		_, err := f.Fetch(context.Background(), scheme+"://"+addr+"/", false)
		wantKind(t, err, KindConnect)
	}
}

func TestLookupCacheSweeps(t *testing.T) {
	d := newDialer(newResolver(map[string][]string{"a.test": {"127.0.0.1"}}), time.Second, time.Minute)
	clock := &fakeClock{t: time.Unix(1e9, 0)}
	d.now = clock.now
	for i := range maxCacheEntries {
		d.lookup(context.Background(), fmt.Sprintf("h%d.test", i))
	}
	clock.add(time.Hour)
	if _, err := d.lookup(context.Background(), "a.test"); err != nil {
		t.Fatal(err)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.cache) != 1 {
		t.Errorf("cache holds %d entries after a sweep, want 1", len(d.cache))
	}
}
