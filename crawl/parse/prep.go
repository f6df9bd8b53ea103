package parse

import (
	"bytes"

	"golang.org/x/net/html/atom"
)

// A prep is what the walker needs of an element's attributes, read when
// the start tag is the tokenizer's current token: the reference it makes,
// the alt text it offers, its head data. It depends on nothing but the
// tag, so it can be made before the element's place in tree order is
// known, and shared by the clones the tree builder makes of an <a>.
type prep struct {
	ref     refRec
	alt     span // <img>: its alt text, offered to the anchors around it
	base    span // <base>: its href
	hasBase bool
	meta    metaRec
	body    bodyAttrs
}

// metaField says what a <meta> element sets.
type metaField uint8

const (
	metaNone metaField = iota
	metaRefresh
	metaDescription
	metaKeywords
	metaAuthor
	metaRobots
	metaTrawler
)

// metaRec is a <meta> element: the field it sets with its content, as
// NormalizeText returns it (or the refresh URL), and its robots directives.
type metaRec struct {
	field             metaField
	content           span
	noIndex, noFollow bool
}

// bodyAttrs are the attributes of <body> that make its reference, kept
// because a later <body> tag may add the missing ones.
type bodyAttrs struct {
	background, title, rel          span
	hasBackground, hasTitle, hasRel bool
	refAt                           int // where its reference goes in refs
}

// prepare reads the current start tag's attributes for an element of atom
// a and namespace n, returning the index of its prep or -1 for none.
func (w *walker) prepare(z *tokenizer, a atom.Atom, n ns) int32 {
	var p prep
	if n != nsHTML {
		if a != atom.Base {
			return -1
		}
		// goquery compares attribute names without their namespace.
		for i := range z.attrs {
			if z.keyIs(i, "href") || z.keyIs(i, "xlink:href") {
				p.base, p.hasBase = w.keep(trimBytes(z.attrVal(i, &w.vals[0]))), true
				break
			}
		}
		return w.addPrep(&p)
	}
	switch a {
	case atom.A:
		p.ref = w.makeRef(z, kindA, "href", nil)
	case atom.Area:
		p.ref = w.makeRef(z, kindArea, "href", w.attr(z, "alt", 1))
	case atom.Frame:
		p.ref = w.makeRef(z, kindFrame, "src", nil)
	case atom.Iframe:
		p.ref = w.makeRef(z, kindIFrame, "src", nil)
	case atom.Script:
		p.ref = w.makeRef(z, kindScript, "src", nil)
	case atom.Link:
		p.ref = w.makeRef(z, kindLink, "href", nil)
	case atom.Embed, atom.Audio, atom.Video, atom.Source:
		p.ref = w.makeRef(z, kindEmbed, "src", nil)
	case atom.Object:
		p.ref = w.makeRef(z, kindEmbed, "data", nil)
	case atom.Img:
		w.prepareImg(z, &p)
	case atom.Applet:
		code := trimBytes(w.attr(z, "code", 2))
		codebase := trimBytes(w.attr(z, "codebase", 3))
		w.vals[0] = appletHref(w.vals[0][:0], code, codebase)
		p.ref = w.refFrom(z, kindApplet, w.vals[0], w.attr(z, "alt", 1))
	case atom.Body:
		w.prepareBody(z, &p)
	case atom.Base:
		if i := z.find("href"); i >= 0 {
			p.base, p.hasBase = w.keep(trimBytes(z.attrVal(i, &w.vals[0]))), true
		}
	case atom.Meta:
		w.prepareMeta(z, &p)
	default:
		return -1
	}
	return w.addPrep(&p)
}

func (w *walker) addPrep(p *prep) int32 {
	w.preps = append(w.preps, *p)
	return int32(len(w.preps) - 1)
}

// attr returns the value of the attribute named key, decoded into
// w.vals[buf], or nil.
func (w *walker) attr(z *tokenizer, key string, buf int) []byte {
	if i := z.find(key); i >= 0 {
		return z.attrVal(i, &w.vals[buf])
	}
	return nil
}

// makeRef makes the reference of an element whose URL is attribute
// hrefKey; text is its own description, if any.
func (w *walker) makeRef(z *tokenizer, kind kindID, hrefKey string, text []byte) refRec {
	return w.refFrom(z, kind, w.attr(z, hrefKey, 0), text)
}

// refFrom makes a reference to href unless it is empty. The title
// attribute describes it when text is empty.
func (w *walker) refFrom(z *tokenizer, kind kindID, href, text []byte) refRec {
	href = trimBytes(href)
	if len(href) == 0 {
		return refRec{}
	}
	r := refRec{href: w.keep(href), kind: kind, text: w.refText(text)}
	if r.text.end == r.text.start {
		r.text = w.refText(w.attr(z, "title", 2))
	}
	if rel := w.attr(z, "rel", 2); len(rel) > 0 {
		r.nofollow = hasToken(rel, "nofollow")
	}
	return r
}

// refText keeps s normalized and cut to MaxRefText bytes.
func (w *walker) refText(s []byte) span {
	if len(s) == 0 {
		return span{}
	}
	w.tmp.reset()
	w.tmp.addBytes(s)
	return w.keep(truncate(w.tmp.b, MaxRefText))
}

// prepareImg takes the src, or the first srcset candidate, and the alt.
func (w *walker) prepareImg(z *tokenizer, p *prep) {
	src := w.attr(z, "src", 0)
	if len(trimBytes(src)) == 0 {
		src = firstSrcset(w.attr(z, "srcset", 0))
	}
	alt := w.attr(z, "alt", 1)
	p.ref = w.refFrom(z, kindImg, src, alt)
	p.alt = w.refText(alt)
}

// prepareMeta reads <meta name=... content=...> and <meta http-equiv>.
func (w *walker) prepareMeta(z *tokenizer, p *prep) {
	name := trimBytes(w.attr(z, "name", 0))
	content := w.attr(z, "content", 1)
	m := &p.meta
	switch {
	case len(name) == 0:
		if equiv := trimBytes(w.attr(z, "http-equiv", 2)); bytes.EqualFold(equiv, []byte("refresh")) {
			m.field, m.content = metaRefresh, w.keep(refreshURL(content))
		}
	case bytes.EqualFold(name, []byte("description")):
		m.field, m.content = metaDescription, w.normalized(content)
	case bytes.EqualFold(name, []byte("keywords")):
		m.field, m.content = metaKeywords, w.normalized(content)
	case bytes.EqualFold(name, []byte("author")):
		m.field, m.content = metaAuthor, w.normalized(content)
	case bytes.EqualFold(name, []byte("robots")):
		m.field, m.content = metaRobots, w.normalized(content)
	case bytes.EqualFold(name, []byte("trawler")):
		m.field = metaTrawler
	}
	if m.field == metaRobots || m.field == metaTrawler {
		none := hasToken(content, "none")
		m.noIndex = none || hasToken(content, "noindex")
		m.noFollow = none || hasToken(content, "nofollow")
	}
}

// applyHead applies a <base> or <meta> in tree order.
func (w *walker) applyHead(p *prep) {
	h := &w.head
	if p.hasBase && !h.baseSet {
		h.baseSet, h.base = true, p.base
	}
	m := &p.meta
	setFirst := func(dst *span) {
		if dst.end == dst.start {
			*dst = m.content
		}
	}
	switch m.field {
	case metaRefresh:
		setFirst(&h.refresh)
	case metaDescription:
		setFirst(&h.description)
	case metaKeywords:
		setFirst(&h.keywords)
	case metaAuthor:
		setFirst(&h.author)
	case metaRobots:
		if c := w.strs[m.content.start:m.content.end]; len(c) > 0 {
			if len(w.robots) > 0 {
				w.robots = append(w.robots, ", "...)
			}
			w.robots = append(w.robots, c...)
		}
	}
	h.noIndex = h.noIndex || m.noIndex
	h.noFollow = h.noFollow || m.noFollow
}

// prepareBody keeps the attributes that make <body>'s reference.
func (w *walker) prepareBody(z *tokenizer, p *prep) {
	b := &p.body
	if i := z.find("background"); i >= 0 {
		b.background, b.hasBackground = w.keep(z.attrVal(i, &w.vals[0])), true
	}
	if i := z.find("title"); i >= 0 {
		b.title, b.hasTitle = w.keep(z.attrVal(i, &w.vals[0])), true
	}
	if i := z.find("rel"); i >= 0 {
		b.rel, b.hasRel = w.keep(z.attrVal(i, &w.vals[0])), true
	}
}

// startBody records <body>'s attributes and adds its reference.
func (w *walker) startBody(p *prep) {
	w.bodyEl = bodyAttrs{refAt: len(w.refs)}
	if p != nil {
		w.bodyEl = p.body
		w.bodyEl.refAt = len(w.refs)
	}
	if r := w.bodyRef(); r.kind != 0 {
		w.refs = append(w.refs, r)
	}
}

// bodyRef makes <body>'s reference from its attributes.
func (w *walker) bodyRef() refRec {
	b := &w.bodyEl
	href := b.background
	for href.start < href.end && isWhitespace(w.strs[href.start]) {
		href.start++
	}
	for href.end > href.start && isWhitespace(w.strs[href.end-1]) {
		href.end--
	}
	if href.end == href.start {
		return refRec{}
	}
	r := refRec{href: href, kind: kindBackground}
	r.text = w.refText(w.strs[b.title.start:b.title.end])
	if rel := w.strs[b.rel.start:b.rel.end]; len(rel) > 0 {
		r.nofollow = hasToken(rel, "nofollow")
	}
	return r
}

// mergeBody adds to <body> the attributes of a later <body> tag that it
// lacks, as the tree builder does, and updates its reference.
func (w *walker) mergeBody(z *tokenizer) {
	b := &w.bodyEl
	before := w.bodyRef()
	if i := z.find("background"); i >= 0 && !b.hasBackground {
		b.background, b.hasBackground = w.keep(z.attrVal(i, &w.vals[0])), true
	}
	if i := z.find("title"); i >= 0 && !b.hasTitle {
		b.title, b.hasTitle = w.keep(z.attrVal(i, &w.vals[0])), true
	}
	if i := z.find("rel"); i >= 0 && !b.hasRel {
		b.rel, b.hasRel = w.keep(z.attrVal(i, &w.vals[0])), true
	}
	after := w.bodyRef()
	switch {
	case after.kind == 0:
	case before.kind != 0:
		w.refs[b.refAt] = after
	default:
		w.refs = append(w.refs, refRec{})
		copy(w.refs[b.refAt+1:], w.refs[b.refAt:])
		w.refs[b.refAt] = after
		for i := range w.anchors {
			if w.anchors[i].ref >= b.refAt {
				w.anchors[i].ref++
			}
		}
	}
}
