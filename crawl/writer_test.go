package crawl_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/trawler/trawler/crawl"
)

// TestDryFrontierCommitsSoon: while the frontier has no URL waiting, the
// pages fetched so far are committed without waiting for the batch's full
// wait, so the last pages of a crawl count as done soon after their fetch.
// The batch wait is an hour here: only a dry frontier can bring the commit.
func TestDryFrontierCommitsSoon(t *testing.T) {
	g := newGate(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		if r.URL.Path == "/" {
			fmt.Fprint(w, `<html><body><a href="/last">the last page</a></body></html>`)
			return
		}
		fmt.Fprint(w, `<html><body>the end</body></html>`)
	}))
	srv := httptest.NewServer(g)
	defer srv.Close()
	c := config(srv.URL + "/")
	c.Threads = 2
	h := newHarness(t, c)
	e, err := crawl.New(c, h.db.Crawl(h.id))
	if err != nil {
		t.Fatal(err)
	}
	crawl.SetBatchWait(e, time.Hour)
	ran := make(chan error, 1)
	go func() { ran <- e.Run(context.Background()) }()
	defer func() { g.allow(1 << 40) }()

	g.allow(1) // "/" is answered; "/last" is held
	waitFor(t, "the request for /last", func() bool { return g.arrived.Load() == 2 })
	waitFor(t, "the first page to be committed while /last is held", func() bool { return e.Progress().Done == 1 })
	if got := h.paths(srv.URL); len(got) != 1 || got[0] != "/" {
		t.Fatalf("stored %q while /last is held, want [/]", got)
	}
	g.allow(2)
	if err := <-ran; err != nil {
		t.Fatal(err)
	}
	if p := e.Progress(); p.Done != 2 || p.State != crawl.StateDone {
		t.Fatalf("final progress %+v", p)
	}
}
