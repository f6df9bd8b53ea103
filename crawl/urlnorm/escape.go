package urlnorm

import (
	"bytes"
	"strings"
)

// Byte classes for percent-encoding (RFC 3986 §2). A byte without the class
// of its component is percent-encoded; '%' is handled on its own.
const (
	clsUnreserved = 1 << iota // ALPHA DIGIT - . _ ~ : decoded when escaped
	clsPath                   // may stand literally in a path
	clsQuery                  // may stand literally in a query
)

var classes = func() (t [256]uint8) {
	set := func(chars string, c uint8) {
		for i := 0; i < len(chars); i++ {
			t[chars[i]] |= c
		}
	}
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	set(alnum+"-._~", clsUnreserved|clsPath|clsQuery)
	// sub-delims, ':' and '@' (pchar), '/', and the reserved '[' ']' that
	// browsers and net/url leave alone.
	set("!$&'()*+,;=:@/[]", clsPath|clsQuery)
	set("?", clsQuery)
	return t
}()

const upperHex = "0123456789ABCDEF"

// appendEscaped appends s with its percent-encoding made canonical: escapes
// of unreserved bytes decoded, other escapes in upper-case hex, a '%' that
// starts no valid escape written as "%25", and every byte outside class cls
// (spaces, controls, non-ASCII, "<>\"{}|\\^`") escaped. Reserved characters
// keep their form, escaped or not, because that form carries meaning.
func appendEscaped(b []byte, s string, cls uint8) []byte {
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && classes[s[j]]&cls != 0 {
			j++
		}
		b = append(b, s[i:j]...)
		if j == len(s) {
			break
		}
		c := s[j]
		i = j + 1
		if c == '%' && j+2 < len(s) && isHex(s[j+1]) && isHex(s[j+2]) {
			c = unhex(s[j+1])<<4 | unhex(s[j+2])
			i = j + 3
			if classes[c]&clsUnreserved != 0 {
				b = append(b, c)
				continue
			}
		}
		b = append(b, '%', upperHex[c>>4], upperHex[c&15])
	}
	return b
}

// removeDotSegments applies RFC 3986 §5.2.4 in place to an absolute path
// (p[0] == '/') and returns the shortened slice.
func removeDotSegments(p []byte) []byte {
	if bytes.Index(p, []byte("/.")) < 0 {
		return p
	}
	w := 0
	for r := 0; r < len(p); {
		end := r + 1
		for end < len(p) && p[end] != '/' {
			end++
		}
		seg := p[r+1 : end]
		last := end == len(p)
		switch {
		case len(seg) == 1 && seg[0] == '.':
			if last {
				p[w] = '/'
				w++
			}
		case len(seg) == 2 && seg[0] == '.' && seg[1] == '.':
			for w > 0 {
				w--
				if p[w] == '/' {
					break
				}
			}
			if last {
				p[w] = '/'
				w++
			}
		default:
			w += copy(p[w:], p[r:end])
		}
		r = end
	}
	return p[:w]
}

// percentDecode decodes every escape in s; ok is false if an escape is
// malformed.
func percentDecode(s string) (string, bool) {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' {
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return "", false
			}
			c = unhex(s[i+1])<<4 | unhex(s[i+2])
			i += 2
		}
		b.WriteByte(c)
	}
	return b.String(), true
}

func isHex(c byte) bool {
	return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}
