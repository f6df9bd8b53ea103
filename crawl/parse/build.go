package parse

import (
	"golang.org/x/net/html/atom"
)

// The builder runs the HTML5 tree-construction algorithm as
// golang.org/x/net/html implements it (insertion modes, implied tags,
// scopes, active formatting elements, foster parenting, foreign content,
// with scripting disabled) over a stack of small element records instead
// of a tree. Where the tree builder would add a node, the builder tells
// the walker (walker.go) which element opened or closed or what text
// arrived, in the order a walk over the finished tree would meet them.
// The functions in the mode_*.go files follow x/net/html's parse.go one
// for one, so that a difference shows up as a line that reads differently.

// ns is an element's namespace.
type ns uint8

const (
	nsHTML ns = iota
	nsSVG
	nsMath
)

// elemFlags hold what the builder and walker need to know of an element.
type elemFlags uint16

const (
	fSpecial         elemFlags = 1 << iota // in the "special" category
	fHTMLPoint                             // an HTML integration point
	fMathText                              // a MathML text integration point
	fHasChild                              // has had a child (pre, listing, textarea)
	fLastText                              // its last child is text, which new text joins
	fVisited                               // the tree walk enters it
	fWalked                                // the tree walk enters its children
	fRegion                                // foster-parented into a template or <html>, or inside such an element
	fDisplaced                             // left open before a block the adoption agency moved, or inside it
	fPrevText                              // (tables) the node before it is text
	fParentWalked                          // (tables) the walk enters its parent's children
	fParentRegion                          // (tables) its parent has fRegion
	fParentDisplaced                       // (tables) its parent has fDisplaced
)

// elem is one entry of the stack of open elements.
type elem struct {
	atom    atom.Atom
	id      int32
	name    span // in builder.names, for elements without an atom
	ns      ns
	flags   elemFlags
	stream  int16 // where its children's events go (see stream.go)
	pstream int16 // (tables) where its parent's children's events go
	carry   int32 // detached elements closing with it (builder.detached), -1 none
	prep    int32 // its walker record (prep.go), -1 none
}

func (e *elem) is(f elemFlags) bool { return e.flags&f != 0 }

// token is the token being processed, which insertion modes may rewrite
// (strip text, rename a tag) before handing it on.
type token struct {
	typ   tokenType // selfClosingTagToken is folded into startTagToken
	atom  atom.Atom
	name  []byte // lower case; nil for implied tokens, which have an atom
	text  []byte
	attrs bool // the tokenizer's current attributes belong to it
}

// builder is the tree-construction state.
type builder struct {
	z *tokenizer
	w *walker

	tok         token
	selfClosing bool // the tag was self-closing and that is not yet acknowledged
	oe          []elem
	afe         []fmtEntry
	detached    []detached
	head        elem // the head element, once there is one
	hasHead     bool
	form        int32 // id of the form element pointer, 0 for none
	lastID      int32
	framesetOK  bool
	quirks      bool
	fostering   bool // inTable's "anything else": insert by foster parenting
	im          mode
	originalIM  mode
	templateIMs []mode
	names       []byte    // names of elements that have no atom
	tagZ        tokenizer // reads formatting elements' tags again (encodeTag)
	encMine     []byte
	encTheirs   []byte
	pairs       [][2]span
	attrScratch []byte
	nameBuf     []byte
	textBuf     []byte
	nulBuf      []byte
}

// tooDeep stops the builder as x/net/html stops, when the stack of
// open elements would exceed 512 entries.
type tooDeep struct{}

const maxOpen = 512

// xnetCheck is a panic where x/net/html's tree builder panics on a
// consistency check of its own (and so fails, leaving the page to the
// fallback).
type xnetCheck string

// panicHook, when set (by tests), sees panics other than tooDeep and
// xnetCheck, which would be bugs of this package.
var panicHook func(any)

// run builds the page and reports whether it could: x/net/html's tree
// builder returns an error, and the page is read by the fallback, when the
// stack grows too deep or one of its consistency checks fails, and the
// builder panics in the same places. (A panic of this package's own, a
// bug, ends the same way in production; tests see it through panicHook.)
func (b *builder) run() (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			_, deep := r.(tooDeep)
			_, check := r.(xnetCheck)
			if !deep && !check && panicHook != nil {
				panicHook(r)
			}
			ok = false
		}
	}()
	b.framesetOK, b.im = true, initialIM
	for {
		top := b.top()
		b.z.allowCDATA = top != nil && top.ns != nsHTML
		tt := b.z.next()
		b.setToken(tt)
		b.parseCurrentToken()
		if tt == errorToken {
			b.finish()
			return true
		}
	}
}

// setToken reads the tokenizer's current token into b.tok.
func (b *builder) setToken(tt tokenType) {
	b.tok = token{typ: tt}
	switch tt {
	case textToken, doctypeToken:
		b.tok.text = b.z.text(&b.textBuf)
	case startTagToken, selfClosingTagToken, endTagToken:
		b.tok.name, b.tok.atom = b.z.tagName(&b.nameBuf)
		b.tok.attrs = tt != endTagToken && len(b.z.attrs) > 0
	}
}

// parseCurrentToken runs the token through the insertion modes until one
// consumes it.
func (b *builder) parseCurrentToken() {
	if b.tok.typ == selfClosingTagToken {
		b.selfClosing = true
		b.tok.typ = startTagToken
	}
	for consumed := false; !consumed; {
		if b.inForeignContent() {
			consumed = b.foreignContent()
		} else {
			consumed = b.step(b.im)
		}
	}
	b.selfClosing = false
}

// parseImpliedToken processes a tag the page left out, such as <tbody>.
func (b *builder) parseImpliedToken(typ tokenType, a atom.Atom) {
	real, sc := b.tok, b.selfClosing
	b.tok, b.selfClosing = token{typ: typ, atom: a}, false
	b.parseCurrentToken()
	b.tok, b.selfClosing = real, sc
}

// tokName is the name of a tag without an atom, else nil.
func (b *builder) tokName() []byte {
	if b.tok.atom != 0 {
		return nil
	}
	return b.tok.name
}

func (b *builder) top() *elem {
	if n := len(b.oe); n > 0 {
		return &b.oe[n-1]
	}
	return nil
}

// index returns the position of element id in the stack, or -1.
func (b *builder) index(id int32) int {
	for i := len(b.oe) - 1; i >= 0; i-- {
		if b.oe[i].id == id {
			return i
		}
	}
	return -1
}

// contains reports whether an HTML element of atom a is open.
func (b *builder) contains(a atom.Atom) bool {
	for i := range b.oe {
		if b.oe[i].atom == a && b.oe[i].ns == nsHTML {
			return true
		}
	}
	return false
}

// elemName is e's tag name as x/net/html keeps it in Node.Data, up to
// letter case.
func (b *builder) elemName(e *elem) []byte {
	if e.atom != 0 {
		return nil
	}
	return b.names[e.name.start:e.name.end]
}

// scope is a kind of element scope (HTML §13.2.4.2).
type scope uint8

const (
	defaultScope scope = iota
	listItemScope
	buttonScope
	tableScope
	tableRowScope
	tableBodyScope
)

// indexInScope returns the position of the topmost HTML element with one
// of the atoms that is in scope s, or -1.
func (b *builder) indexInScope(s scope, atoms ...atom.Atom) int {
	for i := len(b.oe) - 1; i >= 0; i-- {
		e := &b.oe[i]
		a := e.atom
		if e.ns == nsHTML {
			for _, t := range atoms {
				if t == a {
					return i
				}
			}
			switch s {
			case listItemScope:
				if a == atom.Ol || a == atom.Ul {
					return -1
				}
			case buttonScope:
				if a == atom.Button {
					return -1
				}
			case tableScope:
				if a == atom.Html || a == atom.Table || a == atom.Template {
					return -1
				}
			}
		}
		if s <= buttonScope && isScopeStop(e) {
			return -1
		}
	}
	return -1
}

// isScopeStop reports whether e bounds the default scope.
func isScopeStop(e *elem) bool {
	switch e.ns {
	case nsHTML:
		switch e.atom {
		case atom.Applet, atom.Caption, atom.Html, atom.Table, atom.Td, atom.Th,
			atom.Marquee, atom.Object, atom.Template, atom.Select:
			return true
		}
	case nsMath:
		switch e.atom {
		case atom.AnnotationXml, atom.Mi, atom.Mn, atom.Mo, atom.Ms, atom.Mtext:
			return true
		}
	case nsSVG:
		switch e.atom {
		case atom.Desc, atom.ForeignObject, atom.Title:
			return true
		}
	}
	return false
}

func (b *builder) inScope(s scope, atoms ...atom.Atom) bool {
	return b.indexInScope(s, atoms...) != -1
}

// popUntil pops up to and including the topmost element with one of the
// atoms in scope s and reports whether there was one.
func (b *builder) popUntil(s scope, atoms ...atom.Atom) bool {
	if i := b.indexInScope(s, atoms...); i != -1 {
		b.popTo(i)
		return true
	}
	return false
}

// clearStackToContext pops down to the nearest element that bounds s.
func (b *builder) clearStackToContext(s scope) {
	for i := len(b.oe) - 1; i >= 0; i-- {
		switch a := b.oe[i].atom; s {
		case tableScope:
			if a == atom.Html || a == atom.Table || a == atom.Template {
				b.popTo(i + 1)
				return
			}
		case tableRowScope:
			if a == atom.Html || a == atom.Tr || a == atom.Template {
				b.popTo(i + 1)
				return
			}
		case tableBodyScope:
			if a == atom.Html || a == atom.Tbody || a == atom.Tfoot || a == atom.Thead || a == atom.Template {
				b.popTo(i + 1)
				return
			}
		}
	}
}

// generateImpliedEndTags pops elements whose end tag may be left out (p,
// li, option, ...), except one of atom except.
func (b *builder) generateImpliedEndTags(except atom.Atom) {
	i := len(b.oe) - 1
	for ; i >= 0; i-- {
		switch a := b.oe[i].atom; a {
		case atom.Dd, atom.Dt, atom.Li, atom.Optgroup, atom.Option, atom.P, atom.Rb, atom.Rp, atom.Rt, atom.Rtc:
			if a != except {
				continue
			}
		}
		break
	}
	b.popTo(i + 1)
}

// isSpecial reports whether an element is in the "special" category.
func isSpecial(a atom.Atom, n ns) bool {
	switch n {
	case nsMath:
		switch a {
		case atom.Mi, atom.Mo, atom.Mn, atom.Ms, atom.Mtext, atom.AnnotationXml:
			return true
		}
		return false
	case nsSVG:
		return a == atom.ForeignObject || a == atom.Desc || a == atom.Title
	}
	switch a {
	case atom.Address, atom.Applet, atom.Area, atom.Article, atom.Aside, atom.Base,
		atom.Basefont, atom.Bgsound, atom.Blockquote, atom.Body, atom.Br, atom.Button,
		atom.Caption, atom.Center, atom.Col, atom.Colgroup, atom.Dd, atom.Details,
		atom.Dir, atom.Div, atom.Dl, atom.Dt, atom.Embed, atom.Fieldset, atom.Figcaption,
		atom.Figure, atom.Footer, atom.Form, atom.Frame, atom.Frameset, atom.H1, atom.H2,
		atom.H3, atom.H4, atom.H5, atom.H6, atom.Head, atom.Header, atom.Hgroup, atom.Hr,
		atom.Html, atom.Iframe, atom.Img, atom.Input, atom.Keygen, atom.Li, atom.Link,
		atom.Listing, atom.Main, atom.Marquee, atom.Menu, atom.Meta, atom.Nav,
		atom.Noembed, atom.Noframes, atom.Noscript, atom.Object, atom.Ol, atom.P,
		atom.Param, atom.Plaintext, atom.Pre, atom.Script, atom.Section, atom.Select,
		atom.Source, atom.Style, atom.Summary, atom.Table, atom.Tbody, atom.Td,
		atom.Template, atom.Textarea, atom.Tfoot, atom.Th, atom.Thead, atom.Title,
		atom.Tr, atom.Track, atom.Ul, atom.Wbr, atom.Xmp:
		return true
	}
	return false
}
