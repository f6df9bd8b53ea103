package parse

// This is the tree-builder implementation that the streaming parser
// replaced, kept for tests only: differential_test.go checks that both
// produce the same Document. It builds x/net/html's tree, reads the head
// with goquery and walks the tree; identifiers carry a "tree" prefix.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/PuerkitoBio/goquery"
	"github.com/andybalholm/cascadia"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// treeHTML is HTML as it was before the streaming parser. It fails only on
// input the HTML tree builder and the tokenizer fallback both reject, which
// in practice does not happen.
func treeHTML(body []byte) (*Document, error) {
	w := newTreeWalker(len(body))
	root, err := html.ParseWithOptions(bytes.NewReader(body), html.ParseOptionEnableScripting(false))
	if err != nil {
		w = newTreeWalker(len(body))
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
func (w *treeWalker) head(d *goquery.Document) {
	w.headRead = true
	title := d.FindMatcher(treeTitleSel).FilterFunction(func(_ int, s *goquery.Selection) bool {
		return s.Nodes[0].Namespace == ""
	}).First()
	if title.Length() > 0 {
		w.titleSet = true
		w.doc.Title = NormalizeText(title.Text())
	}
	if href, ok := d.FindMatcher(treeBaseSel).First().Attr("href"); ok {
		w.baseSet = true
		w.doc.Base = trim(href)
	}
	d.FindMatcher(treeMetaSel).Each(func(_ int, s *goquery.Selection) { w.meta(s.Nodes[0].Attr) })
}

// The head's selectors, compiled once rather than on every page.
var (
	treeTitleSel = cascadia.MustCompile("title")
	treeBaseSel  = cascadia.MustCompile("base[href]")
	treeMetaSel  = cascadia.MustCompile("meta")
)

// treeWalker collects a Document during one walk over the tree.
type treeWalker struct {
	doc      *Document
	body     textBuf
	inBody   int // open <body> elements
	noText   int // open elements whose text is not page text (<noscript>)
	anchors  []treeAnchor
	titleSet bool
	baseSet  bool
	headRead bool // title, <base> and <meta> came from head, so the walk skips them
}

// newTreeWalker sizes the body text for a page of n bytes: text is seldom more
// than a quarter of the markup, so it rarely has to grow.
func newTreeWalker(n int) *treeWalker {
	w := &treeWalker{doc: &Document{}}
	w.body.b = make([]byte, 0, n/4)
	return w
}

// anchor is an open <a> element whose text is still being collected.
type treeAnchor struct {
	ref    int // index in doc.Refs, or -1 for an <a> without href
	text   textBuf
	alt    string // alt text of the first image inside it
	noText int    // treeWalker.noText when it opened: its text is read at that level
}

// walk visits the tree in document order without recursion, calling enter
// on the way down and leave on the way back up.
func (w *treeWalker) walk(root *html.Node) {
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
func (w *treeWalker) enter(n *html.Node) bool {
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
			w.doc.Title = NormalizeText(treeChildText(n))
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
func (w *treeWalker) leave(n *html.Node) {
	if n.Type == html.ElementNode && n.Namespace == "" && n.DataAtom != atom.Title {
		w.end(n.DataAtom)
	}
}

// treeChildText concatenates the text children of n (as of <title>).
func treeChildText(n *html.Node) string {
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
func (w *treeWalker) text(s string) {
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
func (w *treeWalker) sep() {
	w.body.sep()
	for i := range w.anchors {
		w.anchors[i].text.sep()
	}
}

// pushAnchor opens an anchor, reusing a buffer left by an earlier one.
func (w *treeWalker) pushAnchor(ref int) {
	if len(w.anchors) < cap(w.anchors) {
		w.anchors = w.anchors[:len(w.anchors)+1]
	} else {
		w.anchors = append(w.anchors, treeAnchor{text: textBuf{limit: MaxRefText + 4}})
	}
	a := &w.anchors[len(w.anchors)-1]
	a.ref, a.alt, a.noText = ref, "", w.noText
	a.text.reset()
}

// popAnchor closes the innermost anchor and settles its reference's text.
func (w *treeWalker) popAnchor() {
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

// tokens reads the page as a flat stream of tokens, for the rare page the
// tree builder rejects (nested deeper than it allows). Without a tree the
// structure is inferred from the tags: body text starts at <body> or at the
// first tag or text that cannot be in <head>, an <a> ends at </a> or at the
// next <a>, and <template> content is skipped. The tokenizer reads the
// content of <noscript> as text, so links inside it are not seen here.
func (w *treeWalker) tokens(body []byte) error {
	z := html.NewTokenizer(bytes.NewReader(body))
	var raw atom.Atom // element whose raw-text content is the next token
	template := 0     // open <template> elements
	head := false     // inside <head>
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			if err := z.Err(); err != io.EOF {
				return fmt.Errorf("tokenize html: %w", err)
			}
			for len(w.anchors) > 0 {
				w.popAnchor()
			}
			return nil
		}
		tok := z.Token()
		r := raw
		raw = 0
		if template > 0 {
			switch {
			case tok.DataAtom != atom.Template:
			case tt == html.StartTagToken:
				template++
			case tt == html.EndTagToken:
				template--
			}
			continue
		}
		switch tt {
		case html.TextToken:
			head = w.tokenText(tok.Data, r, head)
		case html.StartTagToken, html.SelfClosingTagToken:
			raw, head = w.tokenStart(tok, head)
			if tok.DataAtom == atom.Template && tt == html.StartTagToken {
				template++
			}
		case html.EndTagToken:
			switch tok.DataAtom {
			case atom.Head:
				head = false
			case atom.Body, atom.Html, atom.Title, atom.Template:
			default:
				w.end(tok.DataAtom)
			}
		}
	}
}

// tokenText handles a text token; r is the raw-text element it belongs to,
// if any. It returns whether the stream is still inside <head>.
func (w *treeWalker) tokenText(s string, r atom.Atom, head bool) bool {
	switch r {
	case atom.Title:
		if !w.titleSet {
			w.titleSet = true
			w.doc.Title = NormalizeText(s)
		}
		return head
	case atom.Script, atom.Style, atom.Iframe, atom.Noembed, atom.Noframes:
		return head
	}
	if !head && w.inBody == 0 && strings.TrimSpace(s) != "" {
		w.inBody = 1
	}
	w.text(s)
	return head
}

// tokenStart handles a start tag. It returns the element whose raw text
// comes next, if any, and whether the stream is still inside <head>.
func (w *treeWalker) tokenStart(tok html.Token, head bool) (atom.Atom, bool) {
	tag := tok.DataAtom
	switch tag {
	case atom.Head:
		return 0, true
	case atom.Html, atom.Meta, atom.Link, atom.Base, atom.Script, atom.Style,
		atom.Noscript, atom.Template, atom.Title:
	default:
		head = false
		w.inBody = max(w.inBody, 1)
	}
	switch tag {
	case atom.Title:
		return atom.Title, head
	case atom.Template:
		return 0, head
	case atom.A:
		for len(w.anchors) > 0 {
			w.popAnchor()
		}
	}
	w.start(tag, tok.Attr)
	if tag == atom.Body {
		w.inBody = 1
	}
	return tag, head
}

// treeRefText normalizes an attribute value used as reference text and
// caps it.
func treeRefText(s string) string {
	s = NormalizeText(s)
	if len(s) <= MaxRefText {
		return s
	}
	return string(truncate([]byte(s), MaxRefText))
}

// capped returns the buffer as a string of at most MaxRefText bytes.
func (t *textBuf) capped() string { return string(truncate(t.b, MaxRefText)) }
