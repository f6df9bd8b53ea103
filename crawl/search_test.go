package crawl_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"golang.org/x/text/encoding/simplifiedchinese"
)

// TestChineseSearch crawls a GBK page and a UTF-8 page of Chinese text and
// finds each by its two- and four-character words; an English phrase stays
// exact, and a page with the word in its title ranks first.
func TestChineseSearch(t *testing.T) {
	gbk, err := simplifiedchinese.GBK.NewEncoder().String(
		`<html><head><meta charset="gbk"><title>布隆过滤器</title></head><body>` +
			`<p>本文介绍多线程网络爬虫如何用布隆过滤器判断网址是否重复。</p></body></html>`)
	if err != nil {
		t.Fatal(err)
	}
	docs := map[string]string{
		"/": `<a href="/gbk">gbk</a> <a href="/utf8">utf8</a> <a href="/en1">en</a> <a href="/en2">en</a> <a href="/title">t</a>`,
		"/utf8": `<html><head><meta charset="utf-8"><title>增量采集</title></head><body>` +
			`<p>并行增量式网页信息采集系统使用拉宾指纹识别重复的网址。</p></body></html>`,
		"/en1":   `<title>One</title><p>the quick brown fox jumps over a fence</p>`,
		"/en2":   `<title>Two</title><p>brown quick foxes sleep, then fingerprint once</p>`,
		"/title": `<title>Fingerprint of URLs</title><p>about hashing</p>`,
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/gbk" {
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(gbk))
			return
		}
		body, ok := docs[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(body))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	h := newHarness(t, config(srv.URL+"/"))
	h.run()
	tests := []struct{ typed, want string }{
		{"爬虫", "/gbk"},
		{"网络爬虫", "/gbk"},
		{"过滤器", "/gbk"},
		{"指纹", "/utf8"},
		{"增量采集", "/utf8"},
		{"网址", "/gbk /utf8"},
		{`"quick brown"`, "/en1"},
		{"fingerprint", "/title /en2"},
	}
	for _, tt := range tests {
		rows, err := h.db.Search(context.Background(), h.id, tt.typed, 10)
		if err != nil {
			t.Fatalf("search %q: %v", tt.typed, err)
		}
		var got []string
		for _, r := range rows {
			got = append(got, strings.TrimPrefix(r.URL, srv.URL))
		}
		if tt.typed == "网址" {
			slices.Sort(got) // equally good matches
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("search %q found %v, want %s", tt.typed, got, tt.want)
		}
	}
}
