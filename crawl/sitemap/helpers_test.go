package sitemap_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/trawler/trawler/crawl/sitemap"
)

// route is what the test server answers on one path.
type route struct {
	body   string // "{{BASE}}" is replaced by the server's URL
	gzip   bool   // compress the body, whatever the path's name
	status int    // 200 when zero
	hangup bool   // close the connection without an answer
}

// server serves routes and counts the requests for each path.
type server struct {
	*httptest.Server
	mu   sync.Mutex
	hits map[string]int
}

func newServer(t testing.TB, routes map[string]route) *server {
	t.Helper()
	s := &server{hits: make(map[string]int)}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.hits[r.URL.Path]++
		s.mu.Unlock()
		rt, ok := routes[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if rt.hangup {
			if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
				conn.Close()
			}
			return
		}
		body := []byte(strings.ReplaceAll(rt.body, "{{BASE}}", s.URL))
		if rt.gzip {
			body = gzipped(t, body)
		}
		if rt.status != 0 {
			w.WriteHeader(rt.status)
		}
		w.Write(body)
	}))
	t.Cleanup(s.Close)
	return s
}

// count returns how often path was requested.
func (s *server) count(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[path]
}

// golden reads a file of testdata.
func golden(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func gzipped(t testing.TB, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	z := gzip.NewWriter(&buf)
	if _, err := z.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// httpFetcher is a Fetcher over net/http, like the engine's. It does not
// ask for compression, so gzip sitemaps arrive as served.
func httpFetcher() sitemap.Fetcher {
	client := &http.Client{Timeout: 10 * time.Second}
	return func(ctx context.Context, url string) (int, []byte, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return 0, nil, err
		}
		resp, err := client.Do(req)
		if err != nil {
			return 0, nil, err
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
		if err != nil {
			return 0, nil, err
		}
		return resp.StatusCode, body, nil
	}
}

// urls lists the URLs of entries.
func urls(es []sitemap.Entry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.URL
	}
	return out
}
