package parse

import (
	"bytes"

	"golang.org/x/net/html/atom"
)

// inBody is the "in body" insertion mode.
func (b *builder) inBody() bool {
	switch b.tok.typ {
	case textToken:
		b.bodyText()
	case startTagToken:
		return b.bodyStartTag()
	case endTagToken:
		return b.bodyEndTag()
	case commentToken:
		b.addComment()
	case errorToken:
		if len(b.templateIMs) > 0 {
			b.im = inTemplateIM
			return false
		}
	}
	return true
}

// bodyText adds text in body rules.
func (b *builder) bodyText() {
	d := b.tok.text
	if top := b.top(); (top.atom == atom.Pre || top.atom == atom.Listing) && !top.is(fHasChild) {
		// A newline right after <pre> is not content.
		if len(d) > 0 && d[0] == '\r' {
			d = d[1:]
		}
		if len(d) > 0 && d[0] == '\n' {
			d = d[1:]
		}
	}
	d = b.dropNUL(d)
	if len(d) == 0 {
		return
	}
	b.reconstructActiveFormattingElements()
	b.addText(d)
	if b.framesetOK && !allWS(d) {
		b.framesetOK = false
	}
}

// dropNUL returns s without NUL bytes.
func (b *builder) dropNUL(s []byte) []byte {
	if bytes.IndexByte(s, 0) < 0 {
		return s
	}
	out := b.nulBuf[:0]
	for _, c := range s {
		if c != 0 {
			out = append(out, c)
		}
	}
	b.nulBuf = out
	return out
}

// bodyStartTag handles a start tag in body rules.
func (b *builder) bodyStartTag() bool {
	switch a := b.tok.atom; a {
	case atom.Html:
		return true // its attributes would go to <html>, which says nothing
	case atom.Base, atom.Basefont, atom.Bgsound, atom.Link, atom.Meta, atom.Noframes, atom.Script, atom.Style, atom.Template, atom.Title:
		return b.inHead()
	case atom.Body:
		if b.contains(atom.Template) {
			return true
		}
		if len(b.oe) >= 2 && b.oe[1].atom == atom.Body {
			b.framesetOK = false
			if b.tok.attrs {
				b.w.mergeBody(b.z)
			}
		}
	case atom.Frameset:
		if !b.framesetOK || len(b.oe) < 2 || b.oe[1].atom != atom.Body {
			return true
		}
		// The body goes, with all it holds.
		b.oe = b.oe[:1]
		b.w.restore()
		b.addElement()
		b.im = inFramesetIM
	case atom.Address, atom.Article, atom.Aside, atom.Blockquote, atom.Center, atom.Details, atom.Dialog, atom.Dir,
		atom.Div, atom.Dl, atom.Fieldset, atom.Figcaption, atom.Figure, atom.Footer, atom.Header, atom.Hgroup,
		atom.Main, atom.Menu, atom.Nav, atom.Ol, atom.P, atom.Search, atom.Section, atom.Summary, atom.Ul:
		b.popUntil(buttonScope, atom.P)
		b.addElement()
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		b.popUntil(buttonScope, atom.P)
		if isHeading(b.top().atom) {
			b.pop()
		}
		b.addElement()
	case atom.Pre, atom.Listing:
		b.popUntil(buttonScope, atom.P)
		b.addElement()
		b.framesetOK = false
	case atom.Form:
		if b.form != 0 && !b.contains(atom.Template) {
			return true
		}
		b.popUntil(buttonScope, atom.P)
		e := b.addElement()
		if !b.contains(atom.Template) {
			b.form = e.id
		}
	case atom.Li, atom.Dd, atom.Dt:
		b.listItem(a)
	case atom.Plaintext:
		b.popUntil(buttonScope, atom.P)
		b.addElement()
	case atom.Button:
		if b.inScope(defaultScope, atom.Button) {
			b.generateImpliedEndTags(0)
			b.popUntil(defaultScope, atom.Button)
		}
		b.reconstructActiveFormattingElements()
		b.addElement()
		b.framesetOK = false
	case atom.A:
		for i := len(b.afe) - 1; i >= 0 && b.afe[i].id != 0; i-- {
			if f := b.afe[i]; f.atom == atom.A {
				b.adoptionAgency(atom.A)
				b.removeID(f.id)
				b.afeRemove(f.id)
				break
			}
		}
		b.reconstructActiveFormattingElements()
		b.addFormattingElement()
	case atom.B, atom.Big, atom.Code, atom.Em, atom.Font, atom.I, atom.S, atom.Small, atom.Strike, atom.Strong, atom.Tt, atom.U:
		b.reconstructActiveFormattingElements()
		b.addFormattingElement()
	case atom.Nobr:
		b.reconstructActiveFormattingElements()
		if b.inScope(defaultScope, atom.Nobr) {
			b.adoptionAgency(atom.Nobr)
			b.reconstructActiveFormattingElements()
		}
		b.addFormattingElement()
	case atom.Applet, atom.Marquee, atom.Object:
		b.reconstructActiveFormattingElements()
		b.addElement()
		b.pushMarker()
		b.framesetOK = false
	case atom.Table:
		if !b.quirks {
			b.popUntil(buttonScope, atom.P)
		}
		b.addElement()
		b.framesetOK = false
		b.im = inTableIM
	default:
		return b.bodyStartTag2(a)
	}
	return true
}

// bodyStartTag2 is the rest of bodyStartTag.
func (b *builder) bodyStartTag2(a atom.Atom) bool {
	switch a {
	case atom.Area, atom.Br, atom.Embed, atom.Img, atom.Keygen, atom.Wbr:
		b.reconstructActiveFormattingElements()
		b.addVoid()
		b.framesetOK = false
	case atom.Input:
		b.popUntil(defaultScope, atom.Select)
		b.reconstructActiveFormattingElements()
		b.addVoid()
		if i := b.z.find("type"); b.tok.attrs && i >= 0 {
			var buf []byte
			if bytes.EqualFold(b.z.attrVal(i, &buf), []byte("hidden")) {
				return true
			}
		}
		b.framesetOK = false
	case atom.Param, atom.Source, atom.Track:
		b.addVoid()
	case atom.Hr:
		if b.inScope(buttonScope, atom.P) {
			b.generateImpliedEndTags(atom.P)
			b.popUntil(defaultScope, atom.P)
		}
		if b.inScope(defaultScope, atom.Select) {
			b.generateImpliedEndTags(0)
		}
		b.addVoid()
		b.framesetOK = false
	case atom.Image:
		b.tok.atom = atom.Img
		return false
	case atom.Textarea:
		b.addElement()
		b.setOriginalIM()
		b.framesetOK = false
		b.im = textIM
	case atom.Xmp:
		b.popUntil(buttonScope, atom.P)
		b.reconstructActiveFormattingElements()
		b.framesetOK = false
		b.rawTextElement()
	case atom.Iframe:
		b.framesetOK = false
		b.rawTextElement()
	case atom.Noembed:
		b.rawTextElement()
	case atom.Noscript:
		b.reconstructActiveFormattingElements()
		b.addElement()
		b.z.notRawText() // scripting is disabled: its content is markup
	case atom.Select:
		if b.popUntil(defaultScope, atom.Select) {
			return true
		}
		b.reconstructActiveFormattingElements()
		b.addElement()
		b.framesetOK = false
	case atom.Option, atom.Optgroup:
		if b.inScope(defaultScope, atom.Select) {
			except := atom.Atom(0)
			if a == atom.Option {
				except = atom.Optgroup
			}
			b.generateImpliedEndTags(except)
		} else if b.top().atom == atom.Option {
			b.pop()
		}
		b.reconstructActiveFormattingElements()
		b.addElement()
	case atom.Rb, atom.Rtc, atom.Rp, atom.Rt:
		if b.inScope(defaultScope, atom.Ruby) {
			except := atom.Atom(0)
			if a == atom.Rp || a == atom.Rt {
				except = atom.Rtc
			}
			b.generateImpliedEndTags(except)
		}
		b.addElement()
	case atom.Math, atom.Svg:
		b.reconstructActiveFormattingElements()
		n := nsSVG
		if a == atom.Math {
			n = nsMath
		}
		b.insert(a, n, nil, -2)
		if b.selfClosing {
			b.pop()
			b.selfClosing = false
		}
	case atom.Caption, atom.Col, atom.Colgroup, atom.Frame, atom.Head, atom.Tbody, atom.Td, atom.Tfoot, atom.Th, atom.Thead, atom.Tr:
		// Ignored outside tables and framesets.
	default:
		b.reconstructActiveFormattingElements()
		b.addElement()
	}
	return true
}

// listItem starts an li, dd or dt, closing an open one of its kind.
func (b *builder) listItem(a atom.Atom) {
	b.framesetOK = false
	for i := len(b.oe) - 1; i >= 0; i-- {
		e := &b.oe[i]
		same := e.atom == a || (a != atom.Li && (e.atom == atom.Dd || e.atom == atom.Dt))
		if same {
			b.popTo(i)
			break
		}
		if e.atom == atom.Address || e.atom == atom.Div || e.atom == atom.P || !e.is(fSpecial) {
			continue
		}
		break
	}
	b.popUntil(buttonScope, atom.P)
	b.addElement()
}

// addVoid inserts an element that closes at once (<img>, <br>).
func (b *builder) addVoid() {
	b.addElement()
	b.pop()
	b.selfClosing = false
}

// rawTextElement inserts an element whose content is text (<xmp>,
// <iframe>) and reads that text in text mode.
func (b *builder) rawTextElement() {
	b.addElement()
	b.originalIM = b.im
	b.im = textIM
}

func isHeading(a atom.Atom) bool {
	switch a {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		return true
	}
	return false
}
