// Package testsite serves synthetic web sites with a deterministic link
// graph, for the crawler's tests and for `trawler bench`. Every page of a
// site is a small HTML document whose links, text and size follow from its
// number, so two runs see exactly the same site.
package testsite

import (
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Site is a synthetic site of Pages pages: page 0 is the home page at "/",
// page i > 0 is at "/p/i". Each page links to OutDegree others: the next
// pages in a breadth-first tree (so every page is reachable from the home
// page) and pseudo-random ones.
type Site struct {
	Pages     int           // number of pages; at least 1
	OutDegree int           // links per page
	Latency   time.Duration // added before every response
	Seed      uint64        // varies the pseudo-random links and text

	mu       sync.Mutex
	requests []string
	record   bool
}

// Record makes the site remember the path of every request, in arrival
// order, for Requests.
func (s *Site) Record() { s.mu.Lock(); s.record = true; s.mu.Unlock() }

// Requests returns the recorded request paths in arrival order.
func (s *Site) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.requests...)
}

// URLPath returns the path of page i.
func URLPath(i int) string {
	if i == 0 {
		return "/"
	}
	return "/p/" + strconv.Itoa(i)
}

// Links returns the page numbers page i links to, in document order.
func (s *Site) Links(i int) []int {
	out := make([]int, 0, s.OutDegree)
	for j := 1; j <= s.OutDegree; j++ {
		if t, ok := s.link(i, j); ok {
			out = append(out, t)
		}
	}
	return out
}

// link returns the target of page i's j-th link (from 1), if it has one.
func (s *Site) link(i, j int) (int, bool) {
	if s.Pages <= 1 {
		return 0, false
	}
	var t int
	if j <= 2 {
		t = i*2 + j // the tree: every page has a parent
	} else {
		t = int(mix(uint64(i)*31+uint64(j)+s.Seed) % uint64(s.Pages))
	}
	return t, t < s.Pages
}

// ServeHTTP serves page i for "/p/i" and the home page for "/".
func (s *Site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	if s.record {
		s.requests = append(s.requests, r.URL.Path)
	}
	s.mu.Unlock()
	if s.Latency > 0 {
		time.Sleep(s.Latency)
	}
	i, ok := s.page(r.URL.Path)
	if !ok {
		http.NotFound(w, r)
		return
	}
	bp := bufs.Get().(*[]byte)
	*bp = s.appendHTML((*bp)[:0], i)
	h := w.Header()
	h["Content-Type"] = htmlType
	h["Content-Length"] = []string{strconv.Itoa(len(*bp))}
	w.Write(*bp)
	bufs.Put(bp)
}

func (s *Site) page(path string) (int, bool) {
	if path == "/" {
		return 0, true
	}
	n, err := strconv.Atoi(strings.TrimPrefix(path, "/p/"))
	if err != nil || !strings.HasPrefix(path, "/p/") || n <= 0 || n >= s.Pages {
		return 0, false
	}
	return n, true
}

// HTML returns the document of page i.
func (s *Site) HTML(i int) string { return string(s.appendHTML(nil, i)) }

// bufs holds the buffers pages are written into, so that serving a page
// costs the benchmarks that count allocations almost nothing of their own.
var bufs = sync.Pool{New: func() any { b := make([]byte, 0, 8<<10); return &b }}

// appendHTML appends the document of page i to b.
func (s *Site) appendHTML(b []byte, i int) []byte {
	b = append(b, "<!doctype html><html><head><title>Page "...)
	b = strconv.AppendInt(b, int64(i), 10)
	b = append(b, `</title><meta name="description" content="Synthetic page `...)
	b = strconv.AppendInt(b, int64(i), 10)
	b = append(b, `"></head><body><h1>Page `...)
	b = strconv.AppendInt(b, int64(i), 10)
	b = append(b, "</h1><p>"...)
	h := mix(uint64(i) ^ s.Seed)
	for w := range 60 {
		b = append(b, words[(h>>(w%50))%uint64(len(words))]...)
		b = append(b, ' ')
		if w%20 == 19 {
			h = mix(h)
		}
	}
	b = append(b, "page-"...)
	b = strconv.AppendInt(b, int64(i), 10)
	b = append(b, "</p><ul>"...)
	for j := 1; j <= s.OutDegree; j++ {
		t, ok := s.link(i, j)
		if !ok {
			continue
		}
		b = append(b, `<li><a href="`...)
		b = append(b, URLPath(t)...)
		b = append(b, `">link to page `...)
		b = strconv.AppendInt(b, int64(t), 10)
		b = append(b, "</a></li>"...)
	}
	return append(b, "</ul></body></html>"...)
}

// mix is splitmix64's finalizer: a cheap, well-spread hash.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// htmlType is every page's Content-Type header.
var htmlType = []string{"text/html; charset=utf-8"}

var words = strings.Fields(`crawler fingerprint queue depth breadth frontier host politeness robot
index archive page link anchor title meta harvest spider thread pool bloom filter rabin
polynomial incremental revisit change fetch parse store search export schema lease batch`)
