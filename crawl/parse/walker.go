package parse

import (
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html/atom"
)

// The walker turns the events of a page, in tree order, into a Document:
// what a walk over x/net/html's tree found, as the tree-builder version of
// this package walked it (see reference_test.go).

// walker collects a Document.
type walker struct {
	strs    []byte   // every string kept, the Document's strings are spans of it
	refs    []refRec // Document.Refs
	preps   []prep
	head    headState
	robots  []byte
	body    textBuf // Document.Text
	bodyEl  bodyAttrs
	anchors []anchor
	marks   []mark
	alts    []span // alt texts offered to anchors, in order
	inBody  int    // open <body> elements
	noText  int    // open elements whose text is not page text (<noscript>, <nav>)
	carry   []byte
	joinBuf []byte
	logs    [][]event
	logText []byte
	saved   snapshot
	approx  approx
	tmp     textBuf
	vals    [4][]byte // decoded attribute values
}

// refRec is a Ref whose strings are spans of walker.strs. (Holding no
// pointer, it costs the garbage collector nothing to copy.)
type refRec struct {
	href, text span
	kind       kindID // 0 for no reference
	nofollow   bool
}

// kindID is a Kind as a small number.
type kindID uint8

// kinds are the Kinds by kindID.
var kinds = [...]Kind{"", A, Area, Frame, IFrame, Img, Script, Link, Embed, Background, Applet}

const (
	kindA kindID = 1 + iota
	kindArea
	kindFrame
	kindIFrame
	kindImg
	kindScript
	kindLink
	kindEmbed
	kindBackground
	kindApplet
)

// headState is what the head of the page says, in goquery's terms: the
// first <title>, the first <base href>, the <meta> elements.
type headState struct {
	title, base                   span
	titleSet, titleOpen, baseSet  bool
	description, keywords, author span
	refresh                       span
	robotsLen                     int
	noFollow, noIndex             bool
}

// anchor is an open <a> element whose text is still being collected.
type anchor struct {
	id     int32 // the <a> element
	prep   int32 // its prep
	ref    int   // index in refs, or -1 for an <a> without href
	text   textBuf
	alt    span // alt text of the first image inside it
	altSeq int  // which offer (1-based, walker.alts) alt came from
	noText int  // walker.noText when it opened: its text is read at that level
}

// approx says which of the situations listed in the package comment, where
// the output may differ from the tree builder's, a page ran into.
type approx uint8

const (
	approxAdoption approx = 1 << iota // misnested formatting around an <a>
	approxFoster                      // foster parenting into a template or <html>
)

// apply applies one event.
func (w *walker) apply(ev event, text []byte) {
	if ev.op == evText && ev.flags&(evVisited|evTitleText) == evVisited {
		w.walkText(ev.flags, text)
		return
	}
	w.flushCarry()
	switch ev.op {
	case evText:
		if ev.flags&evTitleText != 0 && w.head.titleOpen {
			w.head.title = w.normalized(text)
			w.noteRegion(ev.flags)
		}
	case evOpen:
		w.open(ev)
	case evAdopt:
		w.adopt(ev.id, ev.a, ev.b)
	case evClose:
		if ev.flags&evHTML != 0 && ev.atom == atom.Title {
			w.head.titleOpen = false
		}
		if ev.flags&evSpecial != 0 && len(w.marks) > 0 {
			w.popMark(ev.id)
		}
		if ev.flags&(evVisited|evHTML) == evVisited|evHTML {
			w.end(ev.atom)
		}
	}
}

// noteRegion marks the page approximate when something the walk acts on
// comes where the tree's order is not kept (see target.misplaced).
func (w *walker) noteRegion(f evFlags) {
	if f&evRegion != 0 {
		w.approx |= approxFoster
	}
	if f&evDisplaced != 0 {
		w.approx |= approxAdoption
	}
}

// open applies an element's start: head data wherever it is, as goquery
// found it anywhere in the tree, then what the walk does on entering it.
func (w *walker) open(ev event) {
	var p *prep
	if ev.prep >= 0 {
		p = &w.preps[ev.prep]
	}
	html := ev.flags&evHTML != 0
	if html && ev.atom == atom.Title {
		w.noteRegion(ev.flags) // misplaced, it might come first in the tree
		if !w.head.titleSet {
			w.head.titleSet, w.head.titleOpen = true, true
		}
	}
	if p != nil && (p.hasBase || p.meta.field != metaNone) {
		w.applyHead(p)
		w.noteRegion(ev.flags)
	}
	if ev.flags&evVisited == 0 {
		return
	}
	w.noteRegion(ev.flags)
	if html {
		w.start(ev.atom, p)
		if ev.atom == atom.A {
			a := &w.anchors[len(w.anchors)-1]
			a.id, a.prep = ev.id, ev.prep
		}
	}
	if ev.flags&evSpecial != 0 {
		w.pushMark(ev.id)
	}
}

// start handles the start of an HTML element the walk enters.
func (w *walker) start(tag atom.Atom, p *prep) {
	switch tag {
	case atom.A:
		w.pushAnchor(w.addRef(p))
	case atom.Area, atom.Frame, atom.Iframe, atom.Script, atom.Link, atom.Embed,
		atom.Audio, atom.Video, atom.Source, atom.Object, atom.Applet:
		w.addRef(p)
	case atom.Img:
		w.addRef(p)
		if p != nil && p.alt.end > p.alt.start {
			w.offerAlt(p.alt)
		}
	case atom.Body:
		w.inBody++
		w.startBody(p)
	case atom.Noscript, atom.Nav: // a <nav>'s menus are not the page's text; its links stay
		w.noText++
	}
	if isBlock(tag) {
		w.sep()
	}
}

// end handles the end of an element whose start was handled.
func (w *walker) end(tag atom.Atom) {
	switch tag {
	case atom.A:
		w.popAnchor()
	case atom.Body:
		if w.inBody > 0 {
			w.inBody--
		}
	case atom.Noscript, atom.Nav:
		if w.noText > 0 {
			w.noText--
		}
	}
	if isBlock(tag) {
		w.sep()
	}
}

// addRef appends p's reference, if it has one, and returns its index.
func (w *walker) addRef(p *prep) int {
	if p == nil || p.ref.kind == 0 {
		return -1
	}
	w.refs = append(w.refs, p.ref)
	return len(w.refs) - 1
}

// walkText adds text the walk meets. Text that ends inside a UTF-8
// sequence keeps those bytes back, in case the tree builder joined the
// next text token to it, which completes the sequence.
func (w *walker) walkText(f evFlags, s []byte) {
	if f&evJoin == 0 {
		w.flushCarry()
	} else if len(w.carry) > 0 {
		w.joinBuf = append(append(w.joinBuf[:0], w.carry...), s...)
		w.carry = w.carry[:0]
		s = w.joinBuf
	}
	if n := len(s); n > 0 && s[n-1] >= utf8.RuneSelf {
		start := n - 1
		for start > 0 && start > n-utf8.UTFMax && !utf8.RuneStart(s[start]) {
			start--
		}
		if !utf8.FullRune(s[start:]) {
			w.carry = append(w.carry[:0], s[start:]...)
			s = s[:start]
		}
	}
	w.noteRegion(f)
	w.text(s)
}

func (w *walker) flushCarry() {
	if len(w.carry) > 0 {
		c := w.carry
		w.carry = w.carry[:0]
		w.text(c)
	}
}

// text adds a run of character data to the body text and open anchors. An
// anchor inside <noscript> still gets its text; one around it does not.
func (w *walker) text(s []byte) {
	if w.inBody > 0 && w.noText == 0 {
		w.body.addBytes(s)
	}
	for i := range w.anchors {
		if a := &w.anchors[i]; a.noText == w.noText {
			a.text.addBytes(s)
		}
	}
}

// sep marks a block boundary in the body text and open anchors.
func (w *walker) sep() {
	w.body.sep()
	for i := range w.anchors {
		w.anchors[i].text.sep()
	}
}

// pushAnchor opens an anchor, reusing a buffer left by an earlier one.
func (w *walker) pushAnchor(ref int) {
	if len(w.anchors) < cap(w.anchors) {
		w.anchors = w.anchors[:len(w.anchors)+1]
	} else {
		w.anchors = append(w.anchors, anchor{text: textBuf{limit: MaxRefText + 4}})
	}
	a := &w.anchors[len(w.anchors)-1]
	a.id, a.prep, a.ref, a.alt, a.altSeq, a.noText = 0, -1, ref, span{}, 0, w.noText
	a.text.reset()
	a.text.limit = MaxRefText + 4
}

// popAnchor closes the innermost anchor and settles its reference's text.
func (w *walker) popAnchor() {
	if len(w.anchors) == 0 {
		return
	}
	a := &w.anchors[len(w.anchors)-1]
	w.anchors = w.anchors[:len(w.anchors)-1]
	if a.ref < 0 {
		return
	}
	r := &w.refs[a.ref]
	if t := truncate(a.text.b, MaxRefText); len(t) > 0 {
		r.text = w.keep(t)
	} else if a.alt.end > a.alt.start {
		r.text = a.alt
	} // else keep the title set when the anchor opened
}

// keep appends b to the kept strings and returns its span.
func (w *walker) keep(b []byte) span {
	start := len(w.strs)
	w.strs = append(w.strs, b...)
	return span{start, len(w.strs)}
}

// normalized keeps s in the form NormalizeText returns.
func (w *walker) normalized(s []byte) span {
	w.tmp.reset()
	w.tmp.addBytes(s)
	return w.keep(w.tmp.b)
}

// isSpaceText reports whether s normalizes to nothing.
func isSpaceText(s []byte) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRune(s[i:])
		if !unicode.IsSpace(r) || (r == utf8.RuneError && size == 1) {
			return false
		}
		i += size
	}
	return true
}
