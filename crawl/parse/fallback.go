package parse

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// tokens reads the page as a flat stream of tokens, for the rare page the
// tree builder rejects (nested deeper than it allows). Without a tree the
// structure is inferred from the tags: body text starts at <body> or at the
// first tag or text that cannot be in <head>, an <a> ends at </a> or at the
// next <a>, and <template> content is skipped. The tokenizer reads the
// content of <noscript> as text, so links inside it are not seen here.
func (w *walker) tokens(body []byte) error {
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
func (w *walker) tokenText(s string, r atom.Atom, head bool) bool {
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
func (w *walker) tokenStart(tok html.Token, head bool) (atom.Atom, bool) {
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
