package parse

import (
	"bytes"

	"golang.org/x/net/html/atom"
)

// trimBytes strips ASCII white space, as HTML does around URLs.
func trimBytes(s []byte) []byte { return bytes.Trim(s, " \t\n\f\r") }

// appletHref appends an applet's code joined to its codebase to dst: code
// is relative to the codebase, so "classes" and "Clock.class" give
// "classes/Clock.class". A code that is an absolute URL is taken alone.
// code and codebase are trimmed.
func appletHref(dst, code, codebase []byte) []byte {
	if len(code) == 0 || len(codebase) == 0 || hasScheme(code) {
		return append(dst, code...)
	}
	dst = append(dst, bytes.TrimRight(codebase, "/")...)
	dst = append(dst, '/')
	return append(dst, bytes.TrimLeft(code, "/")...)
}

// hasScheme reports whether s starts with a URL scheme and a colon.
func hasScheme(s []byte) bool {
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
func firstSrcset(s []byte) []byte {
	s = bytes.TrimLeft(s, " \t\n\f\r,")
	if i := bytes.IndexAny(s, " \t\n\f\r"); i >= 0 {
		s = s[:i]
	}
	return bytes.TrimRight(s, ",")
}

// refreshURL returns the URL of a meta refresh content such as
// "5; url='/next'", or nothing when it names none.
func refreshURL(content []byte) []byte {
	s := bytes.TrimLeft(content, " \t\n\f\r0123456789.")
	s = bytes.TrimLeft(s, " \t\n\f\r")
	if len(s) == 0 || (s[0] != ';' && s[0] != ',') {
		return nil
	}
	s = trimBytes(s[1:])
	if len(s) >= 3 && bytes.EqualFold(s[:3], []byte("url")) {
		if rest := bytes.TrimLeft(s[3:], " \t\n\f\r"); len(rest) > 0 && rest[0] == '=' {
			s = bytes.TrimLeft(rest[1:], " \t\n\f\r")
		}
	}
	if len(s) > 0 && (s[0] == '"' || s[0] == '\'') {
		if i := bytes.IndexByte(s[1:], s[0]); i >= 0 {
			s = s[1 : 1+i]
		} else {
			s = s[1:]
		}
	}
	return trimBytes(s)
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
