package parse

import "golang.org/x/net/html/atom"

// The text, template, after-body and frameset insertion modes.

// text is the "text" insertion mode: the content of script, style,
// title, textarea and the like.
func (b *builder) text() bool {
	switch b.tok.typ {
	case errorToken:
		b.pop()
	case textToken:
		d := b.tok.text
		if top := b.top(); top.atom == atom.Textarea && !top.is(fHasChild) {
			if len(d) > 0 && d[0] == '\r' {
				d = d[1:]
			}
			if len(d) > 0 && d[0] == '\n' {
				d = d[1:]
			}
		}
		b.addText(d)
		return true
	case endTagToken:
		b.pop()
	}
	b.im, b.originalIM = b.originalIM, noMode
	return b.tok.typ == endTagToken
}

// inTemplate is the "in template" insertion mode.
func (b *builder) inTemplate() bool {
	switch b.tok.typ {
	case textToken, commentToken, doctypeToken:
		return b.inBody()
	case startTagToken:
		next := inBodyIM
		switch b.tok.atom {
		case atom.Base, atom.Basefont, atom.Bgsound, atom.Link, atom.Meta, atom.Noframes, atom.Script, atom.Style, atom.Template, atom.Title:
			return b.inHead()
		case atom.Caption, atom.Colgroup, atom.Tbody, atom.Tfoot, atom.Thead:
			next = inTableIM
		case atom.Col:
			next = inColumnGroupIM
		case atom.Tr:
			next = inTableBodyIM
		case atom.Td, atom.Th:
			next = inRowIM
		}
		b.templateIMs[len(b.templateIMs)-1] = next
		b.im = next
		return false
	case endTagToken:
		if b.tok.atom == atom.Template {
			return b.inHead()
		}
		return true
	case errorToken:
		if !b.contains(atom.Template) {
			return true
		}
		b.endTemplate() // the end of the page closes it, and is read again
		return false
	}
	return false
}

// afterBody is the "after body" insertion mode: content after </body>
// goes back into the body.
func (b *builder) afterBody() bool {
	switch b.tok.typ {
	case errorToken:
		return true
	case textToken:
		if allWS(b.tok.text) {
			return b.inBody()
		}
	case startTagToken:
		if b.tok.atom == atom.Html {
			return b.inBody()
		}
	case endTagToken:
		if b.tok.atom == atom.Html {
			b.im = afterAfterBodyIM
			return true
		}
	case commentToken:
		if len(b.oe) < 1 || b.oe[0].atom != atom.Html {
			panic(xnetCheck("no html element after body"))
		}
		b.oe[0].flags = b.oe[0].flags&^fLastText | fHasChild // appended to <html>
		return true
	}
	b.im = inBodyIM
	return false
}

// wsOnly returns the HTML white space bytes of s (frameset modes keep
// only those).
func (b *builder) wsOnly(s []byte) []byte {
	out := b.nulBuf[:0]
	for _, c := range s {
		if isWhitespace(c) {
			out = append(out, c)
		}
	}
	b.nulBuf = out
	return out
}

// inFrameset is the "in frameset" insertion mode.
func (b *builder) inFrameset() bool {
	switch b.tok.typ {
	case commentToken:
		b.addComment()
	case textToken:
		b.addText(b.wsOnly(b.tok.text))
	case startTagToken:
		switch b.tok.atom {
		case atom.Html:
			return b.inBody()
		case atom.Frameset:
			b.addElement()
		case atom.Frame:
			b.addVoid()
		case atom.Noframes:
			return b.inHead()
		}
	case endTagToken:
		if b.tok.atom == atom.Frameset && b.top().atom != atom.Html {
			b.pop()
			if b.top().atom != atom.Frameset {
				b.im = afterFramesetIM
			}
		}
	}
	return true
}

// afterFrameset is the "after frameset" insertion mode.
func (b *builder) afterFrameset() bool {
	switch b.tok.typ {
	case commentToken:
		b.addComment()
	case textToken:
		b.addText(b.wsOnly(b.tok.text))
	case startTagToken:
		switch b.tok.atom {
		case atom.Html:
			return b.inBody()
		case atom.Noframes:
			return b.inHead()
		}
	case endTagToken:
		if b.tok.atom == atom.Html {
			b.im = afterAfterFramesetIM
		}
	}
	return true
}

// afterAfterBody is the "after after body" insertion mode: after </html>.
func (b *builder) afterAfterBody() bool {
	switch b.tok.typ {
	case errorToken:
		return true
	case textToken:
		if allWS(b.tok.text) {
			return b.inBody()
		}
	case startTagToken:
		if b.tok.atom == atom.Html {
			return b.inBody()
		}
	case commentToken:
		return true // appended to the document
	case doctypeToken:
		return b.inBody()
	}
	b.im = inBodyIM
	return false
}

// afterAfterFrameset is the "after after frameset" insertion mode.
func (b *builder) afterAfterFrameset() bool {
	switch b.tok.typ {
	case textToken:
		if s := b.wsOnly(b.tok.text); len(s) > 0 {
			b.tok.text = s
			return b.inBody()
		}
	case startTagToken:
		switch b.tok.atom {
		case atom.Html:
			return b.inBody()
		case atom.Noframes:
			return b.inHead()
		}
	case doctypeToken:
		return b.inBody()
	}
	return true
}
