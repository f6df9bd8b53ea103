package wordscan

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// Normalize returns s in the form that terms and page text are compared
// in: NFKC, then Unicode case folding, then format characters (soft
// hyphen, zero-width space and the like) dropped and every run of white
// space made one ASCII space. Invalid UTF-8 bytes become U+FFFD. Terms
// are additionally trimmed of a leading and trailing space.
//
// It is exported so that callers can show or highlight what a Scanner
// actually compares; Scan does the same work without allocating a string.
func Normalize(s string) string {
	n := newNormalizer()
	return string(n.appendNorm(nil, s))
}

// normalizer holds the scratch buffers and the (stateful, so per
// goroutine) case folder that normalizing needs. Scanners keep them in a
// sync.Pool so that Scan allocates nothing for normalizing.
type normalizer struct {
	fold cases.Caser
	nfkc []byte // the NFKC form of one non-ASCII segment
	cf   []byte // that segment case-folded
}

func newNormalizer() *normalizer {
	return &normalizer{fold: cases.Fold()}
}

// appendNorm appends the normalized form of s to dst.
//
// ASCII needs no NFKC work and folds by lowering A–Z, so runs of ASCII
// take a fast path and only the non-ASCII stretches between them go
// through x/text. The split is exact: an ASCII character never combines
// with what precedes it under NFKC, and when a non-ASCII stretch starts
// with a rune that combines leftwards (a combining accent after "e"), the
// ASCII byte before it joins the stretch. Unicode case folding has no
// context, so folding stretch by stretch equals folding the whole.
func (n *normalizer) appendNorm(dst []byte, s string) []byte {
	start := len(dst)
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && s[j] < utf8.RuneSelf {
			j++
		}
		if j < len(s) && j > i && !norm.NFKC.PropertiesString(s[j:]).BoundaryBefore() {
			j--
		}
		dst = appendASCII(dst, start, s[i:j])
		if j == len(s) {
			break
		}
		k := j + 1
		for k < len(s) && s[k] >= utf8.RuneSelf {
			k++
		}
		dst = n.appendSlow(dst, start, s[j:k])
		i = k
	}
	return dst
}

// asciiClass tells, for each ASCII byte, whether it is white space (1),
// an upper-case letter (2), a lower-case letter or digit (3), or other (0).
var asciiClass = func() (t [utf8.RuneSelf]uint8) {
	for c := 0; c < utf8.RuneSelf; c++ {
		switch {
		case unicode.IsSpace(rune(c)):
			t[c] = 1
		case 'A' <= c && c <= 'Z':
			t[c] = 2
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
			t[c] = 3
		}
	}
	return t
}()

// appendASCII appends the normalized form of an all-ASCII s: lower case,
// white space collapsed. start is where the normalized text began in dst,
// so that a space is never collapsed into text before it.
func appendASCII(dst []byte, start int, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch asciiClass[c] {
		case 1:
			if len(dst) > start && dst[len(dst)-1] == ' ' {
				continue
			}
			c = ' '
		case 2:
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// appendSlow normalizes one stretch that holds non-ASCII text.
func (n *normalizer) appendSlow(dst []byte, start int, s string) []byte {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if norm.NFKC.QuickSpanString(s) == len(s) {
		// Already NFKC, as most CJK text is: a plain copy.
		n.nfkc = append(n.nfkc[:0], s...)
	} else {
		n.nfkc = norm.NFKC.AppendString(n.nfkc[:0], s)
	}
	src := n.nfkc
	if sp, _ := n.fold.Span(src, true); sp < len(src) {
		n.cf = n.foldInto(n.cf[:0], src)
		src = n.cf
	}
	for i := 0; i < len(src); {
		c := src[i]
		if c < utf8.RuneSelf {
			if asciiClass[c] == 1 {
				if len(dst) == start || dst[len(dst)-1] != ' ' {
					dst = append(dst, ' ')
				}
			} else {
				dst = append(dst, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(src[i:])
		switch {
		case r >= 0x3400 && r <= 0x9FFF:
			// CJK ideographs: neither space nor format; the common case.
			dst = append(dst, src[i:i+size]...)
		case unicode.Is(unicode.Cf, r):
		case unicode.IsSpace(r):
			if len(dst) == start || dst[len(dst)-1] != ' ' {
				dst = append(dst, ' ')
			}
		default:
			dst = append(dst, src[i:i+size]...)
		}
		i += size
	}
	return dst
}

// foldInto appends the case folding of src to dst.
func (n *normalizer) foldInto(dst, src []byte) []byte {
	n.fold.Reset()
	for {
		if free := cap(dst) - len(dst); free < len(src)+utf8.UTFMax*4 {
			grown := make([]byte, len(dst), 2*cap(dst)+2*len(src)+64)
			copy(grown, dst)
			dst = grown
		}
		nDst, nSrc, err := n.fold.Transform(dst[len(dst):cap(dst)], src, true)
		dst = dst[:len(dst)+nDst]
		src = src[nSrc:]
		switch err {
		case nil:
			return dst
		case transform.ErrShortDst:
			// Grow and go on.
		default:
			// Fold reports no other error for valid UTF-8; keep the rest
			// unfolded rather than lose it.
			return append(dst, src...)
		}
	}
}

// isCJK reports whether r belongs to a script written without spaces
// between words: Han, Hiragana, Katakana, Hangul, and the Katakana
// prolonged sound mark (which Unicode files under Common). Terms holding
// such runes match as substrings, and such runes never extend a Latin word.
func isCJK(r rune) bool {
	if r < 0x1100 {
		return false
	}
	return r == 0x30FC || unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

// isWordRune reports whether r continues a word for the whole-word test:
// a letter, digit or combining mark outside the CJK scripts.
func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return asciiClass[r] >= 2
	}
	if isCJK(r) {
		return false
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}
