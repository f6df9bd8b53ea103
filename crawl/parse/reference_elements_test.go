package parse

// The tree-builder implementation's handling of elements (see
// reference_test.go).

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// start handles the start of an HTML element (not <title>, which the tree
// walk and the tokenizer each read their own way).
func (w *treeWalker) start(tag atom.Atom, attrs []html.Attribute) {
	switch tag {
	case atom.A:
		w.pushAnchor(w.ref(A, treeAttr(attrs, "href"), attrs, ""))
	case atom.Area:
		w.ref(Area, treeAttr(attrs, "href"), attrs, treeAttr(attrs, "alt"))
	case atom.Frame:
		w.ref(Frame, treeAttr(attrs, "src"), attrs, "")
	case atom.Iframe:
		w.ref(IFrame, treeAttr(attrs, "src"), attrs, "")
	case atom.Img:
		w.img(attrs)
	case atom.Script:
		w.ref(Script, treeAttr(attrs, "src"), attrs, "")
	case atom.Link:
		w.ref(Link, treeAttr(attrs, "href"), attrs, "")
	case atom.Embed, atom.Audio, atom.Video, atom.Source:
		w.ref(Embed, treeAttr(attrs, "src"), attrs, "")
	case atom.Object:
		w.ref(Embed, treeAttr(attrs, "data"), attrs, "")
	case atom.Applet:
		w.ref(Applet, treeAppletHref(treeAttr(attrs, "code"), treeAttr(attrs, "codebase")), attrs, treeAttr(attrs, "alt"))
	case atom.Body:
		w.inBody++
		w.ref(Background, treeAttr(attrs, "background"), attrs, "")
	case atom.Base:
		if href, ok := treeLookup(attrs, "href"); ok && !w.baseSet {
			w.baseSet = true
			w.doc.Base = trim(href)
		}
	case atom.Meta:
		if !w.headRead {
			w.meta(attrs)
		}
	case atom.Noscript, atom.Nav: // a <nav>'s menus are not the page's text; its links stay
		w.noText++
	}
	if isBlock(tag) {
		w.sep()
	}
}

// end handles the end of an element whose start was handled.
func (w *treeWalker) end(tag atom.Atom) {
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

// ref records a reference unless href is empty and returns its index in
// doc.Refs (-1 when skipped). text is the element's own description (alt);
// the title attribute stands in when it is empty.
func (w *treeWalker) ref(kind Kind, href string, attrs []html.Attribute, text string) int {
	href = trim(href)
	if href == "" {
		return -1
	}
	r := Ref{Href: href, Kind: kind, Text: treeRefText(text)}
	if r.Text == "" {
		r.Text = treeRefText(treeAttr(attrs, "title"))
	}
	if rel := treeAttr(attrs, "rel"); rel != "" {
		r.NoFollow = hasToken(rel, "nofollow")
	}
	w.doc.Refs = append(w.doc.Refs, r)
	return len(w.doc.Refs) - 1
}

// img records an image, taking the first srcset candidate when there is no
// src, and offers its alt text to the anchors around it.
func (w *treeWalker) img(attrs []html.Attribute) {
	src := treeAttr(attrs, "src")
	if trim(src) == "" {
		src = treeFirstSrcset(treeAttr(attrs, "srcset"))
	}
	alt := treeAttr(attrs, "alt")
	w.ref(Img, src, attrs, alt)
	if alt == "" || len(w.anchors) == 0 {
		return
	}
	alt = treeRefText(alt)
	for i := range w.anchors {
		if w.anchors[i].alt == "" {
			w.anchors[i].alt = alt
		}
	}
}

// meta reads <meta name=... content=...> and <meta http-equiv=refresh>.
func (w *treeWalker) meta(attrs []html.Attribute) {
	name, content := trim(treeAttr(attrs, "name")), treeAttr(attrs, "content")
	d := w.doc
	switch {
	case name == "":
		if d.Refresh == "" && strings.EqualFold(trim(treeAttr(attrs, "http-equiv")), "refresh") {
			d.Refresh = treeRefreshURL(content)
		}
	case strings.EqualFold(name, "description"):
		treeSetFirst(&d.Description, content)
	case strings.EqualFold(name, "keywords"):
		treeSetFirst(&d.Keywords, content)
	case strings.EqualFold(name, "author"):
		treeSetFirst(&d.Author, content)
	case strings.EqualFold(name, "robots"):
		if c := NormalizeText(content); c != "" {
			if d.Robots != "" {
				d.Robots += ", "
			}
			d.Robots += c
		}
		w.robots(content)
	case strings.EqualFold(name, "trawler"):
		w.robots(content)
	}
}

// robots applies meta robots directives; they only ever add restrictions.
func (w *treeWalker) robots(content string) {
	none := hasToken(content, "none")
	w.doc.NoIndex = w.doc.NoIndex || none || hasToken(content, "noindex")
	w.doc.NoFollow = w.doc.NoFollow || none || hasToken(content, "nofollow")
}

func treeSetFirst(dst *string, content string) {
	if *dst == "" {
		*dst = NormalizeText(content)
	}
}

// attr returns the value of the attribute named key, or "".
func treeAttr(attrs []html.Attribute, key string) string {
	v, _ := treeLookup(attrs, key)
	return v
}

func treeLookup(attrs []html.Attribute, key string) (string, bool) {
	for i := range attrs {
		if attrs[i].Key == key && attrs[i].Namespace == "" {
			return attrs[i].Val, true
		}
	}
	return "", false
}

// trim strips ASCII white space, as HTML does around URLs.
func trim(s string) string { return strings.Trim(s, " \t\n\f\r") }

// treeAppletHref joins an applet's code to its codebase: code is relative to
// the codebase, so "classes" and "Clock.class" give "classes/Clock.class".
// A code that is an absolute URL is returned alone.
func treeAppletHref(code, codebase string) string {
	code, codebase = trim(code), trim(codebase)
	if code == "" || codebase == "" || treeHasScheme(code) {
		return code
	}
	return strings.TrimRight(codebase, "/") + "/" + strings.TrimLeft(code, "/")
}

// treeHasScheme reports whether s starts with a URL scheme and a colon.
func treeHasScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		case c == ':':
			return i > 0
		default:
			return false
		}
	}
	return false
}

// treeFirstSrcset returns the URL of the first candidate of a srcset list.
func treeFirstSrcset(s string) string {
	s = strings.TrimLeft(s, " \t\n\f\r,")
	if i := strings.IndexAny(s, " \t\n\f\r"); i >= 0 {
		s = s[:i]
	}
	return strings.TrimRight(s, ",")
}

// treeRefreshURL returns the URL of a meta refresh content such as
// "5; url='/next'", or "" when it names none.
func treeRefreshURL(content string) string {
	s := strings.TrimLeft(content, " \t\n\f\r0123456789.")
	s = strings.TrimLeft(s, " \t\n\f\r")
	if s == "" || (s[0] != ';' && s[0] != ',') {
		return ""
	}
	s = trim(s[1:])
	if len(s) >= 3 && strings.EqualFold(s[:3], "url") {
		if rest := strings.TrimLeft(s[3:], " \t\n\f\r"); strings.HasPrefix(rest, "=") {
			s = strings.TrimLeft(rest[1:], " \t\n\f\r")
		}
	}
	if s != "" && (s[0] == '"' || s[0] == '\'') {
		if i := strings.IndexByte(s[1:], s[0]); i >= 0 {
			s = s[1 : 1+i]
		} else {
			s = s[1:]
		}
	}
	return trim(s)
}
