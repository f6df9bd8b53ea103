package parse

import (
	"bytes"

	"golang.org/x/net/html/atom"
)

// bodyEndTag handles an end tag in body rules.
func (b *builder) bodyEndTag() bool {
	switch a := b.tok.atom; a {
	case atom.Body:
		if b.inScope(defaultScope, atom.Body) {
			b.im = afterBodyIM
		}
	case atom.Html:
		if b.inScope(defaultScope, atom.Body) {
			b.parseImpliedToken(endTagToken, atom.Body)
			return false
		}
	case atom.Address, atom.Article, atom.Aside, atom.Blockquote, atom.Button, atom.Center, atom.Details,
		atom.Dialog, atom.Dir, atom.Div, atom.Dl, atom.Fieldset, atom.Figcaption, atom.Figure, atom.Footer,
		atom.Header, atom.Hgroup, atom.Listing, atom.Main, atom.Menu, atom.Nav, atom.Ol, atom.Pre,
		atom.Search, atom.Section, atom.Select, atom.Summary, atom.Ul:
		if !b.inScope(defaultScope, a) {
			return true
		}
		b.generateImpliedEndTags(0)
		b.popUntil(defaultScope, a)
	case atom.Form:
		b.endForm()
	case atom.P:
		if !b.inScope(buttonScope, atom.P) {
			b.parseImpliedToken(startTagToken, atom.P)
		}
		b.popUntil(buttonScope, atom.P)
	case atom.Li:
		b.popUntil(listItemScope, atom.Li)
	case atom.Dd, atom.Dt:
		b.popUntil(defaultScope, a)
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		b.popUntil(defaultScope, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6)
	case atom.A, atom.B, atom.Big, atom.Code, atom.Em, atom.Font, atom.I, atom.Nobr, atom.S, atom.Small, atom.Strike, atom.Strong, atom.Tt, atom.U:
		b.adoptionAgency(a)
	case atom.Applet, atom.Marquee, atom.Object:
		if b.popUntil(defaultScope, a) {
			b.clearActiveFormattingElements()
		}
	case atom.Br:
		b.tok.typ = startTagToken
		return false
	case atom.Template:
		return b.inHead()
	default:
		b.endTagOther(a, b.tok.name)
	}
	return true
}

// endForm handles </form>.
func (b *builder) endForm() {
	if b.contains(atom.Template) {
		i := b.indexInScope(defaultScope, atom.Form)
		if i == -1 {
			return
		}
		b.generateImpliedEndTags(0)
		if b.oe[i].atom != atom.Form {
			return
		}
		b.popUntil(defaultScope, atom.Form)
		return
	}
	id := b.form
	b.form = 0
	i := b.indexInScope(defaultScope, atom.Form)
	if id == 0 || i == -1 || b.oe[i].id != id {
		return
	}
	b.generateImpliedEndTags(0)
	b.removeID(id) // the form may still hold open elements
}

// endTagOther is "any other end tag": pop to the element of that name
// unless a special element comes first.
func (b *builder) endTagOther(a atom.Atom, name []byte) {
	for i := len(b.oe) - 1; i >= 0; i-- {
		e := &b.oe[i]
		if e.ns == nsHTML && e.atom == a && (a != 0 || bytes.Equal(b.elemName(e), name)) {
			b.popTo(i)
			return
		}
		if e.is(fSpecial) {
			return
		}
	}
}

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
		b.generateImpliedEndTags(0)
		for i := len(b.oe) - 1; i >= 0; i-- {
			if e := &b.oe[i]; e.ns == nsHTML && e.atom == atom.Template {
				b.popTo(i)
				break
			}
		}
		b.clearActiveFormattingElements()
		b.templateIMs = b.templateIMs[:len(b.templateIMs)-1]
		b.resetInsertionMode()
		return false
	}
	return false
}

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
