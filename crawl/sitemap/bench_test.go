package sitemap_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/trawler/trawler/crawl/sitemap"
)

// BenchmarkCollect reads one sitemap of 50,000 URLs, the protocol's
// maximum, over loopback HTTP; plain and gzipped.
func BenchmarkCollect(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for i := range 50000 {
		fmt.Fprintf(&sb, "<url><loc>http://127.0.0.1/section/%d/page-%d.html</loc><lastmod>2026-01-%02dT10:00:00Z</lastmod></url>\n", i%97, i, i%28+1)
	}
	sb.WriteString("</urlset>")
	for _, gz := range []bool{false, true} {
		b.Run(fmt.Sprintf("gzip=%v", gz), func(b *testing.B) {
			body := sb.String()
			if gz {
				body = string(gzipped(b, []byte(body)))
			}
			s := newServer(b, map[string]route{"/s.xml": {body: body}})
			b.ReportAllocs()
			for b.Loop() {
				got, err := sitemap.Collect(context.Background(), httpFetcher(), []string{s.URL + "/s.xml"}, 0)
				if err != nil || len(got) != 50000 {
					b.Fatalf("%d entries, %v", len(got), err)
				}
			}
		})
	}
}
