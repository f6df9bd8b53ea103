package parse

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxRefText is the most bytes of anchor, alt or title text kept for one
// reference; longer text is cut on a UTF-8 boundary.
const MaxRefText = 500

// asciiSpace marks the ASCII bytes unicode.IsSpace accepts.
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// wordByte marks the bytes that are ASCII and not white space.
var wordByte = func() (t [256]bool) {
	for c := range utf8.RuneSelf {
		t[c] = !asciiSpace[c]
	}
	return t
}()

// NormalizeText returns s with every run of Unicode white space (including
// U+00A0 no-break space) replaced by one ASCII space and the ends trimmed;
// case is kept and invalid UTF-8 bytes become U+FFFD. Document.Text is
// already in this form; the content fingerprint, and later near-duplicate
// detection, compute over text normalized this way so that reflowed or
// re-indented copies of a page compare equal.
func NormalizeText(s string) string {
	if isNormal(s) {
		return s
	}
	var t textBuf
	t.b = make([]byte, 0, len(s))
	t.add(s)
	return string(t.b)
}

// isNormal reports whether NormalizeText would return s unchanged.
func isNormal(s string) bool {
	prevSpace := true // a leading space is not normal
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if asciiSpace[c] {
				if c != ' ' || prevSpace {
					return false
				}
				prevSpace = true
			} else {
				prevSpace = false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || unicode.IsSpace(r) {
			return false
		}
		prevSpace = false
		i += size
	}
	return !prevSpace || s == ""
}

// textBuf accumulates text with white space collapsed as it arrives: a run
// of white space (or a block boundary, see sep) becomes one pending space,
// written only when more text follows, so the result is never padded.
type textBuf struct {
	b       []byte
	pending bool
	limit   int // stop growing at this many bytes; 0 means no limit
}

// sep marks a word boundary, as between two block elements.
func (t *textBuf) sep() { t.pending = true }

func (t *textBuf) reset() {
	t.b = t.b[:0]
	t.pending = false
}

// full reports whether the buffer has reached its limit.
func (t *textBuf) full() bool { return t.limit > 0 && len(t.b) >= t.limit }

// flush writes the pending space before a non-space character.
func (t *textBuf) flush() {
	if t.pending && len(t.b) > 0 {
		t.b = append(t.b, ' ')
	}
	t.pending = false
}

// add appends s, collapsing white space and replacing invalid UTF-8.
func (t *textBuf) add(s string) { addText(t, s) }

// addBytes is add for a byte slice.
func (t *textBuf) addBytes(s []byte) { addText(t, s) }

func addText[S ~string | ~[]byte](t *textBuf, s S) {
	for i := 0; i < len(s); {
		if t.full() {
			return
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if asciiSpace[c] {
				t.pending = true
				i++
				continue
			}
			j := i + 1
			for {
				for j < len(s) && wordByte[s[j]] {
					j++
				}
				// Without a limit, a single space between ASCII words goes
				// in with them: one append per run of words.
				if t.limit == 0 && j+1 < len(s) && s[j] == ' ' && wordByte[s[j+1]] {
					j += 2
					continue
				}
				break
			}
			if t.limit > 0 && j-i > t.limit-len(t.b) {
				j = i + t.limit - len(t.b)
			}
			t.flush()
			t.b = append(t.b, s[i:j]...)
			i = j
			continue
		}
		r, size := decodeRune(s[i:])
		switch {
		case unicode.IsSpace(r):
			t.pending = true
		case r == utf8.RuneError && size == 1:
			t.flush()
			t.b = utf8.AppendRune(t.b, utf8.RuneError)
		default:
			t.flush()
			t.b = append(t.b, s[i:i+size]...)
		}
		i += size
	}
}

// decodeRune decodes the first rune of s, a string or byte slice.
func decodeRune[S ~string | ~[]byte](s S) (rune, int) {
	var b [utf8.UTFMax]byte
	return utf8.DecodeRune(b[:copy(b[:], s)])
}

// truncate cuts normalized text to at most max bytes on a rune boundary,
// dropping a space left at the end.
func truncate(b []byte, max int) []byte {
	if len(b) <= max {
		return b
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(b[cut]) {
		cut--
	}
	for cut > 0 && b[cut-1] == ' ' {
		cut--
	}
	return b[:cut]
}

// hasToken reports whether the space- or comma-separated list s holds tok,
// compared case-insensitively (rel="nofollow", meta robots content).
func hasToken[S ~string | ~[]byte](s S, tok string) bool {
	for i := 0; i <= len(s); {
		j := i
		size := 0
		for j < len(s) {
			var r rune
			r, size = decodeRune(s[j:])
			if isListSep(r) {
				break
			}
			j += size
		}
		if equalFold(s[i:j], tok) {
			return true
		}
		if j == len(s) {
			return false
		}
		i = j + size
	}
	return false
}

func isListSep(r rune) bool { return r == ',' || unicode.IsSpace(r) }

// equalFold is strings.EqualFold for a string or byte slice s.
func equalFold[S ~string | ~[]byte](s S, t string) bool {
	if len(s) == len(t) {
		ascii := true
		for i := 0; i < len(s); i++ {
			if s[i] >= utf8.RuneSelf || t[i] >= utf8.RuneSelf {
				ascii = false
				break
			}
		}
		if ascii {
			for i := 0; i < len(s); i++ {
				if lowerASCII(s[i]) != lowerASCII(t[i]) {
					return false
				}
			}
			return true
		}
	}
	return strings.EqualFold(string(s), t)
}
