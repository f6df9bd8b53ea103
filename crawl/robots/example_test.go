package robots_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/trawler/trawler/crawl/robots"
)

// The engine asks before each fetch; the host's robots.txt is read once.
func Example() {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "User-agent: *\nDisallow: /private/\nCrawl-delay: 2\n")
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
		body, err := io.ReadAll(io.LimitReader(resp.Body, robots.MaxSize))
		return resp.StatusCode, body, err
	}
	c := robots.New(robots.Config{UserAgent: "Trawler/0.1.0"}, fetch)
	for _, path := range []string{"/index.html", "/private/notes.html"} {
		d, err := c.Check(context.Background(), s.URL+path)
		var ue *robots.UnavailableError
		if errors.As(err, &ue) {
			fmt.Println("defer host until", ue.RetryAt)
			continue
		}
		fmt.Println(path, d.Allowed, d.CrawlDelay)
	}
	// Output:
	// /index.html true 2s
	// /private/notes.html false 2s
}
