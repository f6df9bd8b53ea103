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
