// Command colly crawls a site with gocolly/colly v2, as a hand-written
// Colly script would, for the peer benchmark: every link within the
// host, -threads requests at once, no delay, nothing stored. It prints
// the pages it fetched.
package main

import (
	"flag"
	"fmt"
	"log"
	"net/url"
	"sync/atomic"

	"github.com/gocolly/colly/v2"
)

func main() {
	threads := flag.Int("threads", 10, "requests at once")
	flag.Parse()
	if flag.NArg() != 1 {
		log.Fatal("usage: colly [-threads N] URL")
	}
	seed, err := url.Parse(flag.Arg(0))
	if err != nil {
		log.Fatal(err)
	}
	c := colly.NewCollector(colly.Async(true), colly.AllowedDomains(seed.Hostname()), colly.MaxDepth(0))
	if err := c.Limit(&colly.LimitRule{DomainGlob: "*", Parallelism: *threads}); err != nil {
		log.Fatal(err)
	}
	var pages atomic.Int64
	c.OnResponse(func(*colly.Response) { pages.Add(1) })
	c.OnHTML("a[href]", func(e *colly.HTMLElement) {
		e.Request.Visit(e.Attr("href"))
	})
	if err := c.Visit(seed.String()); err != nil {
		log.Fatal(err)
	}
	c.Wait()
	fmt.Println(pages.Load())
}
