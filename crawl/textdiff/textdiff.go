// Package textdiff compares two versions of a page's body text word by
// word, for the change report and the diff views of the command line and
// the window. The diff itself is github.com/sergi/go-diff's (Myers'
// algorithm with a time limit); this package only makes it work on words
// instead of characters, so that a changed word shows as one deleted and
// one inserted word rather than as scattered letters.
//
// Texts are split into words and the runs of spaces between them, so
// joining the segments of a diff gives back either text exactly. Body text
// as Trawler stores it has single spaces between words.
package textdiff

import (
	"strings"
	"time"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// Op says whether a segment is in both texts, only the new one or only
// the old one.
type Op int8

// Segment kinds.
const (
	Equal  Op = 0
	Insert Op = 1 // only in the new text
	Delete Op = -1
)

func (o Op) String() string {
	switch o {
	case Insert:
		return "insert"
	case Delete:
		return "delete"
	}
	return "equal"
}

// Segment is a run of whole words that is equal, inserted or deleted.
type Segment struct {
	Op    Op
	Text  string
	Words int // number of words in Text
}

// Timeout bounds the work on one pair of texts. When it runs out the diff
// is still correct (joining it gives both texts back) but coarser: a
// larger block shows as deleted and inserted than strictly changed.
const Timeout = time.Second

// Words returns the word-level diff that turns old into new: segments in
// text order, with neighbouring deletions and insertions grouped the way
// people read them (semantic clean-up).
func Words(old, new string) []Segment {
	return words(old, new, Timeout)
}

func words(old, new string, timeout time.Duration) []Segment {
	if old == new {
		if old == "" {
			return nil
		}
		return []Segment{{Op: Equal, Text: old, Words: countWords(old)}}
	}
	var vocab vocabulary
	a, b := vocab.runes(old), vocab.runes(new)
	if vocab.full {
		return []Segment{{Op: Delete, Text: old, Words: countWords(old)}, {Op: Insert, Text: new, Words: countWords(new)}}
	}
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = timeout
	diffs := dmp.DiffMainRunes(a, b, false)
	diffs = dmp.DiffCleanupSemantic(diffs)
	out := make([]Segment, 0, len(diffs))
	for _, d := range diffs {
		text, n := vocab.text(d.Text)
		if text == "" {
			continue
		}
		op := Equal
		switch d.Type {
		case diffmatchpatch.DiffInsert:
			op = Insert
		case diffmatchpatch.DiffDelete:
			op = Delete
		}
		if k := len(out) - 1; k >= 0 && out[k].Op == op {
			out[k].Text += text
			out[k].Words += n
			continue
		}
		out = append(out, Segment{Op: op, Text: text, Words: n})
	}
	return out
}

// Size is how much changed between two versions, in words.
type Size struct {
	Added, Removed int // words only in the new text, only in the old one
	Old, New       int // words in each text
}

// Changed returns the share of words touched by the change, in [0,1]:
// words added and removed over the words of both texts.
func (s Size) Changed() float64 {
	if s.Old+s.New == 0 {
		return 0
	}
	return float64(s.Added+s.Removed) / float64(s.Old+s.New)
}

// MeasureTimeout bounds Measure, which the store runs for every changed
// page while it writes a batch: a coarse count is better there than a
// stalled crawl.
const MeasureTimeout = 100 * time.Millisecond

// Measure returns the size of the change from old to new.
func Measure(old, new string) Size {
	return SizeOf(words(old, new, MeasureTimeout))
}

// SizeOf adds up the words of a diff's segments.
func SizeOf(segs []Segment) Size {
	var s Size
	for _, g := range segs {
		switch g.Op {
		case Insert:
			s.Added += g.Words
			s.New += g.Words
		case Delete:
			s.Removed += g.Words
			s.Old += g.Words
		default:
			s.Old += g.Words
			s.New += g.Words
		}
	}
	return s
}

// vocabulary numbers the distinct tokens of both texts, one rune each, so
// the character diff runs over words. Surrogate code points are skipped:
// go-diff turns runes into strings and back, which would change them.
type vocabulary struct {
	tokens []string
	ids    map[string]rune
	full   bool // more distinct tokens than runes
}

const (
	surrogateFirst = 0xd800
	surrogateLast  = 0xdfff
	maxTokens      = 0x10ffff - (surrogateLast - surrogateFirst + 1)
)

func (v *vocabulary) runes(text string) []rune {
	if v.ids == nil {
		v.ids = map[string]rune{}
	}
	out := make([]rune, 0, strings.Count(text, " ")+1)
	for len(text) > 0 {
		n := strings.IndexByte(text, ' ')
		switch n {
		case 0:
			n = len(text) - len(strings.TrimLeft(text, " "))
		case -1:
			n = len(text)
		}
		tok := text[:n]
		text = text[n:]
		r, ok := v.ids[tok]
		if !ok {
			if len(v.tokens) >= maxTokens {
				v.full = true
				return nil
			}
			r = rune(len(v.tokens))
			if r >= surrogateFirst {
				r += surrogateLast - surrogateFirst + 1
			}
			v.ids[tok] = r
			v.tokens = append(v.tokens, tok)
		}
		out = append(out, r)
	}
	return out
}

// text turns a run of token runes back into words and counts them.
func (v *vocabulary) text(s string) (string, int) {
	var b strings.Builder
	n := 0
	for _, r := range s {
		i := int(r)
		if r > surrogateLast {
			i -= surrogateLast - surrogateFirst + 1
		}
		if i < 0 || i >= len(v.tokens) {
			continue
		}
		tok := v.tokens[i]
		b.WriteString(tok)
		if tok[0] != ' ' {
			n++
		}
	}
	return b.String(), n
}

// countWords counts the words of a text split on spaces.
func countWords(s string) int { return len(strings.Fields(s)) }
