package parse

import (
	"bytes"

	"golang.org/x/net/html/atom"
)

// This file inserts elements and text where the tree builder would, and
// closes elements when they leave the stack, telling the walker both in
// tree order.

// target is where the next node goes: the element it is appended to (or,
// when foster-parented, put before), the stream its events belong to and
// how the tree walk treats its parent.
type target struct {
	elem   int   // index in oe of the parent, or of the table it goes before; -1 for the document
	before bool  // foster-parented before the table oe[elem]
	stream int16 // stream of the node's events
	walked bool  // the walk enters the parent's children
	// misplaced holds fRegion or fDisplaced when the node goes where the
	// walker's order is not the tree's: into a template or <html> by foster
	// parenting (its end, which may come after nodes still to be added to
	// open elements in it), or into an element the adoption agency left
	// open before a block it moved.
	misplaced elemFlags
}

// insertTarget is the place for a new node: inside the current node, or
// by foster parenting before the innermost table (or at the end of a
// template or the html element).
func (b *builder) insertTarget() target {
	if len(b.oe) == 0 {
		return target{elem: -1, stream: main, walked: true}
	}
	if !b.shouldFosterParent() {
		t := len(b.oe) - 1
		e := &b.oe[t]
		return target{elem: t, stream: e.stream, walked: e.is(fWalked), misplaced: e.flags & (fRegion | fDisplaced)}
	}
	table, template := -1, -1
	for i := len(b.oe) - 1; i >= 0; i-- {
		if b.oe[i].atom == atom.Table {
			table = i
			break
		}
	}
	for j := len(b.oe) - 1; j >= 0; j-- {
		if b.oe[j].atom == atom.Template {
			template = j
			break
		}
	}
	if template >= 0 && (table < 0 || template > table) {
		e := &b.oe[template]
		return target{elem: template, stream: e.stream, walked: e.is(fWalked), misplaced: fRegion | e.flags&fDisplaced}
	}
	if table < 0 {
		e := &b.oe[0] // the html element
		return target{elem: 0, stream: e.stream, walked: e.is(fWalked), misplaced: fRegion}
	}
	e := &b.oe[table]
	t := target{elem: table, before: true, stream: e.pstream, walked: e.is(fParentWalked)}
	if e.is(fParentRegion) {
		t.misplaced |= fRegion
	}
	if e.is(fParentDisplaced) {
		t.misplaced |= fDisplaced
	}
	return t
}

// shouldFosterParent reports whether the next node is foster-parented.
func (b *builder) shouldFosterParent() bool {
	if !b.fostering {
		return false
	}
	switch b.top().atom {
	case atom.Table, atom.Tbody, atom.Tfoot, atom.Thead, atom.Tr:
		return true
	}
	return false
}

// joins reports whether text placed at t joins a text node before it.
func (b *builder) joins(t target) bool {
	if t.elem < 0 {
		return false
	}
	if t.before {
		return b.oe[t.elem].is(fPrevText)
	}
	return b.oe[t.elem].is(fLastText)
}

// childAdded records a new child at t; text says whether it is text.
func (b *builder) childAdded(t target, text bool) {
	if t.elem < 0 {
		return
	}
	e := &b.oe[t.elem]
	last := fLastText
	if t.before {
		last = fPrevText
	} else {
		e.flags |= fHasChild
	}
	if text {
		e.flags |= last
	} else {
		e.flags &^= last
	}
}

// addText adds character data at the current insertion point.
func (b *builder) addText(text []byte) {
	if len(text) == 0 {
		return
	}
	t := b.insertTarget()
	var f evFlags
	if t.walked {
		f |= evVisited
	}
	f |= misplacedEv(t.misplaced)
	if b.joins(t) {
		f |= evJoin
	}
	if t.elem < 0 {
		return // text is never a child of the document in x/net/html
	}
	if p := &b.oe[t.elem]; !t.before && p.atom == atom.Title && p.ns == nsHTML {
		f |= evTitleText
	}
	b.childAdded(t, true)
	b.w.emit(t.stream, event{op: evText, flags: f}, text)
}

// addComment records a comment node at the insertion point: nothing to
// walk, but it separates text nodes and is a child.
func (b *builder) addComment() {
	b.childAdded(b.insertTarget(), false)
}

// addElement inserts an HTML element for the current token.
func (b *builder) addElement() *elem {
	return b.insert(b.tok.atom, nsHTML, b.tokName(), -2)
}

// insert inserts an element and pushes it. prep is its walker record:
// -2 asks the walker to make one from the current token's attributes.
func (b *builder) insert(a atom.Atom, n ns, name []byte, prep int32) *elem {
	t := b.insertTarget()
	prevText := b.joins(t)
	b.childAdded(t, false)
	b.lastID++
	e := elem{atom: a, id: b.lastID, ns: n, stream: t.stream, carry: -1, prep: prep}
	if a == 0 {
		start := len(b.names)
		b.names = append(b.names, name...)
		e.name = span{start, len(b.names)}
	}
	e.flags = classify(a, n)
	e.flags |= t.misplaced
	if t.walked {
		e.flags |= fVisited
		if !skipsContent(a, n) {
			e.flags |= fWalked
		}
	}
	if prep == -2 {
		e.prep = -1
		if b.tok.attrs {
			e.prep = b.w.prepare(b.z, a, n)
		}
	}
	if n == nsMath && a == atom.AnnotationXml && b.tok.attrs && htmlEncoding(b.z) {
		e.flags |= fHTMLPoint
	}
	if a == atom.Table {
		e.pstream = t.stream
		e.stream = b.w.openStream()
		if prevText {
			e.flags |= fPrevText
		}
		if t.walked {
			e.flags |= fParentWalked
		}
		if t.misplaced&fRegion != 0 {
			e.flags |= fParentRegion
		}
		if t.misplaced&fDisplaced != 0 {
			e.flags |= fParentDisplaced
		}
	}
	b.w.emit(e.stream, b.openEvent(&e), nil)
	b.oe = append(b.oe, e)
	if len(b.oe) > maxOpen {
		panic(tooDeep{})
	}
	return &b.oe[len(b.oe)-1]
}

func (b *builder) openEvent(e *elem) event {
	f := evFlags(0)
	if e.is(fVisited) {
		f |= evVisited
	}
	f |= misplacedEv(e.flags)
	if e.ns == nsHTML {
		f |= evHTML
	}
	if e.is(fSpecial) {
		f |= evSpecial
	}
	return event{op: evOpen, flags: f, atom: e.atom, prep: e.prep, id: e.id}
}

// classify sets the flags that follow from an element's name.
func classify(a atom.Atom, n ns) elemFlags {
	var f elemFlags
	if isSpecial(a, n) {
		f |= fSpecial
	}
	switch n {
	case nsSVG:
		if a == atom.Desc || a == atom.ForeignObject || a == atom.Title {
			f |= fHTMLPoint
		}
	case nsMath:
		switch a {
		case atom.Mi, atom.Mo, atom.Mn, atom.Ms, atom.Mtext:
			f |= fMathText
		}
	}
	return f
}

// skipsContent reports whether the tree walk skips an element's children:
// raw text and title, template content, and scripts and styles of SVG or
// MathML.
func skipsContent(a atom.Atom, n ns) bool {
	if n != nsHTML {
		return a == atom.Script || a == atom.Style
	}
	switch a {
	case atom.Title, atom.Script, atom.Style, atom.Template, atom.Iframe, atom.Noembed, atom.Noframes:
		return true
	}
	return false
}

// htmlEncoding reports whether a MathML annotation-xml start tag has an
// HTML encoding, which makes it an HTML integration point.
func htmlEncoding(z *tokenizer) bool {
	var buf []byte
	for i := range z.attrs {
		if !equalLower(z.attrKey(i), "encoding") {
			continue
		}
		v := z.attrVal(i, &buf)
		if bytes.EqualFold(v, []byte("text/html")) || bytes.EqualFold(v, []byte("application/xhtml+xml")) {
			return true
		}
	}
	return false
}

// misplacedEv is the event flags for an element's fRegion and fDisplaced.
func misplacedEv(f elemFlags) evFlags {
	var ev evFlags
	if f&fRegion != 0 {
		ev |= evRegion
	}
	if f&fDisplaced != 0 {
		ev |= evDisplaced
	}
	return ev
}
