package db

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/robot"
)

// BenchmarkSharedClaim measures robots claiming URLs from one PostgreSQL
// crawl at once: 1 to 8 claimers, each with its own connections as a
// robot process has, claiming 32 URLs at a time from at most 4 hosts
// (SELECT … FOR UPDATE SKIP LOCKED, with host leases), finishing what it
// claimed in one write (as skipped: no page bodies, so the claim's cost
// stays in view) and handing its hosts on with a beat when they run dry.
// The crawl has 2,000 hosts of 50 URLs.
//
//	TRAWLER_TEST_BACKEND=postgres go test -run '^$' -bench SharedClaim -benchtime 2000x ./db
func BenchmarkSharedClaim(b *testing.B) {
	pgOnly(b)
	for _, claimers := range []int{1, 2, 4, 8} {
		b.Run(fmt.Sprintf("claimers=%d", claimers), func(b *testing.B) { benchSharedClaim(b, claimers) })
	}
}

func benchSharedClaim(b *testing.B, claimers int) {
	url := testDB(b)
	d := mustOpenPath(b, url)
	id := mustCrawl(b, d, "http://h0.test/").ID()
	seed := d.Crawl(id)
	const hosts, perHost = 2000, 50
	for h := 0; h < hosts; h += 100 {
		bt := &crawl.Batch{}
		for i := h; i < h+100; i++ {
			for j := range perHost {
				bt.New = append(bt.New, item(fmt.Sprintf("http://h%d.test/%d", i, j), 1))
			}
		}
		mustApply(b, seed, "", bt)
	}
	ctx := context.Background()
	stores := make([]*CrawlStore, claimers)
	beats := make([]robot.Store, claimers)
	for i := range stores {
		s, err := mustOpenPath(b, url).SharedCrawl(id, time.Minute)
		if err != nil {
			b.Fatal(err)
		}
		s.SetMaxHosts(4)
		owner := fmt.Sprintf("c%d", i)
		beats[i] = s.Robot(owner)
		if err := beats[i].Register(ctx, robot.Info{ID: owner, Owner: owner, Started: time.Now()}); err != nil {
			b.Fatal(err)
		}
		stores[i] = s
	}
	var calls, urls atomic.Int64
	b.ResetTimer()
	var wg sync.WaitGroup
	for i, s := range stores {
		owner, beat := fmt.Sprintf("c%d", i), beats[i]
		wg.Add(1)
		go func() {
			defer wg.Done()
			for calls.Add(1) <= int64(b.N) {
				items, err := s.Claim(ctx, owner, 32, crawl.BFS)
				if err != nil {
					b.Error(err)
					return
				}
				urls.Add(int64(len(items)))
				if err := s.Apply(ctx, owner, finished(items)); err != nil {
					b.Error(err)
					return
				}
				if len(items) == 0 { // the hosts ran dry: hand them on
					if _, err := beat.Beat(ctx, robot.Status{State: "running"}, nil); err != nil {
						b.Error(err)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "claims/s")
	b.ReportMetric(float64(urls.Load())/b.Elapsed().Seconds(), "urls/s")
}

// finished is a batch that ends claimed items, as robots.txt would.
func finished(items []crawl.Item) *crawl.Batch {
	b := &crawl.Batch{}
	for _, it := range items {
		b.Skipped = append(b.Skipped, crawl.Skip{URL: it.URL, FP: it.FP, Depth: it.Depth,
			Reason: crawl.SkipRobots, Claimed: true})
	}
	return b
}
