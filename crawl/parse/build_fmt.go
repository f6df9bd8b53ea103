package parse

import (
	"bytes"
	"slices"

	"golang.org/x/net/html/atom"
)

// The list of active formatting elements (<a>, <b>, <font>, ...) and the
// two algorithms over it: reconstruction, which reopens formatting
// elements in a new block (so an unclosed <a> reopened in the next
// paragraph is a second link, as in the tree), and the adoption agency,
// which closes misnested ones.

// fmtEntry is an entry of the list of active formatting elements.
type fmtEntry struct {
	id   int32 // the element, or 0 for a scope marker
	atom atom.Atom
	tag  span  // its start tag in the page, when it has attributes
	prep int32 // its walker record, for clones
}

func (b *builder) afeIndex(id int32) int {
	for i := len(b.afe) - 1; i >= 0; i-- {
		if b.afe[i].id == id {
			return i
		}
	}
	return -1
}

func (b *builder) afeRemove(id int32) {
	if i := b.afeIndex(id); i >= 0 {
		b.afe = slices.Delete(b.afe, i, i+1)
	}
}

func (b *builder) pushMarker() { b.afe = append(b.afe, fmtEntry{}) }

// addFormattingElement inserts an element for the current token and adds
// it to the list, keeping at most three identical ones after the last
// marker (x/net/html's version of the Noah's Ark clause).
func (b *builder) addFormattingElement() {
	e := b.addElement()
	var tag span
	if b.tok.attrs {
		tag = span{b.z.raw, b.z.pos}
	}
	same, encoded := 0, false
	for i := len(b.afe) - 1; i >= 0; i-- {
		f := &b.afe[i]
		if f.id == 0 {
			break
		}
		if f.atom != e.atom {
			continue
		}
		if !encoded {
			b.encMine, encoded = b.encodeTag(b.encMine[:0], tag), true
		}
		b.encTheirs = b.encodeTag(b.encTheirs[:0], f.tag)
		if !bytes.Equal(b.encMine, b.encTheirs) {
			continue
		}
		if same++; same >= 3 {
			b.afe = slices.Delete(b.afe, i, i+1)
		}
	}
	b.afe = append(b.afe, fmtEntry{id: e.id, atom: e.atom, tag: tag, prep: e.prep})
}

// encodeTag appends the attributes of the start tag at t in the page,
// sorted by name and value, to dst: two tags' encodings are equal exactly
// when x/net/html finds their attribute lists equal. Comparisons are rare
// (an element like one still open), so tags are read again for them.
func (b *builder) encodeTag(dst []byte, t span) []byte {
	if t.end == t.start {
		return dst
	}
	z := &b.tagZ
	z.reset(b.z.in[t.start:t.end])
	z.next()
	pairs := b.pairs[:0]
	scratch := b.attrScratch[:0]
	var kb, vb []byte
	for i := range z.attrs {
		k := len(scratch)
		scratch = append(scratch, z.attrName(i, &kb)...)
		v := len(scratch)
		scratch = append(scratch, z.attrVal(i, &vb)...)
		pairs = append(pairs, [2]span{{k, v}, {v, len(scratch)}})
	}
	slices.SortFunc(pairs, func(x, y [2]span) int {
		if c := bytes.Compare(scratch[x[0].start:x[0].end], scratch[y[0].start:y[0].end]); c != 0 {
			return c
		}
		return bytes.Compare(scratch[x[1].start:x[1].end], scratch[y[1].start:y[1].end])
	})
	for _, p := range pairs {
		for _, s := range p {
			n := s.end - s.start
			dst = append(dst, byte(n>>24), byte(n>>16), byte(n>>8), byte(n))
			dst = append(dst, scratch[s.start:s.end]...)
		}
	}
	b.pairs, b.attrScratch = pairs, scratch
	return dst
}

// clearActiveFormattingElements removes entries up to the last marker.
func (b *builder) clearActiveFormattingElements() {
	for len(b.afe) > 0 {
		f := b.afe[len(b.afe)-1]
		b.afe = b.afe[:len(b.afe)-1]
		if f.id == 0 {
			return
		}
	}
}

// reconstructActiveFormattingElements reopens, inside the current node,
// the formatting elements after the last marker that were closed.
func (b *builder) reconstructActiveFormattingElements() {
	n := len(b.afe)
	if n == 0 {
		return
	}
	if f := b.afe[n-1]; f.id == 0 || b.index(f.id) != -1 {
		return
	}
	i := n - 1
	for b.afe[i].id != 0 && b.index(b.afe[i].id) == -1 {
		if i == 0 {
			i = -1
			break
		}
		i--
	}
	for {
		i++
		f := &b.afe[i]
		f.id = b.insert(f.atom, nsHTML, nil, f.prep).id
		if i == n-1 {
			break
		}
	}
}

// adoptionAgency handles the end tag of a formatting element (or an <a>
// start tag while an <a> is open): x/net/html's inBodyEndTagFormatting.
func (b *builder) adoptionAgency(tag atom.Atom) {
	if top := b.top(); top.atom == tag && b.afeIndex(top.id) == -1 {
		b.pop()
		return
	}
	for range 8 {
		fe := -1
		for j := len(b.afe) - 1; j >= 0 && b.afe[j].id != 0; j-- {
			if b.afe[j].atom == tag {
				fe = j
				break
			}
		}
		if fe < 0 {
			b.endTagOther(tag, nil)
			return
		}
		feID := b.afe[fe].id
		feIndex := b.index(feID)
		if feIndex == -1 {
			b.afe = slices.Delete(b.afe, fe, fe+1)
			return
		}
		if !b.inScope(defaultScope, tag) {
			return
		}
		fb := -1
		for i := feIndex; i < len(b.oe); i++ {
			if b.oe[i].is(fSpecial) {
				fb = i
				break
			}
		}
		if fb < 0 {
			b.popTo(feIndex)
			b.afeRemove(feID)
			return
		}
		b.adopt(feID, feIndex, fb)
	}
}

// adopt is the adoption agency's step for a formatting element with a
// furthest block above it: the block and what follows move out of the
// formatting element, into clones of it and of the formatting elements
// between. The stack and list change exactly as x/net/html changes them.
// The walker keeps treating each clone as the element it replaces, which
// gives the tree's output unless an <a> is among the elements moved or
// cloned, and a few rarer shapes noteAdoption lists.
func (b *builder) adopt(feID int32, feIndex, fbIndex int) {
	fbID := b.oe[fbIndex].id
	b.noteAdoption(feIndex, fbIndex)
	bookmark := b.afeIndex(feID)
	lastNode := fbID
	for x, j := fbIndex, 1; ; j++ {
		x--
		node := &b.oe[x]
		if node.id == feID {
			break
		}
		ni := b.afeIndex(node.id)
		if j > 3 && ni > -1 {
			// x/net/html removes it from the list only, not the stack: it
			// stays open before the block, and what it gets later comes
			// before the block in the tree, not after as the walker sees.
			node.flags |= fDisplaced
			b.afe = slices.Delete(b.afe, ni, ni+1)
			if ni <= bookmark {
				bookmark--
			}
			continue
		}
		if ni == -1 {
			b.oe = slices.Delete(b.oe, x, x+1) // it stays in the tree, closed
			continue
		}
		b.lastID++
		node.id, node.carry = b.lastID, -1
		node.flags = node.flags&^fLastText | fHasChild
		b.afe[ni].id = node.id
		if lastNode == fbID {
			bookmark = ni + 1
		}
		lastNode = node.id
	}
	feIndex = b.index(feID)
	if ca := &b.oe[feIndex-1]; !isTablePart(ca.atom) {
		ca.flags = ca.flags&^fLastText | fHasChild
	} else if t := b.lastTable(); t >= 0 {
		b.oe[t].flags &^= fPrevText
	}
	fb := &b.oe[b.index(fbID)]
	fb.carry = -1 // what waited on the block closed before it (noteAdoption)
	clone := b.oe[feIndex]
	b.lastID++
	clone.id, clone.carry = b.lastID, -1
	if clone.atom == atom.A && clone.ns == nsHTML && clone.is(fVisited) {
		b.w.emit(clone.stream, event{op: evAdopt, id: feID, a: fbID, b: clone.id}, nil)
	}
	clone.flags = clone.flags&^(fLastText|fHasChild) | fb.flags&fLastText
	if fb.is(fHasChild) {
		clone.flags |= fHasChild
	}
	fb.flags = fb.flags&^fLastText | fHasChild
	f := b.afe[b.afeIndex(feID)]
	if old := b.afeIndex(feID); old < bookmark {
		bookmark--
	}
	b.afeRemove(feID)
	f.id = clone.id
	b.afe = slices.Insert(b.afe, bookmark, f)
	b.oe = slices.Delete(b.oe, feIndex, feIndex+1)
	b.oe = slices.Insert(b.oe, b.index(fbID)+1, clone)
}

// noteAdoption marks the page approximate when moving the furthest block
// out of the formatting element changes what the walker reports in a way
// it does not follow (see the package comment): an <a> between the two,
// or an element closed early (one removed from the stack, or detached
// earlier and waiting to close) whose end now comes before the block but
// is not a mere word boundary that the block's own start gives anyway.
// (An <a> as the formatting element is split by the walker.)
func (b *builder) noteAdoption(feIndex, fbIndex int) {
	fb := &b.oe[fbIndex]
	fbBlock := fb.ns == nsHTML && isBlock(fb.atom)
	early := func(ev event) bool {
		if ev.flags&(evVisited|evHTML) != evVisited|evHTML {
			return false
		}
		switch ev.atom {
		case atom.A, atom.Nav, atom.Noscript, atom.Body, atom.Title:
			return true
		}
		return isBlock(ev.atom) && !fbBlock
	}
	for i := feIndex; i <= fbIndex; i++ {
		e := &b.oe[i]
		bad := i > feIndex && e.is(fVisited) && e.atom == atom.A && e.ns == nsHTML
		if i > feIndex && i < fbIndex && b.afeIndex(e.id) == -1 && early(closeEvent(e)) {
			bad = true
		}
		for c := e.carry; c >= 0 && !bad; c = b.detached[c].next {
			bad = early(b.detached[c].ev)
		}
		if bad {
			b.w.approx |= approxAdoption
			return
		}
	}
}

// isTablePart reports whether nodes appended to an element of atom a are
// foster-parented instead.
func isTablePart(a atom.Atom) bool {
	switch a {
	case atom.Table, atom.Tbody, atom.Tfoot, atom.Thead, atom.Tr:
		return true
	}
	return false
}

// lastTable returns the index of the innermost open table, or -1.
func (b *builder) lastTable() int {
	for i := len(b.oe) - 1; i >= 0; i-- {
		if b.oe[i].atom == atom.Table {
			return i
		}
	}
	return -1
}
