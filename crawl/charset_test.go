package crawl_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
)

// TestLegacyCharsetTitles crawls GBK pages through fetch, parse and store:
// the stored title must read right whether the charset is named only in
// <meta> or only in the Content-Type header.
func TestLegacyCharsetTitles(t *testing.T) {
	meta, err := os.ReadFile("fetch/testdata/gbk_meta.html")
	if err != nil {
		t.Fatal(err)
	}
	plain, err := os.ReadFile("fetch/testdata/gbk_plain.html")
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<a href="/meta">m</a><a href="/header">h</a>`))
	})
	mux.HandleFunc("/meta", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write(meta)
	})
	mux.HandleFunc("/header", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=GBK")
		w.Write(plain)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	h := newHarness(t, config(srv.URL+"/"))
	h.run()
	const want = "网络爬虫测试页面——中文标题"
	for _, path := range []string{"/meta", "/header"} {
		p := h.page(srv.URL + path)
		if p.Title != want || p.Charset != "gbk" {
			t.Errorf("%s: title %q charset %q, want %q gbk", path, p.Title, p.Charset, want)
		}
		if p.Text != "正文：抓取与解析。" {
			t.Errorf("%s: text %q", path, p.Text)
		}
	}
}
