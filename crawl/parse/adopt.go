package parse

// When the adoption agency finds a block element (the furthest block)
// open inside an <a> it has to close, the tree builder moves the block out
// of the <a> and puts a copy of the <a> inside it, around everything the
// block held: a second reference to the same URL, whose text is the
// block's. The walker has collected all that text for the first <a>, so
// it splits it where the block started, using a mark taken then.

// mark is the state of the innermost anchor when a special element (a
// possible furthest block) started inside it. A <nav> or <noscript>
// raises the level at which text counts, and the anchor stops collecting
// it; so such an element gets a shadow anchor that collects its text at
// the new level, as the copy of the <a> would.
type mark struct {
	id     int32 // the element
	anchor int32 // the anchor it started in: an <a>, a copy, or a shadow
	refs   int   // len(walker.refs) then
	text   int   // length of the anchor's text then
	alts   int   // len(walker.alts) then
	shadow bool  // the element has a shadow anchor, id -id
}

// pushMark records a mark for a special element that just started.
func (w *walker) pushMark(id int32) {
	if len(w.anchors) == 0 {
		return
	}
	a := &w.anchors[len(w.anchors)-1]
	m := mark{id: id, anchor: a.id, refs: len(w.refs), text: len(a.text.b), alts: len(w.alts)}
	// Keep as much text after the mark as a copy of the <a> would.
	a.text.limit = max(a.text.limit, len(a.text.b)+MaxRefText+4)
	if a.noText != w.noText {
		m.shadow = true
		w.pushAnchor(-1)
		w.anchors[len(w.anchors)-1].id = -id
	}
	w.marks = append(w.marks, m)
}

// popMark drops the mark (and shadow) of an element that ended.
func (w *walker) popMark(id int32) {
	for i := len(w.marks) - 1; i >= 0; i-- {
		if w.marks[i].id != id {
			continue
		}
		if w.marks[i].shadow {
			if j := w.anchorIndex(-id); j >= 0 {
				w.dropAnchor(j)
			}
		}
		w.marks = w.marks[:i]
		return
	}
}

func (w *walker) anchorIndex(id int32) int {
	for i := len(w.anchors) - 1; i >= 0; i-- {
		if w.anchors[i].id == id {
			return i
		}
	}
	return -1
}

// dropAnchor removes anchor i, keeping its buffer for reuse.
func (w *walker) dropAnchor(i int) {
	a := w.anchors[i]
	copy(w.anchors[i:], w.anchors[i+1:])
	w.anchors[len(w.anchors)-1] = a
	w.anchors = w.anchors[:len(w.anchors)-1]
}

// offerAlt gives an image's alt text to the anchors around it that have
// none yet, and logs it: a copy of an <a> made later takes the first alt
// offered inside it.
func (w *walker) offerAlt(alt span) {
	if len(w.anchors) == 0 {
		return
	}
	w.alts = append(w.alts, alt)
	for i := range w.anchors {
		if a := &w.anchors[i]; a.alt.end == a.alt.start {
			a.alt, a.altSeq = alt, len(w.alts)
		}
	}
}

// adopt ends the anchor of the <a> element fe where the block fb started
// and continues with fe's copy, the element clone, holding what fb held.
// A page where it cannot is marked approximate.
func (w *walker) adopt(fe, fb, clone int32) {
	mi := len(w.marks) - 1
	for mi >= 0 && w.marks[mi].id != fb {
		mi--
	}
	ai := w.anchorIndex(fe)
	if mi < 0 || ai < 0 || w.marks[mi].anchor != fe {
		w.approx |= approxAdoption
		return
	}
	m := w.marks[mi]
	for j := ai + 1; j < len(w.anchors); j++ {
		if w.anchors[j].id >= 0 { // an anchor other than a shadow inside fe
			w.approx |= approxAdoption
			return
		}
	}
	src := ai // the buffer holding the copy's text, from m.text on
	if m.shadow {
		src = w.anchorIndex(-fb)
	}
	if src < 0 || (w.anchors[src].text.full() && len(w.anchors[src].text.b)-m.text < MaxRefText+4) {
		w.approx |= approxAdoption // the copy's text was not all collected
		return
	}
	a := &w.anchors[ai]
	prep := a.prep
	if a.altSeq > m.alts {
		a.alt = span{} // that image is in the copy
	}
	ref := -1
	if a.ref >= 0 {
		r := &w.refs[a.ref]
		if t := truncate(a.text.b[:m.text], MaxRefText); len(t) > 0 {
			r.text = w.keep(t)
		} else if a.alt.end > a.alt.start {
			r.text = a.alt
		}
		ref = m.refs
		w.insertRef(ref, w.preps[prep].ref)
		for i := mi + 1; i < len(w.marks); i++ {
			if w.marks[i].refs >= ref {
				w.marks[i].refs++
			}
		}
	}
	c := w.copyAnchor(ai, src, mi)
	c.id, c.ref, c.prep, c.alt, c.altSeq = clone, ref, prep, span{}, 0
	if len(w.alts) > m.alts {
		c.alt, c.altSeq = w.alts[m.alts], m.alts+1
	}
	for i := mi + 1; i < len(w.marks); i++ {
		if w.marks[i].anchor == fe || w.marks[i].anchor == -fb {
			w.marks[i].anchor = clone
		}
	}
	w.marks[mi].anchor = 0 // the block is no longer inside the <a>
}

// copyAnchor makes the anchor of fe's copy from the text anchor src
// collected after mark mi: in place of fe's anchor ai, cutting off what
// came before, or, when the block has a shadow, as a new anchor.
func (w *walker) copyAnchor(ai, src, mi int) *anchor {
	m := w.marks[mi]
	if !m.shadow {
		a := &w.anchors[ai]
		shift := m.text
		if shift < len(a.text.b) && a.text.b[shift] == ' ' {
			shift++ // the copy starts its text afresh
		}
		a.text.b = a.text.b[:copy(a.text.b, a.text.b[shift:])]
		a.text.limit = max(MaxRefText+4, a.text.limit-shift)
		for i := mi + 1; i < len(w.marks); i++ {
			if w.marks[i].anchor == a.id {
				w.marks[i].text = max(0, w.marks[i].text-shift)
			}
		}
		return a
	}
	w.dropAnchor(ai)
	if ai < src {
		src--
	}
	w.pushAnchor(-1)
	s, c := &w.anchors[src], &w.anchors[len(w.anchors)-1]
	c.text.b = append(c.text.b[:0], s.text.b...)
	c.text.pending, c.text.limit, c.noText = s.text.pending, s.text.limit, s.noText
	return c
}

// insertRef inserts r at index i of refs, moving the references of open
// anchors along.
func (w *walker) insertRef(i int, r refRec) {
	w.refs = append(w.refs, refRec{})
	copy(w.refs[i+1:], w.refs[i:])
	w.refs[i] = r
	for j := range w.anchors {
		if w.anchors[j].ref >= i {
			w.anchors[j].ref++
		}
	}
}
