package parse

import "golang.org/x/net/html/atom"

// Closing elements. An element popped from the stack closes at once; its
// subtree is complete. One removed from the middle of the stack (a <form>
// closed around an open <div>, an <a> reopened elsewhere) stays open in
// the tree until everything above it has closed, so its close waits, as a
// detached entry, on the element above it.

// detached is an element removed from the middle of the stack whose
// close is still due.
type detached struct {
	ev     event
	stream int16
	next   int32 // the next close due after this one, -1 none
}

// pop pops the current node and closes it.
func (b *builder) pop() {
	n := len(b.oe) - 1
	e := b.oe[n]
	b.oe = b.oe[:n]
	b.closeElem(&e)
}

// popTo pops elements until n are left.
func (b *builder) popTo(n int) {
	for len(b.oe) > n {
		b.pop()
	}
}

// closeElem tells the walker e closed, then the detached elements that
// waited on it.
func (b *builder) closeElem(e *elem) {
	b.w.emit(e.stream, closeEvent(e), nil)
	if e.atom == atom.Table {
		b.w.closeStream(e.stream, e.pstream)
	}
	for c := e.carry; c >= 0; c = b.detached[c].next {
		b.w.emit(b.detached[c].stream, b.detached[c].ev, nil)
	}
}

func closeEvent(e *elem) event {
	f := evFlags(0)
	if e.is(fVisited) {
		f |= evVisited
	}
	if e.ns == nsHTML {
		f |= evHTML
	}
	if e.is(fSpecial) {
		f |= evSpecial
	}
	return event{op: evClose, flags: f, atom: e.atom, prep: e.prep, id: e.id}
}

// remove takes the element at index i off the stack; it closes when the
// element now at i does.
func (b *builder) remove(i int) {
	if i == len(b.oe)-1 {
		b.pop()
		return
	}
	e := &b.oe[i]
	b.detached = append(b.detached, detached{ev: closeEvent(e), stream: e.stream, next: e.carry})
	d := int32(len(b.detached) - 1)
	above := &b.oe[i+1]
	if above.carry < 0 {
		above.carry = d
	} else {
		c := above.carry
		for b.detached[c].next >= 0 {
			c = b.detached[c].next
		}
		b.detached[c].next = d
	}
	b.oe = append(b.oe[:i], b.oe[i+1:]...)
}

// removeID removes the element with the given id, if open.
func (b *builder) removeID(id int32) {
	if i := b.index(id); i >= 0 {
		b.remove(i)
	}
}

// finish closes every element still open at the end of the page, as the
// end of the tree closes them.
func (b *builder) finish() {
	b.popTo(0)
}
