package crawl_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
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

func TestRedirectChainRows(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`<a href="/a">start</a>`))
	})
	hops := map[string]struct {
		to     string
		status int
	}{"/a": {"/b", 301}, "/b": {"/c", 302}, "/c": {"/final", 308}}
	var mu sync.Mutex
	requests := map[string]int{}
	for from, h := range hops {
		mux.HandleFunc(from, func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			requests[from]++
			mu.Unlock()
			http.Redirect(w, r, h.to, h.status)
		})
	}
	mux.HandleFunc("/final", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		requests["/final"]++
		mu.Unlock()
		w.Write([]byte(`<title>Final</title><a href="/final">itself</a> <a href="/a">again</a>`))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	cfg := config(srv.URL + "/")
	cfg.Depth = 1 // the chain's hops keep depth 1: a redirect is not a link
	h := newHarness(t, cfg)
	h.run()
	want := []struct {
		path, to string
		status   int
	}{{"/a", "/b", 301}, {"/b", "/c", 302}, {"/c", "/final", 308}, {"/final", "", 200}}
	for _, w := range want {
		p := h.page(srv.URL + w.path)
		to := ""
		if w.to != "" {
			to = srv.URL + w.to
		}
		if p.Status != w.status || p.RedirectTo != to || p.Depth != 1 {
			t.Errorf("%s: status %d, redirect_to %q, depth %d; want %d, %q, 1", w.path, p.Status, p.RedirectTo, p.Depth, w.status, to)
		}
		if w.to != "" && (len(p.Links) != 1 || p.Links[0].Kind != crawl.LinkRedirect || p.Links[0].URL != to) {
			t.Errorf("%s: links %+v; want its target as a redirect link", w.path, p.Links)
		}
		if n := requests[w.path]; n != 1 {
			t.Errorf("%s requested %d times, want 1", w.path, n)
		}
	}
	chain, err := h.db.RedirectChain(context.Background(), h.id, srv.URL+"/b")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, hop := range chain {
		got = append(got, fmt.Sprintf("%d %s", hop.Status, strings.TrimPrefix(hop.URL, srv.URL)))
	}
	if strings.Join(got, ", ") != "301 /a, 302 /b, 308 /c, 200 /final" {
		t.Errorf("chain through /b: %v", got)
	}
}

func TestRedirectLimit(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`<a href="/r/10">start</a>`))
	})
	var mu sync.Mutex
	var asked []string
	mux.HandleFunc("/r/", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked = append(asked, r.URL.Path)
		mu.Unlock()
		var n int
		fmt.Sscanf(strings.TrimPrefix(r.URL.Path, "/r/"), "%d", &n)
		http.Redirect(w, r, fmt.Sprintf("/r/%d", n-1), http.StatusFound)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	cfg := config(srv.URL + "/")
	cfg.MaxRedirects = 3
	h := newHarness(t, cfg)
	h.run()
	if len(asked) != 4 {
		t.Errorf("asked %v; want the first URL and 3 redirects", asked)
	}
	skips := h.skips()
	if skips[srv.URL+"/r/6"] != crawl.SkipRedirects {
		t.Errorf("skips %v; want /r/6 skipped for too many redirects", skips)
	}
}
