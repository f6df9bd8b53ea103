// Package testsite serves synthetic web sites with a deterministic link
// graph, for the crawler's tests and for `trawler bench`. Every page of a
// site is a small HTML document whose links, text and size follow from its
// number, so two runs see exactly the same site.
package testsite

import (
	"fmt"
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
	for j := 1; j <= s.OutDegree && s.Pages > 1; j++ {
		var t int
		if j <= 2 {
			t = i*2 + j // the tree: every page has a parent
		} else {
			t = int(mix(uint64(i)*31+uint64(j)+s.Seed) % uint64(s.Pages))
		}
		if t < s.Pages {
			out = append(out, t)
		}
	}
	return out
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
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprint(w, s.HTML(i))
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
func (s *Site) HTML(i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<!doctype html><html><head><title>Page %d</title>", i)
	fmt.Fprintf(&b, `<meta name="description" content="Synthetic page %d"></head><body><h1>Page %d</h1><p>`, i, i)
	h := mix(uint64(i) ^ s.Seed)
	for w := range 60 {
		b.WriteString(words[(h>>(w%50))%uint64(len(words))])
		b.WriteByte(' ')
		if w%20 == 19 {
			h = mix(h)
		}
	}
	fmt.Fprintf(&b, "page-%d</p><ul>", i)
	for _, t := range s.Links(i) {
		fmt.Fprintf(&b, `<li><a href="%s">link to page %d</a></li>`, URLPath(t), t)
	}
	b.WriteString("</ul></body></html>")
	return b.String()
}

// mix is splitmix64's finalizer: a cheap, well-spread hash.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

var words = strings.Fields(`crawler fingerprint queue depth breadth frontier host politeness robot
index archive page link anchor title meta harvest spider thread pool bloom filter rabin
polynomial incremental revisit change fetch parse store search export schema lease batch`)
