package crawl_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/db"
)

// skips returns the crawl's skipped URLs with their reasons.
func (h *harness) skips() map[string]crawl.SkipReason {
	h.t.Helper()
	rows, err := h.db.Pages(context.Background(), db.PageQuery{Crawl: h.id, Skipped: true, Limit: 100000})
	if err != nil {
		h.t.Fatal(err)
	}
	out := map[string]crawl.SkipReason{}
	for _, r := range rows {
		out[r.URL] = r.SkipReason
	}
	return out
}

func TestSkippedURLsKeepTheirReason(t *testing.T) {
	long := "/long/" + strings.Repeat("x", 300)
	site := map[string]string{
		"/robots.txt": "User-agent: *\nDisallow: /private/\n",
		"/": `<a href="/private/a">robots</a>
<a href="http://localhost:1/elsewhere">scope</a>
<a href="/excluded/a">excluded</a>
<a href="` + long + `">too long</a>
<a href="mailto:someone@example.com">scheme</a>
<a href="/t/a/a/a/a/a">trap</a>
<a rel="nofollow" href="/nofollow">nofollow</a>
<a href="/nofollow">the same, followed</a>
<a href="/level1">level 1</a>
<a href="/nofollow-page">a page that forbids following</a>`,
		"/level1":        `<a href="/level2">too deep</a>`,
		"/nofollow-page": `<meta name="robots" content="nofollow"><a href="/behind-nofollow">hidden</a>`,
	}
	s := newLogServer(t, func(w http.ResponseWriter, r *http.Request) {
		body, ok := site[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		if r.URL.Path == "/robots.txt" {
			w.Header().Set("Content-Type", "text/plain")
		}
		fmt.Fprint(w, body)
	})
	cfg := config(s.URL + "/")
	cfg.Robots = true
	cfg.Depth = 1
	cfg.Exclude = []string{"/excluded/"}
	cfg.MaxURLLength = 200
	h := newHarness(t, cfg)
	p := h.run()

	want := map[string]crawl.SkipReason{
		s.URL + "/private/a":           crawl.SkipRobots,
		"http://localhost:1/elsewhere": crawl.SkipScope,
		s.URL + "/excluded/a":          crawl.SkipExcluded,
		s.URL + long:                   crawl.SkipTooLong,
		"mailto:someone@example.com":   crawl.SkipScheme,
		s.URL + "/t/a/a/a/a/a":         crawl.SkipTrap,
		s.URL + "/level2":              crawl.SkipDepth,
		s.URL + "/behind-nofollow":     crawl.SkipNoFollow,
	}
	got := h.skips()
	for u, why := range want {
		if got[u] != why {
			t.Errorf("%s: skipped for %q, want %q", u, got[u], why)
		}
	}
	if len(got) != len(want) {
		t.Errorf("skipped %d URLs, want %d: %v", len(got), len(want), got)
	}
	// /nofollow was linked both nofollow and followed: it is crawled, and
	// not listed as skipped.
	if _, ok := got[s.URL+"/nofollow"]; ok {
		t.Errorf("/nofollow still skipped after a followed link reached it")
	}
	for _, path := range s.paths() {
		for u := range want {
			if strings.HasPrefix(u, s.URL) && s.URL+path == u {
				t.Errorf("skipped %s was requested", path)
			}
		}
	}
	if p.Skipped != int64(len(want)) {
		t.Errorf("Progress.Skipped = %d, want %d", p.Skipped, len(want))
	}
	c, err := h.db.Crawl(h.id).Counts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if c.Skipped != int64(len(want)) || c.Done != p.Done || c.Error != p.Errors {
		t.Errorf("stored counts %+v; progress done %d errors %d skipped %d", c, p.Done, p.Errors, p.Skipped)
	}
}

func TestPageCapSkipsTheRestAndResumeTakesItUp(t *testing.T) {
	s := newLogServer(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(w, "User-agent: *\nDisallow: /p0\n")
			return
		}
		w.Header().Set("Content-Type", "text/html")
		if r.URL.Path == "/" {
			for i := range 5 {
				fmt.Fprintf(w, `<a href="/p%d">%d</a>`, i, i)
			}
		}
	})
	cfg := config(s.URL + "/")
	cfg.MaxPages = 3
	cfg.Robots = true // a URL robots.txt refuses costs no place under the cap
	h := newHarness(t, cfg)
	p := h.run()
	if p.Done != 3 || p.Skipped != 3 || p.Waiting != 0 {
		t.Fatalf("done %d skipped %d waiting %d; want 3, 3, 0", p.Done, p.Skipped, p.Waiting)
	}
	reasons := map[crawl.SkipReason]int{}
	for _, why := range h.skips() {
		reasons[why]++
	}
	if reasons[crawl.SkipPageCap] != 2 || reasons[crawl.SkipRobots] != 1 {
		t.Errorf("skipped for %v; want 2 over the page cap and 1 by robots.txt", reasons)
	}
	if n := len(s.paths()); n != 4 {
		t.Errorf("%d requests, want robots.txt and 3 pages: %v", n, s.paths())
	}
	h.cfg.MaxPages = 0
	p = h.run()
	if p.Done != 5 || p.Skipped != 1 || len(h.skips()) != 1 {
		t.Errorf("resumed without a cap: done %d skipped %d (%v); want 5, 1", p.Done, p.Skipped, h.skips())
	}
}

func TestPageOverMaxSizeKeepsWhatWasRead(t *testing.T) {
	const size = 50 << 20
	filler := strings.Repeat("<p>filler text</p>\n", 1000)
	s := newLogServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		if r.URL.Path != "/" {
			fmt.Fprint(w, "<title>Linked</title>")
			return
		}
		w.Header().Set("Content-Length", fmt.Sprint(size))
		head := `<title>Big</title><a href="/linked">early link</a>`
		n, _ := fmt.Fprint(w, head)
		for n < size {
			chunk := filler[:min(len(filler), size-n)]
			m, err := fmt.Fprint(w, chunk)
			if err != nil {
				return // the crawler hung up after the cap: expected
			}
			n += m
		}
	})
	cfg := config(s.URL + "/")
	cfg.MaxSize = 1 << 20
	h := newHarness(t, cfg)
	h.run()
	p := h.page(s.URL + "/")
	if !p.Truncated || p.Length != 1<<20 || p.Err != "" || p.Title != "Big" {
		t.Errorf("big page: truncated %v, length %d, err %q, title %q; want true, %d, no error, Big",
			p.Truncated, p.Length, p.Err, p.Title, 1<<20)
	}
	if l := h.page(s.URL + "/linked"); l.Title != "Linked" {
		t.Errorf("the big page's link was not crawled: %+v", l)
	}
}
