package parse

import "sync"

// parser is the state of one parse, pooled: a page needs no allocation
// beyond the Document and its strings once buffers have grown.
type parser struct {
	z tokenizer
	b builder
	w walker
}

var parsers = sync.Pool{New: func() any { return new(parser) }}

// maxPooled bounds the buffers a pooled parser keeps, so that one huge
// page does not pin its memory.
const maxPooled = 1 << 20

// parse parses body and reports in which of the situations the package
// comment lists, if any, the result may differ from the tree builder's.
func parse(body []byte) (*Document, approx) {
	p := parsers.Get().(*parser)
	defer p.release()
	p.reset(body)
	if p.b.run() {
		return p.w.document(), p.w.approx
	}
	// Nested deeper than x/net/html accepts: read it token by token.
	p.reset(body)
	p.w.tokens(&p.z)
	return p.w.document(), 0
}

func (p *parser) reset(body []byte) {
	p.z.reset(body)
	p.w.reset()
	b := &p.b
	*b = builder{
		z: &p.z, w: &p.w,
		oe: b.oe[:0], afe: b.afe[:0], detached: b.detached[:0], templateIMs: b.templateIMs[:0],
		names: b.names[:0], pairs: b.pairs[:0], attrScratch: b.attrScratch[:0],
		tagZ: tokenizer{attrs: b.tagZ.attrs[:0]}, encMine: b.encMine[:0], encTheirs: b.encTheirs[:0],
		nameBuf: b.nameBuf, textBuf: b.textBuf, nulBuf: b.nulBuf,
	}
}

func (w *walker) reset() {
	*w = walker{
		strs: w.strs[:0], refs: w.refs[:0], preps: w.preps[:0], robots: w.robots[:0],
		body: textBuf{b: w.body.b[:0]}, anchors: w.anchors[:0], marks: w.marks[:0], alts: w.alts[:0], carry: w.carry[:0],
		joinBuf: w.joinBuf[:0], logs: w.logs[:0], logText: w.logText[:0],
		tmp: textBuf{b: w.tmp.b[:0]}, vals: w.vals,
	}
}

// release returns p to the pool unless it grew too large to keep.
func (p *parser) release() {
	p.z.in, p.b.tagZ.in = nil, nil
	if cap(p.w.strs) > maxPooled || cap(p.w.body.b) > maxPooled || cap(p.w.logText) > maxPooled ||
		cap(p.b.textBuf) > maxPooled || cap(p.b.names) > maxPooled || cap(p.b.oe) > 4*maxOpen ||
		cap(p.w.logs) > 64 || cap(p.w.anchors) > 64 {
		return
	}
	for _, a := range p.w.anchors[:cap(p.w.anchors)] {
		if cap(a.text.b) > maxPooled {
			return
		}
	}
	parsers.Put(p)
}

// document builds the Document. Its strings other than Text share one
// allocation, Text has its own: a kept reference does not pin the text.
func (w *walker) document() *Document {
	w.flushCarry()
	robots := w.keep(w.robots)
	s := string(w.strs)
	sub := func(x span) string { return s[x.start:x.end] }
	h := &w.head
	d := &Document{
		Title: sub(h.title), Description: sub(h.description), Keywords: sub(h.keywords),
		Author: sub(h.author), Robots: sub(robots), Base: sub(h.base), Refresh: sub(h.refresh),
		Text: string(w.body.b), NoFollow: h.noFollow, NoIndex: h.noIndex,
	}
	if len(w.refs) > 0 {
		d.Refs = make([]Ref, len(w.refs))
		for i, r := range w.refs {
			d.Refs[i] = Ref{Href: sub(r.href), Kind: kinds[r.kind], Text: sub(r.text), NoFollow: r.nofollow}
		}
	}
	return d
}

// snapshot is the walker's state before a body is added for content that
// does not belong in the head, kept because a <frameset> that follows
// drops that body with all it holds.
type snapshot struct {
	head                   headState
	robots, refs, body     int
	pending                bool
	inBody, noText, anchor int
	marks, alts            int
}

func (w *walker) snapshot() {
	w.saved = snapshot{
		head: w.head, robots: len(w.robots), refs: len(w.refs), body: len(w.body.b),
		pending: w.body.pending, inBody: w.inBody, noText: w.noText, anchor: len(w.anchors),
		marks: len(w.marks), alts: len(w.alts),
	}
}

func (w *walker) restore() {
	s := &w.saved
	w.head, w.robots, w.refs = s.head, w.robots[:s.robots], w.refs[:s.refs]
	w.body.b, w.body.pending = w.body.b[:s.body], s.pending
	w.inBody, w.noText, w.anchors = s.inBody, s.noText, w.anchors[:s.anchor]
	w.marks, w.alts = w.marks[:s.marks], w.alts[:s.alts]
	w.carry = w.carry[:0]
}
