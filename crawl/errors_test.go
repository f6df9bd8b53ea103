package crawl_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/db"
)

// TestOneErrorCount crawls a site with a 404, a 500 and a refused
// connection: Progress, the stored counts, the error lines of the log, the
// hosts' errors and the crawl's info agree on three errors; a re-crawl in
// which the 404 is still a 404 calls it unchanged (still broken), not gone.
func TestOneErrorCount(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<a href="/ok">ok</a> <a href="/missing">404</a> <a href="/broken">500</a>
<a href="http://127.0.0.1:1/refused">refused</a>`))
	})
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("fine")) })
	mux.HandleFunc("/missing", http.NotFound)
	mux.HandleFunc("/broken", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "oops", 500) })
	srv := httptest.NewServer(mux)
	defer srv.Close()
	h := newHarness(t, config(srv.URL+"/"))
	run := func() (*crawl.Engine, crawl.Progress) {
		e, err := crawl.New(h.cfg, h.db.Crawl(h.id))
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := e.Run(ctx); err != nil {
			t.Fatal(err)
		}
		return e, e.Progress()
	}
	e, p := run()
	logged := 0
	for _, ev := range e.Events(0) {
		if ev.Level == crawl.LevelError {
			logged++
		}
	}
	hostErrs := 0
	for _, hs := range e.Hosts() {
		hostErrs += hs.Errors
	}
	c, _ := h.db.Crawl(h.id).Counts(context.Background())
	info, _ := h.db.CrawlInfo(context.Background(), h.id)
	listed := 0 // Results: the 4xx, 5xx and no-response filters
	for _, class := range []int{4, 5, -1} {
		n, err := h.db.CountPages(context.Background(), db.PageQuery{Crawl: h.id, StatusClass: class})
		if err != nil {
			t.Fatal(err)
		}
		listed += n
	}
	if p.Errors != 3 || c.Error != 3 || logged != 3 || hostErrs != 3 || info.URLs.Error != 3 || listed != 3 {
		t.Errorf("errors: progress %d, stored %d, log %d, hosts %d, info %d, results %d; want 3 everywhere",
			p.Errors, c.Error, logged, hostErrs, info.URLs.Error, listed)
	}

	if err := h.db.SetState(context.Background(), h.id, db.StateDone); err != nil {
		t.Fatal(err)
	}
	if _, _, err := h.db.BeginRecrawl(context.Background(), h.id, false, time.Now()); err != nil {
		t.Fatal(err)
	}
	_, p = run()
	r, err := h.db.ChangeReport(context.Background(), h.id, 1)
	if err != nil {
		t.Fatal(err)
	}
	if r.Gone != 0 || r.StillBroken != 3 || r.Failed != 3 || p.Errors != 3 {
		t.Errorf("re-crawl: gone %d, still broken %d, failed %d, Live errors %d; want 0, 3, 3, 3", r.Gone, r.StillBroken, r.Failed, p.Errors)
	}
}
