package parse

import (
	"bytes"
	"strings"

	"golang.org/x/net/html/atom"
)

// Foreign content: SVG and MathML inside HTML.

// inForeignContent reports whether the token is processed by the rules
// for foreign content rather than the insertion mode.
func (b *builder) inForeignContent() bool {
	n := b.top()
	if n == nil || n.ns == nsHTML {
		return false
	}
	typ, a := b.tok.typ, b.tok.atom
	if n.is(fMathText) {
		if typ == startTagToken && a != atom.Mglyph && a != atom.Malignmark {
			return false
		}
		if typ == textToken {
			return false
		}
	}
	if n.ns == nsMath && n.atom == atom.AnnotationXml && typ == startTagToken && a == atom.Svg {
		return false
	}
	if n.is(fHTMLPoint) && (typ == startTagToken || typ == textToken) {
		return false
	}
	return typ != errorToken
}

// foreignContent processes a token by the rules for foreign content.
func (b *builder) foreignContent() bool {
	switch b.tok.typ {
	case textToken:
		d := b.tok.text
		if b.framesetOK {
			b.framesetOK = len(bytes.TrimLeft(d, " \t\r\n\f\x00")) == 0
		}
		if bytes.IndexByte(d, 0) >= 0 {
			out := b.nulBuf[:0]
			for _, c := range d {
				if c == 0 {
					out = append(out, "\ufffd"...)
				} else {
					out = append(out, c)
				}
			}
			b.nulBuf, d = out, out
		}
		b.addText(d)
	case commentToken:
		b.addComment()
	case startTagToken:
		return b.foreignStartTag()
	case endTagToken:
		return b.foreignEndTag()
	}
	return true
}

// foreignStartTag handles a start tag in SVG or MathML: an HTML element
// ends the foreign content, anything else is an element of its namespace.
func (b *builder) foreignStartTag() bool {
	if b.breaksOut() {
		for i := len(b.oe) - 1; i >= 0; i-- {
			if e := &b.oe[i]; e.ns == nsHTML || e.is(fHTMLPoint) || e.is(fMathText) {
				b.popTo(i + 1)
				break
			}
		}
		return b.step(b.im)
	}
	n := b.top().ns
	a := b.tok.atom
	if n == nsSVG && a == atom.Foreignobject {
		a = atom.ForeignObject // SVG's name is "foreignObject"
	}
	b.insert(a, n, b.tokName(), -2)
	b.z.notRawText() // an SVG <title> or <script> holds markup
	if b.selfClosing {
		b.pop()
		b.selfClosing = false
	}
	return true
}

// breaksOut reports whether the start tag leaves foreign content: an
// HTML element that cannot be in SVG or MathML.
func (b *builder) breaksOut() bool {
	switch b.tok.atom {
	case atom.B, atom.Big, atom.Blockquote, atom.Body, atom.Br, atom.Center, atom.Code, atom.Dd,
		atom.Div, atom.Dl, atom.Dt, atom.Em, atom.Embed, atom.H1, atom.H2, atom.H3, atom.H4,
		atom.H5, atom.H6, atom.Head, atom.Hr, atom.I, atom.Img, atom.Li, atom.Listing, atom.Menu,
		atom.Meta, atom.Nobr, atom.Ol, atom.P, atom.Pre, atom.Ruby, atom.S, atom.Small, atom.Span,
		atom.Strong, atom.Strike, atom.Sub, atom.Sup, atom.Table, atom.Tt, atom.U, atom.Ul, atom.Var:
		return true
	case atom.Font:
		if !b.tok.attrs {
			return false
		}
		for i := range b.z.attrs {
			if b.z.keyIs(i, "color") || b.z.keyIs(i, "face") || b.z.keyIs(i, "size") {
				return true
			}
		}
	}
	return false
}

// foreignEndTag closes the foreign element of the end tag's name, or
// hands the tag to the insertion mode.
func (b *builder) foreignEndTag() bool {
	name := b.tok.name
	if b.tok.atom != 0 {
		name = nil
	}
	for i := len(b.oe) - 1; i >= 0; i-- {
		if b.sameName(&b.oe[i], name) {
			b.popTo(i)
			return true
		}
		if i > 0 && b.oe[i-1].ns == nsHTML {
			break
		}
	}
	return b.step(b.im)
}

// sameName reports whether element e has the end tag's name, compared
// case-insensitively as x/net/html compares them (strings.EqualFold).
func (b *builder) sameName(e *elem, tokName []byte) bool {
	var s string
	if e.atom != 0 {
		s = e.atom.String()
	} else {
		s = string(b.elemName(e))
	}
	if tokName == nil {
		return strings.EqualFold(s, b.tok.atom.String())
	}
	return strings.EqualFold(s, string(tokName))
}
