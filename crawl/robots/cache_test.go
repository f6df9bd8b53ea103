package robots_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/trawler/trawler/crawl/robots"
)

func TestUnavailableThenRetry(t *testing.T) {
	s := newSite(t, http.StatusServiceUnavailable, "")
	clk := newClock()
	c := newCache(clk, robots.Config{RetryAfter: time.Minute, MaxRetryAfter: 5 * time.Minute})
	check := func(wantHits int32, wantWait time.Duration) {
		t.Helper()
		_, err := c.Check(context.Background(), s.URL+"/x")
		var ue *robots.UnavailableError
		if !errors.As(err, &ue) {
			t.Fatalf("err = %v, want unavailable", err)
		}
		if got := s.hits.Load(); got != wantHits {
			t.Errorf("robots.txt requests = %d, want %d", got, wantHits)
		}
		if wantWait > 0 && !ue.RetryAt.Equal(clk.Now().Add(wantWait)) {
			t.Errorf("retry at %v, want now + %v", ue.RetryAt.Sub(clk.Now()), wantWait)
		}
	}
	check(1, time.Minute)
	clk.Add(59 * time.Second)
	check(1, 0) // still waiting: no new request
	clk.Add(time.Second)
	check(2, 2*time.Minute) // back-off doubles
	for i, wait := range []time.Duration{4 * time.Minute, 5 * time.Minute, 5 * time.Minute} {
		clk.Add(10 * time.Minute)
		check(int32(3+i), wait) // capped at MaxRetryAfter
	}
	if hi, _ := c.Host(s.URL); hi.Available || hi.Failures != 5 || hi.Status != 503 {
		t.Errorf("Host = %+v, want unavailable, 5 failures, status 503", hi)
	}

	s.set(http.StatusOK, "User-agent: *\nDisallow: /x\n")
	clk.Add(5 * time.Minute)
	if mustCheck(t, c, s.URL+"/x").Allowed || !mustCheck(t, c, s.URL+"/y").Allowed {
		t.Errorf("rules not applied after the host recovered")
	}
	hi, _ := c.Host(s.URL)
	if !hi.Available || hi.Failures != 0 || hi.Err != nil || s.hits.Load() != 6 {
		t.Errorf("Host = %+v after %d requests, want available, no failures, 6 requests", hi, s.hits.Load())
	}
}

func TestTTL(t *testing.T) {
	s := newSite(t, http.StatusOK, "User-agent: *\nDisallow: /old\n")
	clk := newClock()
	c := newCache(clk, robots.Config{TTL: 24 * time.Hour})
	mustCheck(t, c, s.URL+"/")
	s.set(http.StatusOK, "User-agent: *\nDisallow: /new\n")
	clk.Add(24*time.Hour - time.Second)
	if !mustCheck(t, c, s.URL+"/new").Allowed || s.hits.Load() != 1 {
		t.Fatalf("rules refetched before they expired (%d requests)", s.hits.Load())
	}
	clk.Add(time.Second)
	if mustCheck(t, c, s.URL+"/new").Allowed || !mustCheck(t, c, s.URL+"/old").Allowed {
		t.Errorf("expired rules not refetched")
	}
	if got := s.hits.Load(); got != 2 {
		t.Errorf("robots.txt requests = %d, want 2", got)
	}
}

func TestOneFetchPerHost(t *testing.T) {
	a := newSite(t, http.StatusOK, "User-agent: *\nDisallow: /p1\n")
	b := newSite(t, http.StatusOK, "User-agent: *\nDisallow: /p2\n")
	releaseA, releaseB := a.hold(), b.hold()
	c := newCache(nil, robots.Config{})
	const n = 50
	var started, done sync.WaitGroup
	var mu sync.Mutex
	denied := map[string]int{}
	for i := range n {
		started.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			s := a
			if i%2 == 1 {
				s = b
			}
			started.Done()
			d, err := c.Check(context.Background(), fmt.Sprintf("%s/p%d", s.URL, i))
			if err != nil {
				t.Errorf("Check: %v", err)
				return
			}
			if !d.Allowed {
				mu.Lock()
				denied[s.URL]++
				mu.Unlock()
			}
		}()
	}
	started.Wait()
	a.waitHits(t, 1)
	b.waitHits(t, 1)
	time.Sleep(20 * time.Millisecond) // let the other callers queue up behind the fetch
	releaseA()
	releaseB()
	done.Wait()
	if a.hits.Load() != 1 || b.hits.Load() != 1 {
		t.Errorf("robots.txt requests = %d and %d, want 1 per host", a.hits.Load(), b.hits.Load())
	}
	// a has the even paths and denies p10..p18; b the odd, and denies p21..p29.
	if denied[a.URL] != 5 || denied[b.URL] != 5 {
		t.Errorf("denied = %v, want 5 on each host", denied)
	}
}

func TestCanceled(t *testing.T) {
	s := newSite(t, http.StatusOK, "User-agent: *\nDisallow: /x\n")
	release := s.hold()
	defer release()
	c := newCache(nil, robots.Config{})

	fetchCtx, cancelFetch := context.WithCancel(context.Background())
	fetchErr := make(chan error, 1)
	go func() {
		_, err := c.Check(fetchCtx, s.URL+"/x")
		fetchErr <- err
	}()
	s.waitHits(t, 1)

	waitCtx, cancelWait := context.WithCancel(context.Background())
	cancelWait()
	if _, err := c.Check(waitCtx, s.URL+"/y"); !errors.Is(err, context.Canceled) || errors.Is(err, robots.ErrUnavailable) {
		t.Errorf("canceled waiter: err = %v, want context.Canceled", err)
	}

	cancelFetch()
	if err := <-fetchErr; !errors.Is(err, context.Canceled) || errors.Is(err, robots.ErrUnavailable) {
		t.Errorf("canceled fetcher: err = %v, want context.Canceled", err)
	}
	if hi, ok := c.Host(s.URL); !ok || hi.Checked || hi.Fetching {
		t.Errorf("Host = %+v, %v: a canceled fetch must leave no answer", hi, ok)
	}
	release()
	if mustCheck(t, c, s.URL+"/x").Allowed || s.hits.Load() != 2 {
		t.Errorf("after a canceled fetch the next Check must fetch again (%d requests)", s.hits.Load())
	}
}
