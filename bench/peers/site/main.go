// Command site serves the peer benchmark's synthetic site on 127.0.0.1:
// one host, -pages pages of about 4 KiB, each with 10 links, every page
// reachable from "/" within a few hops. It prints its home URL, counts the
// fetches of every page, and answers GET /stats with them (and POST /reset
// to start counting afresh), so the benchmark can tell that each crawler
// fetched every page exactly once. GET /probe waits as long as a page and
// is not counted: the runner times it to learn the site's real latency.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Stats is what GET /stats answers.
type Stats struct {
	Fetches  int64 `json:"fetches"`  // page responses sent
	Distinct int64 `json:"distinct"` // pages fetched at least once
	Twice    int64 `json:"twice"`    // pages fetched more than once
}

type site struct {
	pages   int
	latency time.Duration
	page    []string // the documents, made once; nil for a site larger than keptPages

	mu   sync.Mutex
	hits []int32
}

func main() {
	pages := flag.Int("pages", 5000, "pages on the site")
	latency := flag.Duration("latency", 20*time.Millisecond, "added before every page")
	addr := flag.String("addr", "127.0.0.1:0", "listen address (loopback)")
	flag.Parse()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	s := &site{pages: *pages, latency: *latency, hits: make([]int32, *pages)}
	for i := range *pages {
		if *pages > keptPages {
			break
		}
		s.page = append(s.page, s.html(i))
	}
	fmt.Fprintf(os.Stdout, "http://%s/\n", ln.Addr())
	log.Fatal(http.Serve(ln, s))
}

func (s *site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/stats":
		s.mu.Lock()
		var st Stats
		for _, h := range s.hits {
			st.Fetches += int64(h)
			if h > 0 {
				st.Distinct++
			}
			if h > 1 {
				st.Twice++
			}
		}
		s.mu.Unlock()
		json.NewEncoder(w).Encode(st)
		return
	case "/reset":
		s.mu.Lock()
		clear(s.hits)
		s.mu.Unlock()
		return
	case "/probe":
		time.Sleep(s.latency)
		fmt.Fprint(w, "probe")
		return
	case "/robots.txt", "/favicon.ico":
		http.NotFound(w, r)
		return
	}
	i, ok := 0, r.URL.Path == "/"
	if !ok {
		n, err := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/p/"))
		i, ok = n, err == nil && strings.HasPrefix(r.URL.Path, "/p/") && n > 0 && n < s.pages
	}
	if !ok {
		http.NotFound(w, r)
		return
	}
	time.Sleep(s.latency)
	s.mu.Lock()
	s.hits[i]++
	s.mu.Unlock()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if s.page == nil {
		fmt.Fprint(w, s.html(i))
		return
	}
	fmt.Fprint(w, s.page[i])
}

// keptPages is the largest site whose pages are made once and kept: a
// million pages of 4 KiB would hold 4 GB, so a larger site makes each
// page when it is asked for.
const keptPages = 100_000

// links are page i's 10 links: its children in a 10-ary tree (so every
// page is reachable), the rest pseudo-random pages.
func (s *site) links(i int) []int {
	var out []int
	for c := 10*i + 1; c <= 10*i+10 && c < s.pages; c++ {
		out = append(out, c)
	}
	h := uint64(i)*0x9e3779b97f4a7c15 + 1
	for len(out) < 10 {
		h ^= h >> 31
		h *= 0xbf58476d1ce4e5b9
		out = append(out, 1+int(h%uint64(s.pages-1)))
	}
	return out
}

var words = strings.Fields(`crawler frontier fingerprint breadth depth queue thread politeness
robots sitemap anchor title charset archive harvest index search export page link host`)

// html is page i: a title, about 4 KiB of text, and its links.
func (s *site) html(i int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<!doctype html><html><head><title>Page %d</title></head><body><h1>Page %d</h1><p>", i, i)
	for w := 0; b.Len() < 3600; w++ {
		b.WriteString(words[(i*7+w*13)%len(words)])
		b.WriteByte(' ')
	}
	b.WriteString("</p><ul>")
	for _, t := range s.links(i) {
		fmt.Fprintf(&b, `<li><a href="/p/%d">page %d</a></li>`, t, t)
	}
	b.WriteString("</ul></body></html>")
	return b.String()
}
