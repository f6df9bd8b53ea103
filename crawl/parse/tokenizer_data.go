package parse

import (
	"bytes"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// The accessors below return what x/net/html's Text, TagName and TagAttr
// return. The result is a slice of the page itself when it needs no
// change (the usual case), else it is decoded into *buf, which the caller
// owns and reuses; either way it is valid until the next call with that
// buffer or the next token.

// text returns the current text, comment or doctype token's data: line
// breaks normalized, NULs replaced where the tokenizer replaces them and
// character references decoded outside raw text.
func (z *tokenizer) text(buf *[]byte) []byte {
	s := z.in[z.data.start:z.data.end]
	nul := z.convertNUL || z.tt == commentToken
	if !needsWork(s, nul, !z.textIsRaw) {
		return s
	}
	b := appendClean((*buf)[:0], s, nul)
	if !z.textIsRaw && bytes.IndexByte(b, '&') >= 0 {
		// Unescape behind the decoded text, then move it into place.
		n := len(b)
		out, ok := unescape(b, b[:n], false)
		if !ok {
			out = append(b, html.UnescapeString(string(b[:n]))...)
		}
		b = append(out[:0], out[n:]...) // keeps the grown buffer
	}
	*buf = b
	return b
}

// needsWork reports whether s holds a carriage return, or a NUL to be
// replaced, or a character reference to be decoded.
func needsWork(s []byte, nul, refs bool) bool {
	if len(s) > 64 {
		return bytes.IndexByte(s, '\r') >= 0 || (refs && bytes.IndexByte(s, '&') >= 0) || (nul && bytes.IndexByte(s, 0) >= 0)
	}
	for _, c := range s {
		if c <= '&' && (c == '\r' || (c == '&' && refs) || (c == 0 && nul)) {
			return true
		}
	}
	return false
}

// appendClean appends s with "\r\n" and "\r" turned into "\n" and, when
// nul is set, NULs into U+FFFD.
func appendClean(dst, s []byte, nul bool) []byte {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
			dst = append(dst, '\n')
		case c == 0 && nul:
			dst = append(dst, "\ufffd"...)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// tagName returns the current tag's name in lower case, NULs replaced,
// and its atom (0 for a name that has none).
func (z *tokenizer) tagName(buf *[]byte) ([]byte, atom.Atom) {
	s := lowerName(z.in[z.data.start:z.data.end], buf)
	return s, atom.Lookup(s)
}

// lowerName returns s with ASCII letters lower-cased and NULs replaced,
// decoding into *buf only when it has to.
func lowerName(s []byte, buf *[]byte) []byte {
	clean := true
	for _, c := range s {
		if c == 0 || ('A' <= c && c <= 'Z') {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	b := (*buf)[:0]
	for _, c := range s {
		if c == 0 {
			b = append(b, "\ufffd"...)
		} else {
			b = append(b, lowerASCII(c))
		}
	}
	*buf = b
	return b
}

// attrKey returns attribute i's raw name; compare it with keyIs.
func (z *tokenizer) attrKey(i int) []byte {
	k := z.attrs[i].key
	return z.in[k.start:k.end]
}

// keyIs reports whether attribute i is named name (lower case, no NUL).
func (z *tokenizer) keyIs(i int, name string) bool { return equalLower(z.attrKey(i), name) }

// find returns the index of the attribute named name, or -1.
func (z *tokenizer) find(name string) int {
	for i := range z.attrs {
		if z.keyIs(i, name) {
			return i
		}
	}
	return -1
}

// attrVal returns attribute i's value: NULs replaced, line breaks
// normalized and character references decoded as in an attribute.
func (z *tokenizer) attrVal(i int, buf *[]byte) []byte {
	v := z.attrs[i].val
	s := z.in[v.start:v.end]
	if !needsWork(s, true, true) {
		return s
	}
	b := appendClean((*buf)[:0], s, true)
	if bytes.IndexByte(b, '&') >= 0 {
		n := len(b)
		out, ok := unescape(b, b[:n], true)
		if !ok {
			out = append(b, z.slowAttrVal(i)...)
		}
		b = append(out[:0], out[n:]...) // keeps the grown buffer
	}
	*buf = b
	return b
}

// slowAttrVal decodes attribute i with x/net/html itself, for a character
// reference this package does not know.
func (z *tokenizer) slowAttrVal(i int) []byte {
	t := html.NewTokenizer(bytes.NewReader(z.in[z.raw:z.pos]))
	t.Next()
	for j := 0; ; j++ {
		_, val, more := t.TagAttr()
		if j == i {
			return val
		}
		if !more {
			return nil
		}
	}
}

// attrName returns attribute i's name as x/net/html returns it: lower
// case, NULs replaced.
func (z *tokenizer) attrName(i int, buf *[]byte) []byte {
	k := z.attrs[i].key
	return lowerName(z.in[k.start:k.end], buf)
}

// seen reports whether an attribute already kept has the name k, compared
// as x/net/html compares them: ASCII letters folded, all else exact.
func (z *tokenizer) seen(k span) bool {
	key := z.in[k.start:k.end]
	if len(z.attrs) < 16 {
		for _, a := range z.attrs {
			if equalFoldASCII(z.in[a.key.start:a.key.end], key) {
				return true
			}
		}
		return false
	}
	// Past a few attributes, compare hashes first so that a tag with
	// thousands of attributes is not quadratic in its byte length.
	if len(z.dupes) < len(z.attrs) {
		for _, a := range z.attrs[len(z.dupes):] {
			z.dupes = append(z.dupes, foldHash(z.in[a.key.start:a.key.end]))
		}
	}
	h := foldHash(key)
	for i, d := range z.dupes {
		if d == h && equalFoldASCII(z.in[z.attrs[i].key.start:z.attrs[i].key.end], key) {
			return true
		}
	}
	z.dupes = append(z.dupes, h)
	return false
}

// foldHash is an FNV-1a hash of b with ASCII letters lower-cased.
func foldHash(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h = (h ^ uint64(lowerASCII(c))) * 1099511628211
	}
	return h
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// equalFoldASCII compares a and b with ASCII letters folded.
func equalFoldASCII(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if lowerASCII(a[i]) != lowerASCII(b[i]) {
			return false
		}
	}
	return true
}

// equalLower reports whether b lower-cased (ASCII) is s, itself lower case.
func equalLower(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range b {
		if lowerASCII(b[i]) != s[i] {
			return false
		}
	}
	return true
}
