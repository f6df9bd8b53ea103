package fetch

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
)

// TestIdleConnsPerHost: as many requests at once to one host as
// IdleConnsPerHost keep their connections between rounds; with fewer kept
// than requests at once, the extra connections are closed after each
// answer and dialled again.
func TestIdleConnsPerHost(t *testing.T) {
	const workers, rounds = 16, 5
	for _, tt := range []struct {
		name       string
		idle       int
		wantAtMost int // connections the server may see
		wantMore   int // or more than this
	}{
		{"kept", workers, workers, 0},
		{"default 8", 0, 0, workers},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var conns atomic.Int64
			var arrived sync.WaitGroup
			release := make(chan struct{})
			s := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				round := release // read before arriving, so the next round's channel is set after
				arrived.Done()
				<-round // every request of a round is in flight at once
				w.Header().Set("Content-Type", "text/html")
				w.Write([]byte("<p>ok</p>"))
			}))
			s.Config.ConnState = func(_ net.Conn, st http.ConnState) {
				if st == http.StateNew {
					conns.Add(1)
				}
			}
			s.Start()
			t.Cleanup(s.Close)
			f := mustNew(t, Config{IdleConnsPerHost: tt.idle})
			for range rounds {
				arrived.Add(workers)
				var done sync.WaitGroup
				for range workers {
					done.Go(func() {
						if _, err := f.Fetch(context.Background(), s.URL+"/", false); err != nil {
							t.Error(err)
						}
					})
				}
				arrived.Wait()
				close(release)
				done.Wait()
				release = make(chan struct{})
			}
			n := conns.Load()
			if tt.wantAtMost > 0 && n > int64(tt.wantAtMost) {
				t.Errorf("%d connections for %d requests at once, %d rounds; want at most %d", n, workers, rounds, tt.wantAtMost)
			}
			if n <= int64(tt.wantMore) {
				t.Errorf("%d connections; want more than %d (the default keeps 8)", n, tt.wantMore)
			}
		})
	}
}
