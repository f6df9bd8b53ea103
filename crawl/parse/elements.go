package parse

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// start handles the start of an HTML element (not <title>, which the tree
// walk and the tokenizer each read their own way).
func (w *walker) start(tag atom.Atom, attrs []html.Attribute) {
	switch tag {
	case atom.A:
		w.pushAnchor(w.ref(A, attr(attrs, "href"), attrs, ""))
	case atom.Area:
		w.ref(Area, attr(attrs, "href"), attrs, attr(attrs, "alt"))
	case atom.Frame:
		w.ref(Frame, attr(attrs, "src"), attrs, "")
	case atom.Iframe:
		w.ref(IFrame, attr(attrs, "src"), attrs, "")
	case atom.Img:
		w.img(attrs)
	case atom.Script:
		w.ref(Script, attr(attrs, "src"), attrs, "")
	case atom.Link:
		w.ref(Link, attr(attrs, "href"), attrs, "")
	case atom.Embed, atom.Audio, atom.Video, atom.Source:
		w.ref(Embed, attr(attrs, "src"), attrs, "")
	case atom.Object:
		w.ref(Embed, attr(attrs, "data"), attrs, "")
	case atom.Applet:
		w.ref(Applet, appletHref(attr(attrs, "code"), attr(attrs, "codebase")), attrs, attr(attrs, "alt"))
	case atom.Body:
		w.inBody++
		w.ref(Background, attr(attrs, "background"), attrs, "")
	case atom.Base:
		if href, ok := lookup(attrs, "href"); ok && !w.baseSet {
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

// ref records a reference unless href is empty and returns its index in
// doc.Refs (-1 when skipped). text is the element's own description (alt);
// the title attribute stands in when it is empty.
func (w *walker) ref(kind Kind, href string, attrs []html.Attribute, text string) int {
	href = trim(href)
	if href == "" {
		return -1
	}
	r := Ref{Href: href, Kind: kind, Text: refText(text)}
	if r.Text == "" {
		r.Text = refText(attr(attrs, "title"))
	}
	if rel := attr(attrs, "rel"); rel != "" {
		r.NoFollow = hasToken(rel, "nofollow")
	}
	w.doc.Refs = append(w.doc.Refs, r)
	return len(w.doc.Refs) - 1
}

// img records an image, taking the first srcset candidate when there is no
// src, and offers its alt text to the anchors around it.
func (w *walker) img(attrs []html.Attribute) {
	src := attr(attrs, "src")
	if trim(src) == "" {
		src = firstSrcset(attr(attrs, "srcset"))
	}
	alt := attr(attrs, "alt")
	w.ref(Img, src, attrs, alt)
	if alt == "" || len(w.anchors) == 0 {
		return
	}
	alt = refText(alt)
	for i := range w.anchors {
		if w.anchors[i].alt == "" {
			w.anchors[i].alt = alt
		}
	}
}

// meta reads <meta name=... content=...> and <meta http-equiv=refresh>.
func (w *walker) meta(attrs []html.Attribute) {
	name, content := trim(attr(attrs, "name")), attr(attrs, "content")
	d := w.doc
	switch {
	case name == "":
		if d.Refresh == "" && strings.EqualFold(trim(attr(attrs, "http-equiv")), "refresh") {
			d.Refresh = refreshURL(content)
		}
	case strings.EqualFold(name, "description"):
		setFirst(&d.Description, content)
	case strings.EqualFold(name, "keywords"):
		setFirst(&d.Keywords, content)
	case strings.EqualFold(name, "author"):
		setFirst(&d.Author, content)
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
func (w *walker) robots(content string) {
	none := hasToken(content, "none")
	w.doc.NoIndex = w.doc.NoIndex || none || hasToken(content, "noindex")
	w.doc.NoFollow = w.doc.NoFollow || none || hasToken(content, "nofollow")
}

func setFirst(dst *string, content string) {
	if *dst == "" {
		*dst = NormalizeText(content)
	}
}

// attr returns the value of the attribute named key, or "".
func attr(attrs []html.Attribute, key string) string {
	v, _ := lookup(attrs, key)
	return v
}

func lookup(attrs []html.Attribute, key string) (string, bool) {
	for i := range attrs {
		if attrs[i].Key == key && attrs[i].Namespace == "" {
			return attrs[i].Val, true
		}
	}
	return "", false
}

// trim strips ASCII white space, as HTML does around URLs.
func trim(s string) string { return strings.Trim(s, " \t\n\f\r") }

// appletHref joins an applet's code to its codebase: code is relative to
// the codebase, so "classes" and "Clock.class" give "classes/Clock.class".
// A code that is an absolute URL is returned alone.
func appletHref(code, codebase string) string {
	code, codebase = trim(code), trim(codebase)
	if code == "" || codebase == "" || hasScheme(code) {
		return code
	}
	return strings.TrimRight(codebase, "/") + "/" + strings.TrimLeft(code, "/")
}

// hasScheme reports whether s starts with a URL scheme and a colon.
func hasScheme(s string) bool {
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

// firstSrcset returns the URL of the first candidate of a srcset list.
func firstSrcset(s string) string {
	s = strings.TrimLeft(s, " \t\n\f\r,")
	if i := strings.IndexAny(s, " \t\n\f\r"); i >= 0 {
		s = s[:i]
	}
	return strings.TrimRight(s, ",")
}

// refreshURL returns the URL of a meta refresh content such as
// "5; url='/next'", or "" when it names none.
func refreshURL(content string) string {
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

// isBlock reports whether an element separates words in the body text.
func isBlock(tag atom.Atom) bool {
	switch tag {
	case atom.Address, atom.Article, atom.Aside, atom.Blockquote, atom.Br,
		atom.Button, atom.Caption, atom.Center, atom.Dd, atom.Details,
		atom.Dialog, atom.Dir, atom.Div, atom.Dl, atom.Dt, atom.Fieldset,
		atom.Figcaption, atom.Figure, atom.Footer, atom.Form, atom.H1,
		atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Header,
		atom.Hgroup, atom.Hr, atom.Legend, atom.Li, atom.Main, atom.Menu,
		atom.Nav, atom.Ol, atom.Optgroup, atom.Option, atom.P, atom.Pre,
		atom.Section, atom.Select, atom.Summary, atom.Table, atom.Tbody,
		atom.Td, atom.Textarea, atom.Tfoot, atom.Th, atom.Thead, atom.Tr,
		atom.Ul:
		return true
	}
	return false
}
