package sitemap_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/trawler/trawler/crawl/sitemap"
)

// A sitemap index pointing to one XML sitemap and one plain-text sitemap.
func Example() {
	var s *httptest.Server
	s = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/sitemap.xml":
			fmt.Fprintf(w, `<sitemapindex><sitemap><loc>%[1]s/pages.xml</loc></sitemap><sitemap><loc>%[1]s/more.txt</loc></sitemap></sitemapindex>`, s.URL)
		case "/pages.xml":
			fmt.Fprintf(w, `<urlset><url><loc>%s/about</loc><lastmod>2026-01-31</lastmod></url></urlset>`, s.URL)
		case "/more.txt":
			fmt.Fprintf(w, "%s/news\n%s/about\n", s.URL, s.URL)
		}
	}))
	defer s.Close()

	fetch := func(ctx context.Context, url string) (int, []byte, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return 0, nil, err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, nil, err
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		return resp.StatusCode, body, err
	}
	entries, err := sitemap.Collect(context.Background(), fetch, []string{s.URL + "/sitemap.xml"}, 100)
	if err != nil {
		fmt.Println(err)
	}
	for _, e := range entries {
		fmt.Println(strings.TrimPrefix(e.URL, s.URL), e.LastMod.Format("2006-01-02"))
	}
	// Output:
	// /about 2026-01-31
	// /news 0001-01-01
}
