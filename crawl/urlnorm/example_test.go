package urlnorm_test

import (
	"errors"
	"fmt"
	"net/url"

	"github.com/trawler/trawler/crawl/urlnorm"
)

func ExampleResolve() {
	page, _ := url.Parse("http://Example.com:80/docs/guide/index.html")
	for _, href := range []string{"../api/#top", " intro.html ", "mailto:team@example.com", ""} {
		u, err := urlnorm.Resolve(page, href)
		var r *urlnorm.Rejection
		if errors.As(err, &r) {
			fmt.Println("skip:", r.Reason)
			continue
		}
		fmt.Println(u)
	}
	// Output:
	// http://example.com/docs/api/
	// http://example.com/docs/guide/intro.html
	// skip: scheme
	// skip: empty
}

func ExampleNormalize() {
	u, _ := urlnorm.Normalize("HTTP://user:secret@Bücher.example:80/a/./b/../%7ec?q=%2f#frag")
	fmt.Println(u)
	// Output: http://xn--bcher-kva.example/a/~c?q=%2F
}

func ExampleHost() {
	u, _ := url.Parse("https://example.com/x")
	fmt.Println(urlnorm.Host(u))
	// Output: example.com:443
}
