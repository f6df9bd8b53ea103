package parse

import (
	"bytes"

	"golang.org/x/net/html/atom"
)

// inTable is the "in table" insertion mode. Content that is not part of
// the table is foster-parented before it.
func (b *builder) inTable() bool {
	switch b.tok.typ {
	case textToken:
		b.tok.text = b.dropNUL(b.tok.text)
		if isTablePart(b.top().atom) && allWS(b.tok.text) {
			b.addText(b.tok.text)
			return true
		}
	case startTagToken:
		switch b.tok.atom {
		case atom.Caption:
			b.clearStackToContext(tableScope)
			b.pushMarker()
			b.addElement()
			b.im = inCaptionIM
			return true
		case atom.Colgroup:
			b.clearStackToContext(tableScope)
			b.addElement()
			b.im = inColumnGroupIM
			return true
		case atom.Col:
			b.parseImpliedToken(startTagToken, atom.Colgroup)
			return false
		case atom.Tbody, atom.Tfoot, atom.Thead:
			b.clearStackToContext(tableScope)
			b.addElement()
			b.im = inTableBodyIM
			return true
		case atom.Td, atom.Th, atom.Tr:
			b.parseImpliedToken(startTagToken, atom.Tbody)
			return false
		case atom.Table:
			if b.popUntil(tableScope, atom.Table) {
				b.resetInsertionMode()
				return false
			}
			return true
		case atom.Style, atom.Script, atom.Template:
			return b.inHead()
		case atom.Input:
			if i := b.z.find("type"); b.tok.attrs && i >= 0 {
				var buf []byte
				if bytes.EqualFold(b.z.attrVal(i, &buf), []byte("hidden")) {
					b.addElement()
					b.pop()
					return true
				}
			}
		case atom.Form:
			if b.contains(atom.Template) || b.form != 0 {
				return true
			}
			b.form = b.addElement().id
			b.pop()
			return true // x/net/html handles it here and consumes it
		}
	case endTagToken:
		switch b.tok.atom {
		case atom.Table:
			if b.popUntil(tableScope, atom.Table) {
				b.resetInsertionMode()
			}
			return true
		case atom.Body, atom.Caption, atom.Col, atom.Colgroup, atom.Html, atom.Tbody, atom.Td, atom.Tfoot, atom.Th, atom.Thead, atom.Tr:
			return true
		case atom.Template:
			return b.inHead()
		}
	case commentToken:
		b.addComment()
		return true
	case doctypeToken:
		return true
	case errorToken:
		return b.inBody()
	}
	b.fostering = true
	defer func() { b.fostering = false }()
	return b.inBody()
}

// inCaption is the "in caption" insertion mode.
func (b *builder) inCaption() bool {
	switch b.tok.typ {
	case startTagToken:
		switch b.tok.atom {
		case atom.Caption, atom.Col, atom.Colgroup, atom.Tbody, atom.Td, atom.Tfoot, atom.Thead, atom.Tr:
			if !b.popUntil(tableScope, atom.Caption) {
				return true
			}
			b.clearActiveFormattingElements()
			b.im = inTableIM
			return false
		}
	case endTagToken:
		switch b.tok.atom {
		case atom.Caption:
			if b.popUntil(tableScope, atom.Caption) {
				b.clearActiveFormattingElements()
				b.im = inTableIM
			}
			return true
		case atom.Table:
			if !b.popUntil(tableScope, atom.Caption) {
				return true
			}
			b.clearActiveFormattingElements()
			b.im = inTableIM
			return false
		case atom.Body, atom.Col, atom.Colgroup, atom.Html, atom.Tbody, atom.Td, atom.Tfoot, atom.Th, atom.Thead, atom.Tr:
			return true
		}
	}
	return b.inBody()
}

// inColumnGroup is the "in column group" insertion mode.
func (b *builder) inColumnGroup() bool {
	switch b.tok.typ {
	case textToken:
		if b.takeLeadingSpace() {
			return true
		}
	case commentToken:
		b.addComment()
		return true
	case doctypeToken:
		return true
	case startTagToken:
		switch b.tok.atom {
		case atom.Html:
			return b.inBody()
		case atom.Col:
			b.addVoid()
			return true
		case atom.Template:
			return b.inHead()
		}
	case endTagToken:
		switch b.tok.atom {
		case atom.Colgroup:
			if b.top().atom == atom.Colgroup {
				b.pop()
				b.im = inTableIM
			}
			return true
		case atom.Col:
			return true
		case atom.Template:
			return b.inHead()
		}
	case errorToken:
		return b.inBody()
	}
	if b.top().atom != atom.Colgroup {
		return true
	}
	b.pop()
	b.im = inTableIM
	return false
}

// inTableBody is the "in table body" insertion mode.
func (b *builder) inTableBody() bool {
	switch b.tok.typ {
	case startTagToken:
		switch b.tok.atom {
		case atom.Tr:
			b.clearStackToContext(tableBodyScope)
			b.addElement()
			b.im = inRowIM
			return true
		case atom.Td, atom.Th:
			b.parseImpliedToken(startTagToken, atom.Tr)
			return false
		case atom.Caption, atom.Col, atom.Colgroup, atom.Tbody, atom.Tfoot, atom.Thead:
			if b.popUntil(tableScope, atom.Tbody, atom.Thead, atom.Tfoot) {
				b.im = inTableIM
				return false
			}
			return true
		}
	case endTagToken:
		switch b.tok.atom {
		case atom.Tbody, atom.Tfoot, atom.Thead:
			if b.inScope(tableScope, b.tok.atom) {
				b.clearStackToContext(tableBodyScope)
				b.pop()
				b.im = inTableIM
			}
			return true
		case atom.Table:
			if b.popUntil(tableScope, atom.Tbody, atom.Thead, atom.Tfoot) {
				b.im = inTableIM
				return false
			}
			return true
		case atom.Body, atom.Caption, atom.Col, atom.Colgroup, atom.Html, atom.Td, atom.Th, atom.Tr:
			return true
		}
	case commentToken:
		b.addComment()
		return true
	}
	return b.inTable()
}

// inRow is the "in row" insertion mode.
func (b *builder) inRow() bool {
	switch b.tok.typ {
	case startTagToken:
		switch b.tok.atom {
		case atom.Td, atom.Th:
			b.clearStackToContext(tableRowScope)
			b.addElement()
			b.pushMarker()
			b.im = inCellIM
			return true
		case atom.Caption, atom.Col, atom.Colgroup, atom.Tbody, atom.Tfoot, atom.Thead, atom.Tr:
			return b.closeRow(false)
		}
	case endTagToken:
		switch b.tok.atom {
		case atom.Tr:
			return b.closeRow(true)
		case atom.Table:
			return b.closeRow(false)
		case atom.Tbody, atom.Tfoot, atom.Thead:
			if b.inScope(tableScope, b.tok.atom) {
				return b.closeRow(false)
			}
			return true
		case atom.Body, atom.Caption, atom.Col, atom.Colgroup, atom.Html, atom.Td, atom.Th:
			return true
		}
	}
	return b.inTable()
}

// closeRow closes the open row, if any; consumed is what to return when
// there was one.
func (b *builder) closeRow(consumed bool) bool {
	if !b.inScope(tableScope, atom.Tr) {
		return true
	}
	b.clearStackToContext(tableRowScope)
	b.pop()
	b.im = inTableBodyIM
	return consumed
}

// inCell is the "in cell" insertion mode.
func (b *builder) inCell() bool {
	switch b.tok.typ {
	case startTagToken:
		switch b.tok.atom {
		case atom.Caption, atom.Col, atom.Colgroup, atom.Tbody, atom.Td, atom.Tfoot, atom.Th, atom.Thead, atom.Tr:
			if b.popUntil(tableScope, atom.Td, atom.Th) {
				b.clearActiveFormattingElements()
				b.im = inRowIM
				return false
			}
			return true
		}
	case endTagToken:
		switch b.tok.atom {
		case atom.Td, atom.Th:
			if !b.popUntil(tableScope, b.tok.atom) {
				return true
			}
			b.clearActiveFormattingElements()
			b.im = inRowIM
			return true
		case atom.Body, atom.Caption, atom.Col, atom.Colgroup, atom.Html:
			return true
		case atom.Table, atom.Tbody, atom.Tfoot, atom.Thead, atom.Tr:
			if !b.inScope(tableScope, b.tok.atom) {
				return true
			}
			if b.popUntil(tableScope, atom.Td, atom.Th) {
				b.clearActiveFormattingElements()
			}
			b.im = inRowIM
			return false
		}
	}
	return b.inBody()
}

// resetInsertionMode picks the mode from the elements open.
func (b *builder) resetInsertionMode() {
	for i := len(b.oe) - 1; i >= 0; i-- {
		e := &b.oe[i]
		switch e.atom {
		case atom.Td, atom.Th:
			b.im = inCellIM
		case atom.Tr:
			b.im = inRowIM
		case atom.Tbody, atom.Thead, atom.Tfoot:
			b.im = inTableBodyIM
		case atom.Caption:
			b.im = inCaptionIM
		case atom.Colgroup:
			b.im = inColumnGroupIM
		case atom.Table:
			b.im = inTableIM
		case atom.Template:
			if e.ns != nsHTML {
				continue
			}
			b.im = b.templateIMs[len(b.templateIMs)-1]
		case atom.Head:
			b.im = inHeadIM
		case atom.Body:
			b.im = inBodyIM
		case atom.Frameset:
			b.im = inFramesetIM
		case atom.Html:
			if !b.hasHead {
				b.im = beforeHeadIM
			} else {
				b.im = afterHeadIM
			}
		default:
			if i == 0 {
				b.im = inBodyIM
				return
			}
			continue
		}
		return
	}
}
