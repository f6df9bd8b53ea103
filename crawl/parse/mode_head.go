package parse

import (
	"golang.org/x/net/html/atom"
)

// mode is an insertion mode (HTML §13.2.4.1).
type mode uint8

const (
	noMode mode = iota
	initialIM
	beforeHTMLIM
	beforeHeadIM
	inHeadIM
	inHeadNoscriptIM
	afterHeadIM
	inBodyIM
	textIM
	inTableIM
	inCaptionIM
	inColumnGroupIM
	inTableBodyIM
	inRowIM
	inCellIM
	inTemplateIM
	afterBodyIM
	inFramesetIM
	afterFramesetIM
	afterAfterBodyIM
	afterAfterFramesetIM
	ignoreRestIM
)

// step processes the token in mode m and reports whether it was consumed.
func (b *builder) step(m mode) bool {
	switch m {
	case initialIM:
		return b.initial()
	case beforeHTMLIM:
		return b.beforeHTML()
	case beforeHeadIM:
		return b.beforeHead()
	case inHeadIM:
		return b.inHead()
	case inHeadNoscriptIM:
		return b.inHeadNoscript()
	case afterHeadIM:
		return b.afterHead()
	case inBodyIM:
		return b.inBody()
	case textIM:
		return b.text()
	case inTableIM:
		return b.inTable()
	case inCaptionIM:
		return b.inCaption()
	case inColumnGroupIM:
		return b.inColumnGroup()
	case inTableBodyIM:
		return b.inTableBody()
	case inRowIM:
		return b.inRow()
	case inCellIM:
		return b.inCell()
	case inTemplateIM:
		return b.inTemplate()
	case afterBodyIM:
		return b.afterBody()
	case inFramesetIM:
		return b.inFrameset()
	case afterFramesetIM:
		return b.afterFrameset()
	case afterAfterBodyIM:
		return b.afterAfterBody()
	case afterAfterFramesetIM:
		return b.afterAfterFrameset()
	}
	return true // ignoreRestIM
}

// isWhitespace reports whether c is HTML white space.
func isWhitespace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// trimLeftWS strips leading HTML white space.
func trimLeftWS(s []byte) []byte {
	for len(s) > 0 && isWhitespace(s[0]) {
		s = s[1:]
	}
	return s
}

// allWS reports whether s is only HTML white space.
func allWS(s []byte) bool { return len(trimLeftWS(s)) == 0 }

// initial is the "initial" insertion mode: before the doctype.
func (b *builder) initial() bool {
	switch b.tok.typ {
	case textToken:
		if b.tok.text = trimLeftWS(b.tok.text); len(b.tok.text) == 0 {
			return true
		}
	case commentToken:
		return true
	case doctypeToken:
		b.quirks = quirksDoctype(b.tok.text)
		b.im = beforeHTMLIM
		return true
	}
	b.quirks = true
	b.im = beforeHTMLIM
	return false
}

// beforeHTML is the "before html" insertion mode.
func (b *builder) beforeHTML() bool {
	switch b.tok.typ {
	case doctypeToken, commentToken:
		return true
	case textToken:
		if b.tok.text = trimLeftWS(b.tok.text); len(b.tok.text) == 0 {
			return true
		}
	case startTagToken:
		if b.tok.atom == atom.Html {
			b.addElement()
			b.im = beforeHeadIM
			return true
		}
	case endTagToken:
		switch b.tok.atom {
		case atom.Head, atom.Body, atom.Html, atom.Br:
			b.parseImpliedToken(startTagToken, atom.Html)
			return false
		}
		return true
	}
	b.parseImpliedToken(startTagToken, atom.Html)
	return false
}

// beforeHead is the "before head" insertion mode.
func (b *builder) beforeHead() bool {
	switch b.tok.typ {
	case textToken:
		if b.tok.text = trimLeftWS(b.tok.text); len(b.tok.text) == 0 {
			return true
		}
	case startTagToken:
		switch b.tok.atom {
		case atom.Head:
			b.head = *b.addElement()
			b.hasHead = true
			b.im = inHeadIM
			return true
		case atom.Html:
			return b.inBody()
		}
	case endTagToken:
		switch b.tok.atom {
		case atom.Head, atom.Body, atom.Html, atom.Br:
			b.parseImpliedToken(startTagToken, atom.Head)
			return false
		}
		return true
	case commentToken:
		b.addComment()
		return true
	case doctypeToken:
		return true
	}
	b.parseImpliedToken(startTagToken, atom.Head)
	return false
}

// takeLeadingSpace inserts the white space a text token starts with, as
// the modes that keep it in place do, and leaves the rest as the token;
// true when nothing is left of it.
func (b *builder) takeLeadingSpace() bool {
	s := trimLeftWS(b.tok.text)
	if len(s) == len(b.tok.text) {
		return false
	}
	b.addText(b.tok.text[:len(b.tok.text)-len(s)])
	if len(s) == 0 {
		return true
	}
	b.tok.text = s
	return false
}

// inHead is the "in head" insertion mode.
func (b *builder) inHead() bool {
	switch b.tok.typ {
	case textToken:
		if b.takeLeadingSpace() {
			return true
		}
	case startTagToken:
		switch b.tok.atom {
		case atom.Html:
			return b.inBody()
		case atom.Base, atom.Basefont, atom.Bgsound, atom.Link, atom.Meta:
			b.addElement()
			b.pop()
			b.selfClosing = false
			return true
		case atom.Noscript:
			b.addElement()
			b.im = inHeadNoscriptIM
			b.z.notRawText() // scripting is disabled: its content is markup
			return true
		case atom.Script, atom.Title:
			b.addElement()
			b.setOriginalIM()
			b.im = textIM
			return true
		case atom.Noframes, atom.Style:
			b.addElement()
			b.originalIM = b.im
			b.im = textIM
			return true
		case atom.Head:
			return true
		case atom.Template:
			return b.startTemplate()
		}
	case endTagToken:
		switch b.tok.atom {
		case atom.Head:
			b.pop()
			b.im = afterHeadIM
			return true
		case atom.Body, atom.Html, atom.Br:
			b.parseImpliedToken(endTagToken, atom.Head)
			return false
		case atom.Template:
			return b.endTemplate()
		}
		return true
	case commentToken:
		b.addComment()
		return true
	case doctypeToken:
		return true
	}
	b.parseImpliedToken(endTagToken, atom.Head)
	return false
}

// startTemplate handles a <template> start tag in head rules.
func (b *builder) startTemplate() bool {
	// x/net/html gives up on the rest of a page that mixes templates with
	// SVG or MathML.
	for i := range b.oe {
		if b.oe[i].ns != nsHTML {
			b.im = ignoreRestIM
			return true
		}
	}
	b.addElement()
	b.pushMarker()
	b.framesetOK = false
	b.im = inTemplateIM
	b.templateIMs = append(b.templateIMs, inTemplateIM)
	return true
}

// endTemplate handles a </template> end tag in head rules.
func (b *builder) endTemplate() bool {
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
	return true
}

// inHeadNoscript is the "in head noscript" insertion mode: a <noscript>
// in the head, read as markup since scripting is disabled.
func (b *builder) inHeadNoscript() bool {
	switch b.tok.typ {
	case doctypeToken:
		return true
	case startTagToken:
		switch b.tok.atom {
		case atom.Html:
			return b.inBody()
		case atom.Basefont, atom.Bgsound, atom.Link, atom.Meta, atom.Noframes, atom.Style:
			return b.inHead()
		case atom.Head:
			return true
		case atom.Noscript:
			b.z.notRawText()
			return true
		}
	case endTagToken:
		switch b.tok.atom {
		case atom.Noscript, atom.Br:
		default:
			return true
		}
	case textToken:
		if allWS(b.tok.text) {
			return b.inHead()
		}
	case commentToken:
		return b.inHead()
	}
	b.pop()
	if b.top().atom != atom.Head {
		panic(xnetCheck("the current node should be a head element"))
	}
	b.im = inHeadIM
	return b.tok.typ == endTagToken && b.tok.atom == atom.Noscript
}

// afterHead is the "after head" insertion mode, where <body> starts,
// implied by the first content that cannot be in the head.
func (b *builder) afterHead() bool {
	switch b.tok.typ {
	case textToken:
		if b.takeLeadingSpace() {
			return true
		}
	case startTagToken:
		switch b.tok.atom {
		case atom.Html:
			return b.inBody()
		case atom.Body:
			b.addElement()
			b.framesetOK = false
			b.im = inBodyIM
			return true
		case atom.Frameset:
			b.addElement()
			b.im = inFramesetIM
			return true
		case atom.Base, atom.Basefont, atom.Bgsound, atom.Link, atom.Meta, atom.Noframes, atom.Script, atom.Style, atom.Template, atom.Title:
			return b.inReopenedHead()
		case atom.Head:
			return true
		}
	case endTagToken:
		switch b.tok.atom {
		case atom.Body, atom.Html, atom.Br:
		case atom.Template:
			return b.inHead()
		default:
			return true
		}
	case commentToken:
		b.addComment()
		return true
	case doctypeToken:
		return true
	}
	b.w.snapshot() // for a <frameset> that may yet drop this body
	b.parseImpliedToken(startTagToken, atom.Body)
	b.framesetOK = true
	return b.tok.typ == errorToken
}

// inReopenedHead processes a head element that follows </head> in head
// rules, with the head element back on the stack meanwhile.
func (b *builder) inReopenedHead() bool {
	b.oe = append(b.oe, b.head)
	if len(b.oe) > maxOpen {
		panic(tooDeep{})
	}
	consumed := b.inHead()
	if i := b.index(b.head.id); i >= 0 {
		b.oe = append(b.oe[:i], b.oe[i+1:]...)
	}
	return consumed
}

// setOriginalIM saves the mode to return to after a text element.
func (b *builder) setOriginalIM() {
	if b.originalIM != noMode {
		panic(xnetCheck("originalIM set twice"))
	}
	b.originalIM = b.im
}
