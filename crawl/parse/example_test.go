package parse_test

import (
	"fmt"
	"testing"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/parse"
)

func ExampleHTML() {
	d, err := parse.HTML([]byte(`<html><head><title>Docs</title>
<meta name="robots" content="noindex"></head>
<body><h1>Manual</h1><p>See the <a href="intro.html">introduction</a>
and the <a href="/faq" rel="nofollow"><img src="faq.png" alt="FAQ"></a>.</p></body></html>`))
	if err != nil {
		panic(err)
	}
	fmt.Printf("%q noindex=%v\n%q\n", d.Title, d.NoIndex, d.Text)
	for _, r := range d.Refs {
		fmt.Printf("%-6s %-10s %q nofollow=%v\n", r.Kind, r.Href, r.Text, r.NoFollow)
	}
	// Output:
	// "Docs" noindex=true
	// "Manual See the introduction and the ."
	// a      intro.html "introduction" nofollow=false
	// a      /faq       "FAQ" nofollow=true
	// img    faq.png    "FAQ" nofollow=false
}

// TestKindsMatchEngine keeps the reference kinds equal to the engine's link
// kinds, which the engine converts them to.
func TestKindsMatchEngine(t *testing.T) {
	pairs := []struct {
		kind parse.Kind
		link crawl.LinkKind
	}{
		{parse.A, crawl.LinkA}, {parse.Area, crawl.LinkArea}, {parse.Frame, crawl.LinkFrame},
		{parse.IFrame, crawl.LinkIFrame}, {parse.Img, crawl.LinkImg}, {parse.Script, crawl.LinkScript},
		{parse.Link, crawl.LinkLink}, {parse.Embed, crawl.LinkEmbed},
		{parse.Background, crawl.LinkBackground}, {parse.Applet, crawl.LinkApplet},
	}
	for _, p := range pairs {
		if string(p.kind) != string(p.link) {
			t.Errorf("parse kind %q != crawl kind %q", p.kind, p.link)
		}
	}
}
