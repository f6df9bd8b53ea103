// Package parse extracts what the crawler needs from an HTML page (paper 000
// §2): the title and meta data, the body text and every reference with its
// "extended metadata" (anchor, alt or title text).
//
// The page is parsed by golang.org/x/net/html (the HTML5 tree builder that
// goquery wraps) with scripting disabled, so the markup inside <noscript> is
// seen as elements, as a crawler that runs no scripts should see it. The
// head (title, <base>, <meta>) is read with goquery selections over that
// tree; references and body text come from one walk over it, which is much
// cheaper than a selection per element kind. A page nested deeper than the tree builder accepts
// (512 open elements) is read again token by token instead of being lost.
//
// References are returned as written (trimmed), in document order: the engine
// resolves them against the page URL and Document.Base and normalizes them,
// so javascript:, mailto: and fragment-only hrefs are kept here for it to
// reject. Empty ones are skipped.
package parse

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/PuerkitoBio/goquery"
	"github.com/andybalholm/cascadia"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Kind says which element a reference came from. The values are those of the
// engine's link kinds (crawl.LinkKind), so a Kind converts directly.
type Kind string

// Reference kinds. A, Area, Frame and IFrame lead to pages; the others are
// resources (images, scripts, style sheets, embedded objects).
const (
	A          Kind = "a"          // <a href>
	Area       Kind = "area"       // <area href> of an image map
	Frame      Kind = "frame"      // <frame src>
	IFrame     Kind = "iframe"     // <iframe src>
	Img        Kind = "img"        // <img src>, or the first srcset candidate
	Script     Kind = "script"     // <script src>
	Link       Kind = "link"       // <link href>: style sheets, icons, alternates
	Embed      Kind = "embed"      // <embed src>, <object data>, <audio|video|source src>
	Background Kind = "background" // <body background>
	Applet     Kind = "applet"     // <applet code>, joined to its codebase
)

// Ref is one reference found on a page.
type Ref struct {
	// Href is the attribute value as written, trimmed and not resolved. For
	// an applet with a codebase it is codebase + "/" + code (see Applet).
	Href string `json:"href"`
	Kind Kind   `json:"kind"`
	// Text describes the target: the anchor text of an <a> (or, when that is
	// empty, the alt text of an image inside it), the alt text of an area,
	// img or applet, and otherwise the element's title attribute. White
	// space is collapsed and it is cut to MaxRefText bytes.
	Text string `json:"text,omitempty"`
	// NoFollow is set when the element's rel attribute lists "nofollow".
	// The page-wide meta robots directive is Document.NoFollow.
	NoFollow bool `json:"nofollow,omitempty"`
}

// Document is what a page says about itself and where it points.
type Document struct {
	// Title is the text of the first <title>. Description, Keywords and
	// Author are the first non-empty <meta name=...> of that name (compared
	// case-insensitively); Robots joins the contents of every
	// <meta name=robots> with ", ". All have white space collapsed.
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Keywords    string `json:"keywords,omitempty"`
	Author      string `json:"author,omitempty"`
	Robots      string `json:"robots,omitempty"`
	// Base is the href of the first <base href>, as written; "" if none.
	Base string `json:"base,omitempty"`
	// Refresh is the URL of a <meta http-equiv=refresh> that names one, as
	// written; the engine may treat it like a redirect.
	Refresh string `json:"refresh,omitempty"`
	// Text is the body text (paper 000 §2.2): what lies inside <body> with
	// the tags removed, without the content of nav (menus), script, style, noscript,
	// template, iframe, noembed and noframes, with block elements and <br>
	// separated by a space, in the form NormalizeText returns.
	Text string `json:"text,omitempty"`
	// Refs holds every non-empty reference in document order.
	Refs []Ref `json:"refs,omitempty"`
	// NoFollow and NoIndex are the meta robots directives ("nofollow",
	// "noindex", or "none" for both) from <meta name=robots> or
	// <meta name=trawler>. The X-Robots-Tag header is the engine's concern.
	NoFollow bool `json:"nofollow,omitempty"`
	NoIndex  bool `json:"noindex,omitempty"`
}

// HTML parses a UTF-8 page. It fails only on input the HTML tree builder and
// the tokenizer fallback both reject, which in practice does not happen.
func HTML(body []byte) (*Document, error) {
	w := newWalker(len(body))
	root, err := html.ParseWithOptions(bytes.NewReader(body), html.ParseOptionEnableScripting(false))
	if err != nil {
		w = newWalker(len(body))
		if ferr := w.tokens(body); ferr != nil {
			return nil, fmt.Errorf("parse html: %w", errors.Join(err, ferr))
		}
	} else {
		w.head(goquery.NewDocumentFromNode(root))
		w.walk(root)
	}
	w.doc.Text = string(w.body.b)
	return w.doc, nil
}

// head reads the title, the first <base href> and the <meta> elements with
// goquery selections over the parsed tree. Foreign (SVG, MathML) titles are
// not the page's title.
func (w *walker) head(d *goquery.Document) {
	w.headRead = true
	title := d.FindMatcher(titleSel).FilterFunction(func(_ int, s *goquery.Selection) bool {
		return s.Nodes[0].Namespace == ""
	}).First()
	if title.Length() > 0 {
		w.titleSet = true
		w.doc.Title = NormalizeText(title.Text())
	}
	if href, ok := d.FindMatcher(baseSel).First().Attr("href"); ok {
		w.baseSet = true
		w.doc.Base = trim(href)
	}
	d.FindMatcher(metaSel).Each(func(_ int, s *goquery.Selection) { w.meta(s.Nodes[0].Attr) })
}

// The head's selectors, compiled once rather than on every page.
var (
	titleSel = cascadia.MustCompile("title")
	baseSel  = cascadia.MustCompile("base[href]")
	metaSel  = cascadia.MustCompile("meta")
)

// walker collects a Document during one walk over the tree.
type walker struct {
	doc      *Document
	body     textBuf
	inBody   int // open <body> elements
	noText   int // open elements whose text is not page text (<noscript>)
	anchors  []anchor
	titleSet bool
	baseSet  bool
	headRead bool // title, <base> and <meta> came from head, so the walk skips them
}

// newWalker sizes the body text for a page of n bytes: text is seldom more
// than a quarter of the markup, so it rarely has to grow.
func newWalker(n int) *walker {
	w := &walker{doc: &Document{}}
	w.body.b = make([]byte, 0, n/4)
	return w
}

// anchor is an open <a> element whose text is still being collected.
type anchor struct {
	ref    int // index in doc.Refs, or -1 for an <a> without href
	text   textBuf
	alt    string // alt text of the first image inside it
	noText int    // walker.noText when it opened: its text is read at that level
}

// walk visits the tree in document order without recursion, calling enter
// on the way down and leave on the way back up.
func (w *walker) walk(root *html.Node) {
	for n := root; n != nil; {
		if w.enter(n) && n.FirstChild != nil {
			n = n.FirstChild
			continue
		}
		for {
			w.leave(n)
			if n == root {
				return
			}
			if n.NextSibling != nil {
				n = n.NextSibling
				break
			}
			n = n.Parent
		}
	}
}

// enter handles a node on the way down and reports whether to visit its
// children.
func (w *walker) enter(n *html.Node) bool {
	switch n.Type {
	case html.TextNode:
		w.text(n.Data)
		return false
	case html.ElementNode:
	case html.DocumentNode:
		return true
	default:
		return false
	}
	if n.Namespace != "" { // SVG or MathML: keep the text, skip their scripts
		return n.DataAtom != atom.Script && n.DataAtom != atom.Style
	}
	if n.DataAtom == atom.Title {
		if !w.titleSet && !w.headRead {
			w.titleSet = true
			w.doc.Title = NormalizeText(childText(n))
		}
		return false
	}
	w.start(n.DataAtom, n.Attr)
	switch n.DataAtom {
	case atom.Script, atom.Style, atom.Template, atom.Iframe, atom.Noembed, atom.Noframes:
		return false
	}
	return true
}

// leave handles the end of an element whose start enter has seen.
func (w *walker) leave(n *html.Node) {
	if n.Type == html.ElementNode && n.Namespace == "" && n.DataAtom != atom.Title {
		w.end(n.DataAtom)
	}
}

// childText concatenates the text children of n (as of <title>).
func childText(n *html.Node) string {
	if c := n.FirstChild; c != nil && c.NextSibling == nil && c.Type == html.TextNode {
		return c.Data
	}
	var b bytes.Buffer
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	}
	return b.String()
}

// text adds a run of character data to the body text and open anchors. An
// anchor inside <noscript> still gets its text; one around it does not.
func (w *walker) text(s string) {
	if w.inBody > 0 && w.noText == 0 {
		w.body.add(s)
	}
	for i := range w.anchors {
		if a := &w.anchors[i]; a.noText == w.noText {
			a.text.add(s)
		}
	}
}

// sep marks a block boundary in the body text and open anchors.
func (w *walker) sep() {
	w.body.sep()
	for i := range w.anchors {
		w.anchors[i].text.sep()
	}
}

// pushAnchor opens an anchor, reusing a buffer left by an earlier one.
func (w *walker) pushAnchor(ref int) {
	if len(w.anchors) < cap(w.anchors) {
		w.anchors = w.anchors[:len(w.anchors)+1]
	} else {
		w.anchors = append(w.anchors, anchor{text: textBuf{limit: MaxRefText + 4}})
	}
	a := &w.anchors[len(w.anchors)-1]
	a.ref, a.alt, a.noText = ref, "", w.noText
	a.text.reset()
}

// popAnchor closes the innermost anchor and settles its reference's text.
func (w *walker) popAnchor() {
	if len(w.anchors) == 0 {
		return
	}
	a := &w.anchors[len(w.anchors)-1]
	w.anchors = w.anchors[:len(w.anchors)-1]
	if a.ref < 0 {
		return
	}
	r := &w.doc.Refs[a.ref]
	if t := a.text.capped(); t != "" {
		r.Text = t
	} else if a.alt != "" {
		r.Text = a.alt
	} // else keep the title set when the anchor opened
}
