package parse

import (
	"reflect"
	"strings"
	"testing"
)

func mustParse(t testing.TB, src string) *Document {
	t.Helper()
	d, err := HTML([]byte(src))
	if err != nil {
		t.Fatalf("HTML(%q): %v", src, err)
	}
	return d
}

func TestMeta(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want Document // only the head fields are compared
	}{
		{"title", `<title>  Hello,
			 world </title>`, Document{Title: "Hello, world"}},
		{"title entities", `<title>Tom &amp; Jerry&nbsp;&#8212;&nbsp;home</title>`, Document{Title: "Tom & Jerry — home"}},
		{"first title wins", `<title>One</title><title>Two</title>`, Document{Title: "One"}},
		{"title in body", `<body><p>x</p><title>Late</title>`, Document{Title: "Late"}},
		{"no title", `<p>x`, Document{}},
		{"svg title ignored", `<svg><title>Icon</title></svg><title>Page</title>`, Document{Title: "Page"}},
		{"meta names case-insensitive",
			`<meta NAME="Description" content="About  &quot;us&quot;"><meta name=KEYWORDS content="a, b">` +
				`<meta name=" author " content="Ann &amp; Bob">`,
			Document{Description: `About "us"`, Keywords: "a, b", Author: "Ann & Bob"}},
		{"first non-empty meta wins",
			`<meta name=description content=""><meta name=description content="second"><meta name=description content="third">`,
			Document{Description: "second"}},
		{"robots joined", `<meta name=robots content="noarchive"><meta name=Robots content=" NOINDEX ">`,
			Document{Robots: "noarchive, NOINDEX", NoIndex: true}},
		{"base as written", `<base target=_top><base href=" ../dir/ "><base href="/other/">`, Document{Base: "../dir/"}},
		{"base empty href", `<base href=""><base href="/later/">`, Document{}},
		{"refresh", `<meta http-equiv="Refresh" content="5; URL='/next?a=1'">`, Document{Refresh: "/next?a=1"}},
		{"refresh unquoted", `<meta http-equiv=refresh content="0;url=http://example.com/">`, Document{Refresh: "http://example.com/"}},
		{"refresh bare url", `<meta http-equiv=refresh content="3, /moved">`, Document{Refresh: "/moved"}},
		{"refresh self", `<meta http-equiv=refresh content="30">`, Document{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := mustParse(t, tt.src)
			d.Text, d.Refs = "", nil
			if !reflect.DeepEqual(*d, tt.want) {
				t.Errorf("got  %+v\nwant %+v", *d, tt.want)
			}
		})
	}
}

func TestRefs(t *testing.T) {
	long := strings.Repeat("é", 400) // 800 bytes
	tests := []struct {
		name string
		src  string
		want []Ref
	}{
		{"anchor text", `<a href=" /a?x=1&amp;y=2 ">Go <b>to</b>
			 page</a>`, []Ref{{Href: "/a?x=1&y=2", Kind: A, Text: "Go to page"}}},
		{"anchor image alt", `<a href=/i><img src=/i.png alt="Home  page"></a>`,
			[]Ref{{Href: "/i", Kind: A, Text: "Home page"}, {Href: "/i.png", Kind: Img, Text: "Home page"}}},
		{"anchor title fallback", `<a href=/t title="Next page"></a>`, []Ref{{Href: "/t", Kind: A, Text: "Next page"}}},
		{"anchor text beats title", `<a href=/t title=T>text</a>`, []Ref{{Href: "/t", Kind: A, Text: "text"}}},
		{"anchor without href", `<a name=top>Top</a><a href="">empty</a><a href="  ">blank</a>`, nil},
		{"anchor blocks", `<a href=/b><div>one</div><div>two</div></a>`, []Ref{{Href: "/b", Kind: A, Text: "one two"}}},
		{"anchor script dropped", `<a href=/s>x<script>var y</script><style>p{}</style>z</a>`, []Ref{{Href: "/s", Kind: A, Text: "xz"}}},
		{"anchor text capped", `<a href=/l>` + long + `</a>`, []Ref{{Href: "/l", Kind: A, Text: long[:500]}}},
		{"nofollow", `<a href=/n rel="external NoFollow">n</a><a href=/f rel=nofollowx>f</a>`,
			[]Ref{{Href: "/n", Kind: A, Text: "n", NoFollow: true}, {Href: "/f", Kind: A, Text: "f"}}},
		{"javascript and mailto kept", `<a href="javascript:void(0)">js</a><a href="mailto:a@b">m</a><a href="#top">t</a>`,
			[]Ref{{Href: "javascript:void(0)", Kind: A, Text: "js"}, {Href: "mailto:a@b", Kind: A, Text: "m"}, {Href: "#top", Kind: A, Text: "t"}}},
		{"area", `<map><area href=/r1 alt="Region one" shape=rect><area href=/r2 title=Two><area nohref alt=x></map>`,
			[]Ref{{Href: "/r1", Kind: Area, Text: "Region one"}, {Href: "/r2", Kind: Area, Text: "Two"}}},
		{"frames", `<frameset><frame src=top.html title="Top"><frame src=""><frame src=main.html></frameset>`,
			[]Ref{{Href: "top.html", Kind: Frame, Text: "Top"}, {Href: "main.html", Kind: Frame}}},
		{"iframe", `<p>x<iframe src="/embed" title="Map">fallback <a href=/no>no</a></iframe>y`,
			[]Ref{{Href: "/embed", Kind: IFrame, Text: "Map"}}},
		{"img", `<img src=/a.png alt="A"><img src=/b.png title="B"><img srcset=" /s1.png 1x, /s2.png 2x"><img src="">`,
			[]Ref{{Href: "/a.png", Kind: Img, Text: "A"}, {Href: "/b.png", Kind: Img, Text: "B"}, {Href: "/s1.png", Kind: Img}}},
		{"script and link", `<head><script src=/app.js></script><script>inline()</script><link rel=stylesheet href=/s.css><link rel="alternate nofollow" href=/feed title=Feed></head>`,
			[]Ref{{Href: "/app.js", Kind: Script}, {Href: "/s.css", Kind: Link}, {Href: "/feed", Kind: Link, Text: "Feed", NoFollow: true}}},
		{"embeds", `<embed src=/m.swf><object data=/o.pdf title=Doc></object><video src=/v.mp4><source src=/v.webm></video><audio src=/a.ogg></audio>`,
			[]Ref{{Href: "/m.swf", Kind: Embed}, {Href: "/o.pdf", Kind: Embed, Text: "Doc"}, {Href: "/v.mp4", Kind: Embed}, {Href: "/v.webm", Kind: Embed}, {Href: "/a.ogg", Kind: Embed}}},
		{"background", `<body background=" img/bg.gif "><p>x`, []Ref{{Href: "img/bg.gif", Kind: Background}}},
		{"applet", `<applet code=Clock.class alt="A clock"></applet><applet code="/Tick.class" codebase="classes/"></applet>` +
			`<applet code=http://x.test/C.class codebase=c></applet><applet codebase=c></applet>`,
			[]Ref{{Href: "Clock.class", Kind: Applet, Text: "A clock"}, {Href: "classes/Tick.class", Kind: Applet}, {Href: "http://x.test/C.class", Kind: Applet}}},
		{"noscript links", `<noscript><a href=/nojs>plain</a><img src=/pixel.gif></noscript>`,
			[]Ref{{Href: "/nojs", Kind: A, Text: "plain"}, {Href: "/pixel.gif", Kind: Img}}},
		{"template ignored", `<template><a href=/tpl>t</a></template><a href=/real>r</a>`, []Ref{{Href: "/real", Kind: A, Text: "r"}}},
		{"document order", `<link href=/1><body background=/2><a href=/3>3</a><img src=/4><frame src=/5>`,
			[]Ref{{Href: "/1", Kind: Link}, {Href: "/2", Kind: Background}, {Href: "/3", Kind: A, Text: "3"}, {Href: "/4", Kind: Img}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := mustParse(t, tt.src)
			if !reflect.DeepEqual(d.Refs, tt.want) {
				t.Errorf("got  %+v\nwant %+v", d.Refs, tt.want)
			}
		})
	}
}

func TestRobots(t *testing.T) {
	tests := []struct {
		src               string
		noIndex, noFollow bool
	}{
		{`<meta name=robots content="index, follow">`, false, false},
		{`<meta name=robots content="noindex, nofollow">`, true, true},
		{`<meta name=robots content="noindex,nofollow">`, true, true},
		{`<meta name=robots content="none">`, true, true},
		{`<meta name=robots content="NOINDEX">`, true, false},
		{`<meta name=ROBOTS content="NoFollow">`, false, true},
		{`<meta name=robots content="noindex"><meta name=robots content="nofollow">`, true, true},
		{`<meta name=trawler content="nofollow">`, false, true},
		{`<meta name=googlebot content="noindex">`, false, false},
		{`<meta name=robots content="noindexing">`, false, false},
		{`<a href=/x rel=nofollow>x</a>`, false, false},
	}
	for _, tt := range tests {
		d := mustParse(t, tt.src)
		if d.NoIndex != tt.noIndex || d.NoFollow != tt.noFollow {
			t.Errorf("%s: NoIndex, NoFollow = %v, %v; want %v, %v", tt.src, d.NoIndex, d.NoFollow, tt.noIndex, tt.noFollow)
		}
	}
}

func TestText(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"blocks separated", `<p>a</p><p>b</p>`, "a b"},
		{"inline joined", `<p>un<b>bold</b>ed <i>x</i></p>`, "unbolded x"},
		{"br and hr", `one<br>two<hr>three`, "one two three"},
		{"table cells", `<table><tr><td>a</td><td>b</td></tr><tr><th>c</th></tr></table>`, "a b c"},
		{"list items", `<ul><li>x<li>y</ul>`, "x y"},
		{"whitespace collapsed", "<p>  a \t\n b\r\n\n  c  </p>", "a b c"},
		{"nbsp", `<p>a&nbsp;&nbsp;b&#160;c` + "\u00a0\u3000" + `d</p>`, "a b c d"},
		{"dropped elements", `<p>a<script>s()</script><style>.x{}</style><noscript>enable js</noscript><template>t</template>b</p>`, "ab"},
		{"title and head kept apart", `<html><head><title>T</title><style>x</style></head><body>body</body></html>`, "body"},
		{"entities", `<p>&lt;tag&gt; &amp; &eacute;t&eacute;</p>`, "<tag> & été"},
		{"comments dropped", `<p>a<!-- hidden -->b</p>`, "ab"},
		{"fragment without body", `just text <em>here</em>`, "just text here"},
		{"text after body end", `<body><p>a</p></body><p>b</p>`, "a b"},
		{"frameset has no body text", `<frameset><frame src=a></frameset>`, ""},
		{"iframe fallback dropped", `a<iframe>inner</iframe>b`, "ab"},
		{"textarea kept", `<form>Name<textarea> x </textarea></form>`, "Name x"},
		{"pre collapsed", "<pre>a\n\n  b</pre>", "a b"},
		{"invalid utf-8 replaced", "<p>a\xffb</p>", "a\uFFFDb"},
		{"empty", ``, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := mustParse(t, tt.src).Text; got != tt.want {
				t.Errorf("Text = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestNormalizeText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"a", "a"},
		{"already normal", "already normal"},
		{"  lead and trail  ", "lead and trail"},
		{"tab\tnew\nline\r\nfeed\f", "tab new line feed"},
		{"\u00a0nbsp\u00a0\u00a0x\u2003em\u3000ideo\u2028ls\u0085nel", "nbsp x em ideo ls nel"},
		{"Keep CASE", "Keep CASE"},
		{"zero\u200bwidth", "zero\u200bwidth"},
		{"bad\xc3utf8", "bad\uFFFDutf8"},
		{" ", ""},
	}
	for _, tt := range tests {
		if got := NormalizeText(tt.in); got != tt.want {
			t.Errorf("NormalizeText(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got := NormalizeText(tt.want); got != tt.want {
			t.Errorf("NormalizeText(%q) not idempotent: %q", tt.want, got)
		}
	}
}

// TestMalformed feeds broken markup: it must parse, and what a browser
// would still find must be found.
func TestMalformed(t *testing.T) {
	tests := []struct {
		name, src, text string
		hrefs           []string
	}{
		// The open <a> is reopened in the second paragraph, as browsers do.
		{"unclosed tags", `<html><body><p>one<a href=/x>link<p>two`, "onelink two", []string{"/x", "/x"}},
		{"odd unquoted attrs", `<a href=/a?x=1&y=2 title=x"y class=>t</a>`, "t", []string{"/a?x=1&y=2"}},
		{"quote open to the end", `<a href=/a title="unterminated>text</a><a href=/b>b</a>`, "", nil},
		{"stray end tags", `</div></p></a><p>x</p></body></html></html>`, "x", nil},
		{"nested anchors", `<a href=/1>one<a href=/2>two</a></a>`, "onetwo", []string{"/1", "/2"}},
		{"misnested formatting", `<b><i>a</b>b</i><a href=/m>m</a>`, "abm", []string{"/m"}},
		{"table foster parenting", `<table><a href=/f>f</a><tr><td>c</table>`, "f c", []string{"/f"}},
		{"unclosed title takes the rest", `<title>T<p>x<a href=/t>t</a>`, "", nil},
		{"unterminated comment", `<p>a</p><!-- never ends <a href=/no>`, "a", nil},
		{"unterminated script", `<p>a</p><script>var x = "<a href=/no>`, "a", nil},
		{"nul bytes", "<p>a\x00b</p><a href=\"/n\x00\">n</a>", "ab n", []string{"/n\uFFFD"}},
		{"binary junk", "\x00\x01\x02<\xff\xfe>\x80", "\x01\x02<\uFFFD\uFFFD>\uFFFD", nil},
		{"deep nesting", strings.Repeat("<div>", 2000) + `<a href=/deep>deep</a>` + strings.Repeat("</div>", 2000), "deep", []string{"/deep"}},
		{"deep unclosed inline", "<title>T</title>" + strings.Repeat("<font><span>", 600) + "x<a href=/d>d</a>", "xd", []string{"/d"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := mustParse(t, tt.src)
			if d.Text != tt.text {
				t.Errorf("Text = %q, want %q", d.Text, tt.text)
			}
			var hrefs []string
			for _, r := range d.Refs {
				hrefs = append(hrefs, r.Href)
			}
			if !reflect.DeepEqual(hrefs, tt.hrefs) {
				t.Errorf("hrefs = %q, want %q", hrefs, tt.hrefs)
			}
		})
	}
}
