package fetch

import (
	"bytes"
	"context"
	"net/http"
	"sync/atomic"
	"testing"
	"time"
)

// TestConditionalRevisit serves one page with an ETag and a Last-Modified
// date through http.ServeContent, which answers conditional requests, and
// checks that the validators FetchWith sends get a 304 without a body.
func TestConditionalRevisit(t *testing.T) {
	body := bytes.Repeat([]byte("<p>unchanged text</p>"), 200)
	modified := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	var sent atomic.Int64
	mux := http.NewServeMux()
	page := func(etag string, mod time.Time) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			if etag != "" {
				w.Header().Set("ETag", etag)
			}
			w.Header().Set("Content-Type", "text/html")
			cw := &countingWriter{ResponseWriter: w, n: &sent}
			http.ServeContent(cw, r, "", mod, bytes.NewReader(body))
		}
	}
	mux.Handle("/etag", page(`"v1"`, time.Time{}))
	mux.Handle("/date", page("", modified))
	srv := serve(t, mux)
	f := mustNew(t, Config{})
	tests := []struct {
		name   string
		path   string
		header http.Header
		status int
		body   bool
	}{
		{"no validators", "/etag", nil, 200, true},
		{"matching etag", "/etag", http.Header{"If-None-Match": {`"v1"`}}, 304, false},
		{"stale etag", "/etag", http.Header{"If-None-Match": {`"v0"`}}, 200, true},
		{"same date", "/date", http.Header{"if-modified-since": {modified.Format(http.TimeFormat)}}, 304, false},
		{"older date", "/date", http.Header{"If-Modified-Since": {modified.Add(-time.Hour).Format(http.TimeFormat)}}, 200, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := sent.Load()
			r, err := f.FetchWith(context.Background(), srv.URL+tt.path, false, tt.header)
			if err != nil {
				t.Fatal(err)
			}
			if r.Status != tt.status || (r.Body != nil) != tt.body {
				t.Errorf("status %d, body %d bytes; want %d, body %v", r.Status, len(r.Body), tt.status, tt.body)
			}
			if n := sent.Load() - before; (n > 0) != tt.body {
				t.Errorf("server sent %d body bytes", n)
			}
		})
	}
}

// countingWriter counts the body bytes a handler writes.
type countingWriter struct {
	http.ResponseWriter
	n *atomic.Int64
}

func (w *countingWriter) Write(b []byte) (int, error) {
	n, err := w.ResponseWriter.Write(b)
	w.n.Add(int64(n))
	return n, err
}
