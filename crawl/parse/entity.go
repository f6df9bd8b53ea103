package parse

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// Character references are decoded as golang.org/x/net/html decodes them,
// without its tables, which it does not export. This package knows every
// legacy name (those a page may write without the semicolon) and the
// common names with one; a name with a semicolon that it does not know
// makes unescape report failure, and the caller decodes the whole value
// with x/net/html itself. That only happens for rare names, so the usual
// page costs no allocation here.

// latin1Names are the legacy references for U+00A0 to U+00FF, in order.
const latin1Names = `nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not
	shy reg macr deg plusmn sup2 sup3 acute micro para middot cedil sup1 ordm raquo
	frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml Aring AElig Ccedil
	Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc
	Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave
	aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave
	iacute icirc iuml eth ntilde ograve oacute ocirc otilde ouml divide oslash
	ugrave uacute ucirc uuml yacute thorn yuml`

// commonNames are frequent references that need their semicolon.
var commonNames = map[string]rune{
	"apos": '\'', "trade": '™', "mdash": '—', "ndash": '–', "hellip": '…',
	"lsquo": '‘', "rsquo": '’', "ldquo": '“', "rdquo": '”', "sbquo": '‚',
	"bdquo": '„', "bull": '•', "euro": '€', "dagger": '†', "Dagger": '‡',
	"permil": '‰', "lsaquo": '‹', "rsaquo": '›', "larr": '←', "rarr": '→',
	"uarr": '↑', "darr": '↓', "harr": '↔', "hearts": '♥', "ensp": '\u2002',
	"emsp": '\u2003', "thinsp": '\u2009', "zwnj": '\u200c', "zwj": '\u200d',
	"lrm": '\u200e', "rlm": '\u200f', "minus": '−', "prime": '′', "Prime": '″',
	"frasl": '⁄', "infin": '∞', "ne": '≠', "le": '≤', "ge": '≥', "asymp": '≈',
	"star": '☆', "starf": '★', "check": '✓', "loz": '◊', "spades": '♠',
	"clubs": '♣', "diams": '♦', "sim": '∼', "alpha": 'α', "beta": 'β',
	"pi": 'π', "mu": 'μ', "Omega": 'Ω', "circ": 'ˆ', "tilde": '˜',
}

// entities maps reference names to their rune. Legacy names appear with
// and without the semicolon; the others only with it.
var entities = func() map[string]rune {
	m := make(map[string]rune, 2*106+len(commonNames))
	legacy := func(name string, r rune) {
		m[name] = r
		m[name+";"] = r
	}
	for i, name := range strings.Fields(latin1Names) {
		legacy(name, rune(0xA0+i))
	}
	for _, s := range []string{"amp&", "AMP&", "lt<", "LT<", "gt>", "GT>", "quot\"", "QUOT\"", "COPY©", "REG®"} {
		r, size := utf8.DecodeLastRuneInString(s)
		legacy(s[:len(s)-size], r)
	}
	for name, r := range commonNames {
		m[name+";"] = r
	}
	return m
}()

// longestLegacy is the length of the longest legacy name.
const longestLegacy = 6

// win1252 replaces numeric references to U+0080..U+009F, which pages
// write meaning Windows-1252.
var win1252 = [32]rune{
	'€', '\u0081', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u008d', 'Ž', '\u008f',
	'\u0090', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u009d', 'ž', 'Ÿ',
}

// unescape appends s to dst with its character references decoded, as in
// an attribute value when attr is set. ok is false when s holds a name
// this package does not know; dst is then unusable.
func unescape(dst, s []byte, attr bool) (out []byte, ok bool) {
	for len(s) > 0 {
		i := bytes.IndexByte(s, '&')
		if i < 0 {
			return append(dst, s...), true
		}
		dst = append(dst, s[:i]...)
		s = s[i:]
		r, n, known := decodeReference(s, attr)
		if !known {
			return dst, false
		}
		if n == 0 {
			dst = append(dst, '&')
			s = s[1:]
			continue
		}
		dst = utf8.AppendRune(dst, r)
		s = s[n:]
	}
	return dst, true
}

// decodeReference decodes the reference at the start of s (s[0] is '&'),
// returning its rune and length, or n == 0 when the '&' is literal.
func decodeReference(s []byte, attr bool) (r rune, n int, known bool) {
	if len(s) <= 1 {
		return 0, 0, true
	}
	if s[1] == '#' {
		r, n = decodeNumeric(s)
		return r, n, true
	}
	i := 1
	for i < len(s) && isAlnum(s[i]) {
		i++
	}
	semi := i < len(s) && s[i] == ';'
	if semi {
		i++
	}
	name := s[1:i]
	switch {
	case len(name) == 0:
		return 0, 0, true
	case attr && !semi && i < len(s) && s[i] == '=':
		return 0, 0, true
	}
	if r, ok := entities[string(name)]; ok {
		return r, i, true
	}
	if semi {
		return 0, 0, false // perhaps a name known to x/net/html only
	}
	if !attr {
		for j := min(len(name)-1, longestLegacy); j > 1; j-- {
			if r, ok := entities[string(name[:j])]; ok {
				return r, j + 1, true
			}
		}
	}
	return 0, 0, true
}

// decodeNumeric decodes "&#123;" or "&#x7b;" at the start of s.
func decodeNumeric(s []byte) (rune, int) {
	if len(s) <= 2 {
		return 0, 0
	}
	i, base := 2, rune(10)
	if s[i] == 'x' || s[i] == 'X' {
		i, base = 3, 16
	}
	start, x := i, rune(0)
	for ; i < len(s); i++ {
		d := hexValue(s[i])
		if d < 0 || d >= base {
			break
		}
		if x <= 0x10FFFF {
			x = base*x + d
		}
	}
	if i == start {
		return 0, 0
	}
	if i < len(s) && s[i] == ';' {
		i++
	}
	switch {
	case 0x80 <= x && x <= 0x9F:
		x = win1252[x-0x80]
	case x == 0, 0xD800 <= x && x <= 0xDFFF, x > 0x10FFFF:
		x = utf8.RuneError
	}
	return x, i
}

// hexValue is the value of a hexadecimal digit, or -1.
func hexValue(c byte) rune {
	switch {
	case '0' <= c && c <= '9':
		return rune(c - '0')
	case 'a' <= c && c <= 'f':
		return rune(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return rune(c-'A') + 10
	}
	return -1
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
