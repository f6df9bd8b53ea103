// Package gatewaytest holds what tests of the gateway and of its wiring
// share: reading the block page a real client got through the proxy.
package gatewaytest

import (
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// FormFields reads the inputs of a block page's "this is a mistake" form;
// the test fails when the page has none.
func FormFields(tb testing.TB, page string) url.Values {
	tb.Helper()
	v := url.Values{}
	z := html.NewTokenizer(strings.NewReader(page))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		tok := z.Token()
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken || tok.Data != "input" {
			continue
		}
		var name, value string
		for _, a := range tok.Attr {
			switch a.Key {
			case "name":
				name = a.Val
			case "value":
				value = a.Val
			}
		}
		v.Set(name, value)
	}
	if v.Get("token") == "" {
		tb.Fatalf("no form in page:\n%s", page)
	}
	return v
}
