// Command demosite serves a synthetic site (crawl/testsite) on 127.0.0.1
// for the window's smoke test and screenshots, and prints its home URL.
// It runs until killed.
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
	log.Fatal(http.Serve(ln, site))
}
