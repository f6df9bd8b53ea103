package parse

import (
	"golang.org/x/net/html/atom"
)

// tokens reads the page as a flat stream of tokens, for the rare page the
// tree builder rejects (nested deeper than it allows). Without a tree the
// structure is inferred from the tags: body text starts at <body> or at the
// first tag or text that cannot be in <head>, an <a> ends at </a> or at the
// next <a>, and <template> content is skipped. The tokenizer reads the
// content of <noscript> as text, so links inside it are not seen here.
func (w *walker) tokens(z *tokenizer) {
	var raw atom.Atom // element whose raw-text content is the next token
	template := 0     // open <template> elements
	head := false     // inside <head>
	var text, name []byte
	for {
		tt := z.next()
		if tt == errorToken {
			for len(w.anchors) > 0 {
				w.popAnchor()
			}
			return
		}
		r := raw
		raw = 0
		var tag atom.Atom
		if tt == startTagToken || tt == selfClosingTagToken || tt == endTagToken {
			_, tag = z.tagName(&name)
		}
		if template > 0 {
			switch {
			case tag != atom.Template:
			case tt == startTagToken:
				template++
			case tt == endTagToken:
				template--
			}
			continue
		}
		switch tt {
		case textToken:
			head = w.tokenText(z.text(&text), r, head)
		case startTagToken, selfClosingTagToken:
			raw, head = w.tokenStart(z, tag, head)
			if tag == atom.Template && tt == startTagToken {
				template++
			}
		case endTagToken:
			switch tag {
			case atom.Head:
				head = false
			case atom.Body, atom.Html, atom.Title, atom.Template:
			default:
				w.end(tag)
			}
		}
	}
}

// tokenText handles a text token; r is the raw-text element it belongs to,
// if any. It returns whether the stream is still inside <head>.
func (w *walker) tokenText(s []byte, r atom.Atom, head bool) bool {
	switch r {
	case atom.Title:
		if !w.head.titleSet {
			w.head.titleSet = true
			w.head.title = w.normalized(s)
		}
		return head
	case atom.Script, atom.Style, atom.Iframe, atom.Noembed, atom.Noframes:
		return head
	}
	if !head && w.inBody == 0 && !isSpaceText(s) {
		w.inBody = 1
	}
	w.text(s)
	return head
}

// tokenStart handles a start tag. It returns the element whose raw text
// comes next, if any, and whether the stream is still inside <head>.
func (w *walker) tokenStart(z *tokenizer, tag atom.Atom, head bool) (atom.Atom, bool) {
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
	var p *prep
	if len(z.attrs) > 0 {
		if i := w.prepare(z, tag, nsHTML); i >= 0 {
			p = &w.preps[i]
			w.applyHead(p)
		}
	}
	w.start(tag, p)
	if tag == atom.Body {
		w.inBody = 1
	}
	return tag, head
}
