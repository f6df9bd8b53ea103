package fetch_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/trawler/trawler/crawl/fetch"
)

// A page behind one redirect, served in GBK: the body comes back in UTF-8.
func Example() {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/old" {
			http.Redirect(w, r, "/new", http.StatusMovedPermanently)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=gbk")
		w.Write([]byte("<title>\xd0\xc2</title>")) // 新 in GBK
	}))
	defer s.Close()

	f, err := fetch.New(fetch.Config{UserAgent: "Trawler/0.1"})
	if err != nil {
		panic(err)
	}
	defer f.Close()
	r, err := f.Fetch(context.Background(), s.URL+"/old", false)
	if err != nil {
		fmt.Println(fetch.KindOf(err), err)
		return
	}
	fmt.Println(r.Status, r.ContentType, r.Charset, len(r.Redirects), string(r.Body))
	// Output: 200 text/html gbk 1 <title>新</title>
}
