package sitemap

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestSizeCap checks the cap on XML, plain and gzipped, at a size small
// enough for the race detector; TestGzipBomb checks MaxSize itself.
func TestSizeCap(t *testing.T) {
	const limit = 4096
	head := "<urlset><url><loc>http://127.0.0.1/first</loc></url>"
	tail := "<url><loc>http://127.0.0.1/last</loc></url></urlset>"
	exact := head + strings.Repeat(" ", limit-len(head)-len(tail)) + tail
	tests := []struct {
		name     string
		body     string
		gzip     bool
		want     []string
		tooLarge bool
	}{
		{"exactly the limit", exact, false, []string{"/first", "/last"}, false},
		{"exactly the limit, gzip", exact, true, []string{"/first", "/last"}, false},
		{"one byte over", head + " " + exact[len(head):], false, []string{"/first", "/last"}, true},
		{"one byte over, gzip", head + " " + exact[len(head):], true, []string{"/first", "/last"}, true},
		{"text, one byte over", "http://127.0.0.1/first\n" + strings.Repeat(" ", limit-23) + "\n", false, []string{"/first"}, true},
		{"bomb", head + strings.Repeat(" ", 1<<20) + tail, true, []string{"/first"}, true},
		{"bomb in one element", head + "<url><loc>" + strings.Repeat("a", 1<<20) + "</loc></url>" + tail, true, []string{"/first"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := []byte(tt.body)
			if tt.gzip {
				var buf bytes.Buffer
				z := gzip.NewWriter(&buf)
				z.Write(body)
				z.Close()
				body = buf.Bytes()
			}
			s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(body) }))
			defer s.Close()
			got, err := collect(context.Background(), netFetch, []string{s.URL + "/s"}, 0, limit)
			if errors.Is(err, ErrTooLarge) != tt.tooLarge {
				t.Errorf("err = %v, want ErrTooLarge %v", err, tt.tooLarge)
			}
			var paths []string
			for _, e := range got {
				paths = append(paths, strings.TrimPrefix(e.URL, "http://127.0.0.1"))
			}
			if fmt.Sprint(paths) != fmt.Sprint(tt.want) {
				t.Errorf("URLs = %q, want %q", paths, tt.want)
			}
		})
	}
}

func netFetch(ctx context.Context, url string) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, err
}
