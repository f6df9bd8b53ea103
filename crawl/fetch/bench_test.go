package fetch

import (
	"bytes"
	"context"
	"net/http"
	"strconv"
	"testing"
)

// BenchmarkFetch measures one fetch of a 10 KB page from a local server over
// a kept-alive connection: the fetcher's own cost, not the network's.
func BenchmarkFetch(b *testing.B) {
	body := bytes.Repeat([]byte("<p>benchmark page text</p>\n"), 10000/27)
	gz := compressWith(b, "gzip", body)
	serveBody := func(enc string, data []byte) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Content-Length", strconv.Itoa(len(data)))
			if enc != "" {
				w.Header().Set("Content-Encoding", enc)
			}
			w.Write(data)
		}
	}
	mux := http.NewServeMux()
	mux.Handle("/plain", serveBody("", body))
	mux.Handle("/gzip", serveBody("gzip", gz))
	s := serve(b, mux)
	f := mustNew(b, Config{})
	for _, path := range []string{"/plain", "/gzip"} {
		b.Run(path[1:], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r, err := f.Fetch(context.Background(), s.URL+path, false)
				if err != nil || len(r.Body) != len(body) {
					b.Fatalf("%v, %d bytes", err, len(r.Body))
				}
			}
		})
	}
	b.Run("probe", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := f.Fetch(context.Background(), s.URL+"/plain", true); err != nil {
				b.Fatal(err)
			}
		}
	})
}
