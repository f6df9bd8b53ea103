package crawl_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/db"
)

// pages serves fixed documents by path; "{{other}}" in a body is replaced by
// the base URL of a second server, so pages can link across hosts.
func pages(docs map[string]string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		doc, ok := docs[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		ct := "text/html; charset=utf-8"
		switch {
		case strings.HasSuffix(r.URL.Path, ".png"):
			ct = "image/png"
		case strings.HasSuffix(r.URL.Path, ".js"):
			ct = "application/javascript"
		case strings.HasSuffix(r.URL.Path, ".css"):
			ct = "text/css"
		}
		w.Header().Set("Content-Type", ct)
		w.Write([]byte(doc))
	})
}

func TestScopeAndRules(t *testing.T) {
	other := httptest.NewServer(pages(map[string]string{"/": "<a href='/x'>x</a>", "/x": "x"}))
	defer other.Close()
	// "localhost" and "127.0.0.1" are different hostnames for the same
	// machine; the other server is reached by the first.
	otherURL := strings.Replace(other.URL, "127.0.0.1", "localhost", 1)
	site := pages(map[string]string{
		"/":          `<a href="/a">a</a> <a href="/private/b">b</a> <a href="/c.html">c</a> <a href="` + otherURL + `/">other</a>`,
		"/a":         "a",
		"/private/b": "b",
		"/c.html":    "c",
	})
	srv := httptest.NewServer(site)
	defer srv.Close()
	tests := []struct {
		name             string
		scope            crawl.Scope
		include, exclude []string
		want             []string
	}{
		{"host", crawl.ScopeHost, nil, nil, []string{"/", "/a", "/c.html", "/private/b"}},
		{"any", crawl.ScopeAny, nil, nil, []string{"/", "/", "/a", "/c.html", "/private/b", "/x"}},
		{"exclude", crawl.ScopeHost, nil, []string{"/private/"}, []string{"/", "/a", "/c.html"}},
		{"include", crawl.ScopeHost, []string{`\.html$`, `/$`}, nil, []string{"/", "/c.html"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := config(srv.URL + "/")
			c.Scope, c.Include, c.Exclude = tt.scope, tt.include, tt.exclude
			h := newHarness(t, c)
			h.run()
			var got []string
			for _, p := range h.paths("") {
				got = append(got, p[strings.Index(p[8:], "/")+8:])
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.want) {
				t.Errorf("fetched %v, want %v", got, tt.want)
			}
		})
	}
}

func TestReferenceKinds(t *testing.T) {
	srv := httptest.NewServer(pages(map[string]string{
		"/": `<html><head><title>Home</title><link rel="stylesheet" href="/s.css"><script src="/app.js"></script></head>
<body background="/bg.png">
<a href="/page">Read the page</a>
<map><area href="/area" alt="Area text"></map>
<iframe src="/inner"></iframe>
<img src="/logo.png" alt="Our logo">
<embed src="/movie.swf">
<applet code="Game.class"></applet>
<a href="javascript:alert(1)">js</a> <a href="mailto:a@b.c">mail</a> <a href="tel:+123">tel</a> <a href="data:text/html,hi">data</a>
<a href="/nofollow" rel="nofollow">nf</a>
</body></html>`,
		"/page": "p", "/area": "a", "/inner": "i", "/s.css": "body{}", "/app.js": "1", "/bg.png": "png", "/logo.png": "png",
		"/movie.swf": "swf", "/Game.class": "class", "/nofollow": "nf",
	}))
	defer srv.Close()
	for _, resources := range []bool{false, true} {
		c := config(srv.URL + "/")
		c.Resources = resources
		h := newHarness(t, c)
		h.run()
		home := h.page(srv.URL + "/")
		want := []crawl.Link{
			{URL: srv.URL + "/s.css", Kind: crawl.LinkLink},
			{URL: srv.URL + "/app.js", Kind: crawl.LinkScript},
			{URL: srv.URL + "/bg.png", Kind: crawl.LinkBackground},
			{URL: srv.URL + "/page", Kind: crawl.LinkA, Text: "Read the page"},
			{URL: srv.URL + "/area", Kind: crawl.LinkArea, Text: "Area text"},
			{URL: srv.URL + "/inner", Kind: crawl.LinkIFrame},
			{URL: srv.URL + "/logo.png", Kind: crawl.LinkImg, Text: "Our logo"},
			{URL: srv.URL + "/movie.swf", Kind: crawl.LinkEmbed},
			{URL: srv.URL + "/Game.class", Kind: crawl.LinkApplet},
			{URL: srv.URL + "/nofollow", Kind: crawl.LinkA, Text: "nf", NoFollow: true},
		}
		if !slices.Equal(home.Links, want) {
			t.Errorf("links of home page:\n got %+v\nwant %+v", home.Links, want)
		}
		got := h.paths(srv.URL)
		wantPaths := []string{"/", "/area", "/inner", "/page"}
		if resources {
			wantPaths = []string{"/", "/Game.class", "/app.js", "/area", "/bg.png", "/inner", "/logo.png", "/movie.swf", "/page", "/s.css"}
		}
		if !slices.Equal(got, wantPaths) {
			t.Errorf("resources=%v: fetched %v, want %v", resources, got, wantPaths)
		}
	}
}

func TestDuplicateContent(t *testing.T) {
	srv := httptest.NewServer(pages(map[string]string{
		"/":  `<a href="/a">a</a><a href="/b">b</a><a href="/c">c</a>`,
		"/a": "<p>Same   words here</p>",
		"/b": "<title>other title</title><p>Same words\nhere</p>",
		"/c": "<p>Different words</p>",
	}))
	defer srv.Close()
	h := newHarness(t, config(srv.URL+"/"))
	h.run()
	a, b, c := h.page(srv.URL+"/a"), h.page(srv.URL+"/b"), h.page(srv.URL+"/c")
	if a.ContentFP == 0 || a.ContentFP != b.ContentFP || a.ContentFP == c.ContentFP {
		t.Errorf("content fingerprints a=%x b=%x c=%x", a.ContentFP, b.ContentFP, c.ContentFP)
	}
	if b.DuplicateOf != a.URL || a.DuplicateOf != "" || c.DuplicateOf != "" {
		t.Errorf("duplicate of: a=%q b=%q c=%q", a.DuplicateOf, b.DuplicateOf, c.DuplicateOf)
	}
}

// page returns the stored page for url.
func (h *harness) page(url string) *crawl.Page {
	h.t.Helper()
	rows, err := h.db.Pages(context.Background(), db.PageQuery{Crawl: h.id, Limit: 100000})
	if err != nil {
		h.t.Fatal(err)
	}
	for _, r := range rows {
		if r.URL == url {
			p, err := h.db.Page(context.Background(), h.id, r.ID)
			if err != nil {
				h.t.Fatal(err)
			}
			return p
		}
	}
	h.t.Fatalf("no page %s stored", url)
	return nil
}

func TestRedirectChainStored(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`<a href="/r/15">start</a>`))
	})
	mux.HandleFunc("/r/", func(w http.ResponseWriter, r *http.Request) {
		var n int
		fmt.Sscanf(strings.TrimPrefix(r.URL.Path, "/r/"), "%d", &n)
		if n == 1 {
			http.Redirect(w, r, "/final", http.StatusMovedPermanently)
			return
		}
		http.Redirect(w, r, fmt.Sprintf("/r/%d", n-1), []int{301, 302, 303, 307, 308}[n%5])
	})
	var finals atomic.Int64
	mux.HandleFunc("/final", func(w http.ResponseWriter, r *http.Request) {
		finals.Add(1)
		w.Write([]byte(`<title>Final</title><a href="/final">itself</a>`))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	h := newHarness(t, config(srv.URL+"/"))
	h.run()
	p := h.page(srv.URL + "/r/15")
	if len(p.Redirects) != 15 || p.FinalURL != srv.URL+"/final" || p.Title != "Final" || p.Status != 200 {
		t.Fatalf("stored %d hops, final %q, title %q, status %d", len(p.Redirects), p.FinalURL, p.Title, p.Status)
	}
	for i, hop := range p.Redirects {
		if want := fmt.Sprintf("%s/r/%d", srv.URL, 15-i); hop.URL != want {
			t.Errorf("hop %d: %s, want %s", i, hop.URL, want)
		}
	}
	if n := finals.Load(); n != 1 {
		t.Errorf("/final fetched %d times, want 1 (the redirect target counts as seen)", n)
	}
}
