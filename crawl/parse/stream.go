package parse

import "golang.org/x/net/html/atom"

// Events and streams. The builder reports what it adds to the tree as
// events, which the walker applies in tree order. Tree order is the order
// of the page except for foster parenting: content misplaced in a table
// (text between rows, a <div> after </td>) goes before the table. So a
// table's own events are held back in a stream of their own, and content
// foster-parented out of it goes to the stream around it, which is applied
// first; when the table closes its events follow. Outside tables events
// are applied at once.

// evOp is what an event reports.
type evOp uint8

const (
	evOpen  evOp = iota // an element starts
	evClose             // an element ends, with everything in it
	evText              // character data
	evAdopt             // the adoption agency moved a block out of an <a> (adopt.go)
)

// evFlags qualify an event.
type evFlags uint8

const (
	evVisited   evFlags = 1 << iota // the tree walk meets it (not in a skipped subtree)
	evHTML                          // an element in the HTML namespace
	evRegion                        // in a foster region (fRegion)
	evDisplaced                     // displaced by the adoption agency (fDisplaced)
	evJoin                          // text that joins the text node before it
	evTitleText                     // the text of a <title>
	evSpecial                       // an element of the "special" category
)

// event is one step of the walk.
type event struct {
	op    evOp
	flags evFlags
	atom  atom.Atom
	prep  int32 // open, close: the element's record (prep.go), -1 none
	id    int32 // open, close: the element; adopt: the <a>
	a, b  int32 // text held in a stream: walker.logText[a:b]; adopt: the block and the clone
}

// main is the stream applied at once.
const main = -1

// emit applies ev, or holds it in stream s. text is an evText's data.
func (w *walker) emit(s int16, ev event, text []byte) {
	if s == main {
		w.apply(ev, text)
		return
	}
	if ev.op == evText {
		ev.a = int32(len(w.logText))
		w.logText = append(w.logText, text...)
		ev.b = int32(len(w.logText))
	}
	w.logs[s] = append(w.logs[s], ev)
}

// openStream starts the stream of a table's events.
func (w *walker) openStream() int16 {
	n := len(w.logs)
	if n < cap(w.logs) {
		w.logs = w.logs[:n+1]
		w.logs[n] = w.logs[n][:0]
	} else {
		w.logs = append(w.logs, nil)
	}
	return int16(n)
}

// closeStream ends a table's stream s: its events follow what stream
// parent holds so far. Tables close in the reverse order they opened, so
// s is the last stream.
func (w *walker) closeStream(s, parent int16) {
	evs := w.logs[s]
	w.logs = w.logs[:s]
	if parent != main {
		w.logs[parent] = append(w.logs[parent], evs...)
		return
	}
	for _, ev := range evs {
		var text []byte
		if ev.op == evText {
			text = w.logText[ev.a:ev.b]
		}
		w.apply(ev, text)
	}
	if len(w.logs) == 0 {
		w.logText = w.logText[:0]
	}
}
