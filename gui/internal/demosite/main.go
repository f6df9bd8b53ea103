// Command demosite serves a synthetic site (crawl/testsite) on 127.0.0.1
// for the window's smoke test and screenshots, and prints its home URL.
// Besides the testsite's pages it has what a real site shows a crawler: a
// robots.txt that disallows part of it, moved pages that redirect, and a
// link that leaves the site. It runs until killed.
//
//	go run ./gui/internal/demosite -pages 5000 -latency 5ms
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/trawler/trawler/crawl/testsite"
)

func main() {
	pages := flag.Int("pages", 1000, "pages on the site")
	out := flag.Int("links", 6, "links per page")
	latency := flag.Duration("latency", 0, "added before every response")
	addr := flag.String("addr", "127.0.0.1:0", "listen address (loopback)")
	flag.Parse()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Fprintf(os.Stdout, "http://%s/\n", ln.Addr())
	site := &testsite.Site{Pages: *pages, OutDegree: *out, Latency: *latency, Seed: 7}
	log.Fatal(http.Serve(ln, handler(site, *latency)))
}

// handler adds to the site a robots.txt, a home page with extra links, and
// /moved/N redirecting to /p/N (301, or 302 for odd N).
func handler(site *testsite.Site, latency time.Duration) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/", site)
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "User-agent: *\nDisallow: /p/13\n")
	})
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(latency)
		extra := `<li><a href="/moved/2">moved page</a></li><li><a href="/moved/3">moved for now</a></li>` +
			`<li><a href="http://localhost:9/elsewhere">another site</a></li></ul>`
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, strings.Replace(site.HTML(0), "</ul>", extra, 1))
	})
	mux.HandleFunc("/moved/{n}", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(latency)
		status := http.StatusMovedPermanently
		if n := r.PathValue("n"); n != "" && (n[len(n)-1]-'0')%2 == 1 {
			status = http.StatusFound
		}
		http.Redirect(w, r, "/p/"+r.PathValue("n"), status)
	})
	return mux
}
