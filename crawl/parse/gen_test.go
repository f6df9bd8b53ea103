package parse

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// pageGen writes pseudo-random pages that look like the web: a head with
// the usual elements, a body of nested blocks, lists, tables, forms,
// links, images, scripts, noscript, SVG, entities and comments. With
// sloppy set it also makes the mistakes real pages make: end tags left
// out (p, li, td, tr, option, a), no html/head/body tags, an unclosed <a>
// before the next, stray end tags, text after </html>, a second <body>,
// upper-case tags and unquoted or repeated attributes. With wild set it
// adds misnesting, foster-parented content and worse.
type pageGen struct {
	rng         *rand.Rand
	b           strings.Builder
	sloppy      bool
	wild        bool
	depth       int
	links, imgs int
}

func genPage(seed uint64, sloppy, wild bool) []byte {
	g := &pageGen{rng: rand.New(rand.NewPCG(seed, 99)), sloppy: sloppy, wild: wild}
	g.page()
	return []byte(g.b.String())
}

func (g *pageGen) p(n int) bool { return g.rng.IntN(100) < n }

func (g *pageGen) pick(s ...string) string { return s[g.rng.IntN(len(s))] }

func (g *pageGen) w(format string, args ...any) { fmt.Fprintf(&g.b, format, args...) }

// tag writes a tag name, sometimes in upper case on sloppy pages.
func (g *pageGen) tag(name string) string {
	if g.sloppy && g.p(5) {
		return strings.ToUpper(name)
	}
	return name
}

func (g *pageGen) page() {
	if !g.sloppy || g.p(70) {
		g.w("%s", g.pick("<!DOCTYPE html>\n", "<!doctype html>", "<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\" \"http://www.w3.org/TR/html4/loose.dtd\">\n", "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Strict//EN\" \"http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd\">"))
	}
	explicit := !g.sloppy || g.p(60)
	if explicit {
		g.w("<%s lang=en>\n<%s>", g.tag("html"), g.tag("head"))
	}
	g.head()
	if explicit {
		g.w("</head>\n")
	}
	if explicit || g.p(50) {
		g.w("<%s%s>", g.tag("body"), g.attrs("class", "background", "onload"))
	}
	for range 3 + g.rng.IntN(8) {
		g.block()
	}
	if g.sloppy && g.p(20) {
		g.w("<body class=late background=/bg2.png>")
	}
	if !g.sloppy || g.p(70) {
		g.w("</body>")
	}
	if g.sloppy && g.p(30) {
		g.w("\n<p>after the body %s", g.words(3))
	}
	if !g.sloppy || g.p(70) {
		g.w("</html>\n")
	}
	if g.sloppy && g.p(20) {
		g.w("after the end &amp; more <a href=/late>late</a>")
	}
}

func (g *pageGen) head() {
	g.w("<meta charset=utf-8>\n<title>%s</title>\n", g.text(4))
	for range g.rng.IntN(6) {
		switch g.rng.IntN(9) {
		case 0:
			g.w("<meta name=%s content=\"%s\">\n", g.pick("description", "Description", "keywords", "author", "robots", "ROBOTS", "googlebot", "trawler"), g.pick(g.text(5), "noindex, nofollow", "none", "index,follow", " NoFollow "))
		case 1:
			g.w("<link rel=%s href=\"%s\"%s>\n", g.pick("stylesheet", "icon", "\"alternate nofollow\"", "canonical"), g.url(), g.attrs("title", "type"))
		case 2:
			g.w("<script src=\"%s\"></script>\n", g.url())
		case 3:
			g.w("<script>var s = \"<p>not text</p>\"; if (a < b && c > d) { document.write('<a href=/js>x</a>') }</script>\n")
		case 4:
			g.w("<style>p { margin: 0 } a:hover > b { color: red }</style>\n")
		case 5:
			g.w("<base href=\"%s\"%s>", g.pick("/dir/", " ../up/ ", ""), g.attrs("target"))
		case 6:
			g.w("<noscript><link rel=stylesheet href=/nojs.css><meta name=robots content=noarchive></noscript>\n")
		case 7:
			g.w("<meta http-equiv=refresh content=\"%s\">", g.pick("5; url=/next", "0;URL='/moved?a=1'", "30"))
		case 8:
			g.w("<!-- %s -->\n", g.words(3))
		}
	}
}

func (g *pageGen) block() {
	if g.depth > 6 {
		g.inline()
		return
	}
	g.depth++
	defer func() { g.depth-- }()
	switch g.rng.IntN(14) {
	case 0, 1:
		g.para()
	case 2:
		g.list()
	case 3:
		g.table()
	case 4:
		g.container(g.pick("div", "section", "article", "header", "footer", "main", "aside", "blockquote", "figure", "details", "center"))
	case 5:
		g.w("<nav><ul>")
		for range 1 + g.rng.IntN(5) {
			g.w("<li><a href=\"%s\">%s</a>", g.url(), g.words(2))
			g.end("li")
		}
		g.w("</ul></nav>")
	case 6:
		g.w("<%s>%s</%s>", g.pick("h1", "h2", "h3", "h4"), g.text(4), g.pick("h1", "h2", "h3", "h4"))
	case 7:
		g.form()
	case 8:
		g.w("<pre>\n%s\n  %s</pre>", g.text(4), g.words(3))
	case 9:
		g.w("<noscript><p>Enable JavaScript. <a href=/nojs>Plain version</a><img src=/pixel.gif alt=\"\"></noscript>")
	case 10:
		g.w("<iframe src=\"%s\" title=\"%s\">fallback <a href=/no>no</a></iframe>", g.url(), g.words(2))
	case 11:
		g.svg()
	case 12:
		g.w("<dl><dt>%s<dd>%s", g.words(1), g.text(3))
		g.end("dd")
		g.w("</dl>")
	case 13:
		g.media()
	}
	g.w("\n")
}

// end writes an end tag, which a sloppy page sometimes leaves out.
func (g *pageGen) end(name string) {
	if g.sloppy && g.p(35) {
		return
	}
	g.w("</%s>", g.tag(name))
}

func (g *pageGen) para() {
	g.w("<%s%s>", g.tag("p"), g.attrs("class", "id"))
	for range 1 + g.rng.IntN(4) {
		g.inline()
	}
	g.end("p")
}

func (g *pageGen) container(name string) {
	g.w("<%s%s>", g.tag(name), g.attrs("class", "id", "title"))
	for range 1 + g.rng.IntN(4) {
		g.block()
	}
	if g.sloppy && g.p(10) {
		g.w("</%s>", g.pick("span", "div", "p", "table", "li"))
	}
	g.w("</%s>", g.tag(name))
}

func (g *pageGen) list() {
	l := g.pick("ul", "ol")
	g.w("<%s>", l)
	for range 1 + g.rng.IntN(5) {
		g.w("<li>")
		g.inline()
		if g.p(20) {
			g.block()
		}
		g.end("li")
	}
	g.w("</%s>", l)
}

func (g *pageGen) table() {
	g.w("<table%s>", g.attrs("class", "border", "background"))
	if g.p(20) {
		g.w("<caption>%s</caption>", g.words(2))
	}
	if g.p(20) {
		g.w("<colgroup><col><col span=2></colgroup>")
	}
	if g.p(50) {
		g.w("<%s>", g.pick("tbody", "thead"))
	}
	for range 1 + g.rng.IntN(4) {
		g.w("<tr>")
		for range 1 + g.rng.IntN(4) {
			g.w("<%s>", g.pick("td", "th"))
			if g.p(70) {
				g.inline()
			} else {
				g.block()
			}
			g.end("td")
		}
		if g.wild && g.p(30) {
			g.w("%s", g.pick("stray text", "<div>stray <a href=/f>block</a></div>", "<a href=/fost>fostered</a>", "&nbsp;", "<img src=/f.png alt=F>", "<b>bold", "<p>para", "<title>late</title>", "<meta name=description content=fostered>"))
		}
		g.end("tr")
	}
	g.w("</table>")
}

func (g *pageGen) form() {
	g.w("<form action=/search method=get>%s<input type=text name=q><input type=hidden name=h value=1>", g.words(1))
	g.w("<select name=s><option value=1>%s<option selected>%s</select>", g.words(1), g.words(1))
	if g.p(50) {
		g.w("<textarea name=t>\n%s</textarea>", g.text(2))
	}
	g.w("<button type=submit>Go</button>")
	if !(g.sloppy && g.p(30)) {
		g.w("</form>")
	}
}

func (g *pageGen) svg() {
	g.w("<svg viewBox=\"0 0 10 10\"><title>icon %s</title><a xlink:href=/svg-link><text>%s</text></a>", g.words(1), g.words(2))
	if g.p(30) {
		g.w("<foreignObject><p>html in svg <a href=/fo>fo</a></p></foreignObject>")
	}
	g.w("<script>var x = 1 < 2;</script><style>.a{}</style><path d=\"M0 0\"/></svg>")
	if g.p(20) {
		g.w("<math><mi>x</mi><mo>=</mo><mn>2</mn></math>")
	}
}

func (g *pageGen) media() {
	switch g.rng.IntN(5) {
	case 0:
		g.w("<video src=/v.mp4 title=Clip><source src=/v.webm type=video/webm>no video</video>")
	case 1:
		g.w("<object data=/doc.pdf title=Doc><embed src=/doc.swf></object>")
	case 2:
		g.w("<img src=/map.png usemap=#m><map name=m><area href=/r1 alt=\"Region one\" shape=rect><area href=/r2 title=Two></map>")
	case 3:
		g.w("<applet code=Clock.class codebase=/classes/ alt=\"A clock\"></applet>")
	case 4:
		g.w("<picture><source srcset=\"/a.webp 1x, /b.webp 2x\"><img srcset=\" /s1.png 1x, /s2.png 2x\" alt=pic></picture>")
	}
}

func (g *pageGen) inline() {
	switch g.rng.IntN(12) {
	case 0, 1, 2, 3:
		g.w("%s ", g.text(3+g.rng.IntN(10)))
	case 4, 5:
		g.link()
	case 6:
		f := g.pick("b", "i", "em", "strong", "span", "small", "code", "font")
		g.w("<%s>%s", g.tag(f), g.text(3))
		if g.wild && g.p(30) {
			g.w("<%s>%s</%s>", g.pick("div", "p"), g.text(2), f)
			return
		}
		g.end(f)
	case 7:
		g.w("<img src=\"%s\" alt=\"%s\"%s>", g.url(), g.pick("", "Photo", g.words(2)), g.attrs("width", "title", "loading"))
	case 8:
		g.w("<br>")
	case 9:
		g.w("<!-- %s -->", g.words(2))
	case 10:
		g.w("%s", g.pick("&amp;", "&nbsp;", "&mdash;", "&#8212;", "&copy 2024", "AT&T", "&lt;tag&gt;", "caf&eacute;", "&bogus;", "&hellip;", "\u00a0", "日本語", "Ünïcödé"))
	case 11:
		g.w("<label for=x>%s</label><abbr title=\"%s\">%s</abbr>", g.words(1), g.words(2), g.words(1))
	}
}

func (g *pageGen) link() {
	g.links++
	g.w("<a href=\"%s\"%s>", g.url(), g.attrs("title", "rel", "class", "target"))
	switch g.rng.IntN(4) {
	case 0:
		g.w("<img src=/i%d.png alt=\"%s\">", g.links, g.words(1))
	default:
		g.w("%s", g.text(1+g.rng.IntN(4)))
	}
	switch {
	case g.sloppy && g.p(15):
		// left open: the next <a> closes it, or a paragraph reopens it
	case g.wild && g.p(15):
		g.w("<div>%s</a></div>", g.words(2))
	default:
		g.w("</a>")
	}
	g.w(" ")
}

// attrs writes some of the named attributes, with values in the styles
// pages use.
func (g *pageGen) attrs(names ...string) string {
	var s strings.Builder
	for _, n := range names {
		if !g.p(30) {
			continue
		}
		v := g.pick(g.words(1), g.url(), "nofollow", "noopener nofollow", "_blank", "")
		switch {
		case g.sloppy && g.p(30) && v != "" && !strings.ContainsAny(v, " '\"<>="):
			fmt.Fprintf(&s, " %s=%s", n, v)
		case g.p(10):
			fmt.Fprintf(&s, " %s='%s'", n, v)
		default:
			fmt.Fprintf(&s, " %s=\"%s\"", n, v)
		}
		if g.sloppy && g.p(5) {
			fmt.Fprintf(&s, " %s=dup", strings.ToUpper(n))
		}
	}
	return s.String()
}

var genWords = strings.Fields(`harbour ship crew tide weather market council school road bridge
	river festival report museum library station garden storm ferry island lighthouse cargo port`)

func (g *pageGen) words(n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = genWords[g.rng.IntN(len(genWords))]
	}
	return strings.Join(w, " ")
}

func (g *pageGen) text(n int) string {
	s := g.words(n)
	if g.p(20) {
		s += g.pick(" &amp; co.", "&nbsp;", ".\n  ", " — ", ", ")
	}
	return s
}

func (g *pageGen) url() string {
	switch g.rng.IntN(8) {
	case 0:
		return fmt.Sprintf("http://example.test/p/%d?a=1&b=2", g.rng.IntN(1000))
	case 1:
		return fmt.Sprintf(" /path/%d.html ", g.rng.IntN(1000))
	case 2:
		return "#top"
	case 3:
		return "javascript:void(0)"
	case 4:
		return fmt.Sprintf("/search?q=%s&amp;page=%d", g.words(1), g.rng.IntN(9))
	}
	return fmt.Sprintf("/p/%d", g.rng.IntN(1000))
}
