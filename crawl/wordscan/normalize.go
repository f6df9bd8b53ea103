package wordscan

import (
	"slices"
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
	iter norm.Iter
	nfkc []byte // the NFKC form of one non-ASCII segment
	cf   []byte // that segment case-folded
}

func newNormalizer() *normalizer {
	return &normalizer{fold: cases.Fold()}
}

// appendNorm appends the normalized form of s to dst.
//
// Most page text needs no x/text work: ASCII (lowered, spaces collapsed),
// full-width ASCII variants (NFKC maps them to ASCII) and the common Han
// ideographs (unchanged by NFKC and folding) are handled here rune by
// rune, and only the stretches between them go through x/text. The split
// is exact: none of those runes combines with what precedes it under
// NFKC, and when a slow stretch starts with a rune that combines
// leftwards (a combining accent after "e"), the fast rune before it is
// taken back and joins the stretch. Unicode case folding has no context,
// so folding stretch by stretch equals folding the whole. Tests compare
// the result with the whole-string x/text reference.
func (n *normalizer) appendNorm(dst []byte, s string) []byte {
	start := len(dst)
	dst = slices.Grow(dst, len(s))
	for i := 0; i < len(s); {
		// The fast run: remember where its last rune began, in s and in
		// dst, so that it can be taken back.
		j, lastIn, lastOut := i, -1, 0
		space := len(dst) > start && dst[len(dst)-1] == ' '
		for j < len(s) {
			c := s[j]
			if c < utf8.RuneSelf {
				// A tight loop for ASCII, the bulk of most pages.
				out := len(dst)
				for ; j < len(s) && s[j] < utf8.RuneSelf; j++ {
					c = asciiFold[s[j]]
					out = len(dst)
					if c == ' ' {
						if space {
							continue
						}
						space = true
					} else {
						space = false
					}
					dst = append(dst, c)
				}
				lastIn, lastOut = j-1, out
				continue
			}
			if c >= 0xE3 && c <= 0xE9 && j+2 < len(s) && s[j+1]&0xC0 == 0x80 && s[j+2]&0xC0 == 0x80 {
				// A three-byte sequence with this lead byte is always
				// valid UTF-8: decode it inline, Han being most of
				// Chinese text.
				r := rune(c&0x0F)<<12 | rune(s[j+1]&0x3F)<<6 | rune(s[j+2]&0x3F)
				if isPlainHan(r) {
					lastIn, lastOut = j, len(dst)
					dst = append(dst, s[j:j+3]...)
					space = false
					j += 3
					continue
				}
			}
			r, size := utf8.DecodeRuneInString(s[j:])
			switch {
			case r >= 0xFF01 && r <= 0xFF5E: // full-width ASCII variants
				// (none of them is white space)
				lastIn, lastOut = j, len(dst)
				dst = append(dst, asciiFold[r-0xFEE0])
				space = false
			case isPlainHan(r):
				lastIn, lastOut = j, len(dst)
				dst = append(dst, s[j:j+size]...)
				space = false
			default:
				goto slow
			}
			j += size
		}
		break
	slow:
		if lastIn >= 0 && !norm.NFKC.PropertiesString(s[j:]).BoundaryBefore() {
			dst, j = dst[:lastOut], lastIn
		}
		_, size := utf8.DecodeRuneInString(s[j:])
		k := j + size
		for k < len(s) && s[k] >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[k:])
			if r >= 0xFF01 && r <= 0xFF5E || isPlainHan(r) {
				break
			}
			k += size
		}
		dst = n.appendSlow(dst, start, s[j:k])
		i = k
	}
	return dst
}

// isPlainHan reports whether r is a common Han ideograph or the Chinese
// comma or full stop: runes that NFKC and case folding leave alone, that
// combine with nothing, and that are neither space nor format characters.
func isPlainHan(r rune) bool {
	return r >= 0x4E00 && r <= 0x9FFF || r >= 0x3400 && r <= 0x4DBF || r == 0x3001 || r == 0x3002
}

// asciiFold maps each ASCII byte to its normalized form: letters to lower
// case, white space to ' ', the rest to itself.
var asciiFold = func() (t [utf8.RuneSelf]byte) {
	for c := range t {
		switch {
		case unicode.IsSpace(rune(c)):
			t[c] = ' '
		case 'A' <= c && c <= 'Z':
			t[c] = byte(c) + 'a' - 'A'
		default:
			t[c] = byte(c)
		}
	}
	return t
}()

// isWordByte tells which ASCII bytes are letters or digits.
var isWordByte = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	}
	return t
}()

// appendSlow normalizes one stretch that holds non-ASCII text.
func (n *normalizer) appendSlow(dst []byte, start int, s string) []byte {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if norm.NFKC.QuickSpanString(s) == len(s) {
		n.nfkc = append(n.nfkc[:0], s...)
	} else {
		// Iter keeps its buffers inside n, where AppendString would
		// allocate them on every call.
		n.nfkc = n.nfkc[:0]
		for n.iter.InitString(norm.NFKC, s); !n.iter.Done(); {
			n.nfkc = append(n.nfkc, n.iter.Next()...)
		}
	}
	src := n.nfkc
	if sp, _ := n.fold.Span(src, true); sp < len(src) {
		n.cf = n.foldInto(n.cf[:0], src)
		src = n.cf
	}
	for i := 0; i < len(src); {
		c := src[i]
		if c < utf8.RuneSelf {
			if c = asciiFold[c]; c == ' ' {
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
		return isWordByte[r]
	}
	if isCJK(r) {
		return false
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}
