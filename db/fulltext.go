package db

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"modernc.org/sqlite"
)

// Full-text search: what the user types, what the index holds.
//
// FTS5's unicode61 tokenizer takes an unbroken run of letters as one word,
// and Chinese and Japanese are written without spaces, so a whole sentence
// would be one token and no word inside it could be found. The index
// therefore sees each CJK character as a word of its own: the text is
// indexed through fulltext(), which puts an invisible separator (U+200B
// ZERO WIDTH SPACE, not a token character for unicode61) around every CJK
// character, and a query for a CJK word becomes the phrase of its
// characters, which matches exactly that sequence (a unigram index with
// phrase queries: the effect of Lucene's CJK bigrams, with exact matches).
// Latin text is tokenized as before, so phrase search there is unchanged.
//
// Snippets are read through the same function, so they carry the
// separators; Snippet strips them. Highlights are marked with the
// private-use characters MatchStart and MatchEnd, which fulltext removes
// from page text, so a page's own characters ([, ], …) are never taken for
// marks.

// Highlight marks around a match in PageRow.Snippet, out of band: the
// indexed text never contains them.
const (
	MatchStart = '\uE000'
	MatchEnd   = '\uE001'
)

// fulltextFunc is the SQL name of fulltext, registered for every connection.
const fulltextFunc = "trawler_fulltext"

const zwsp = '\u200B'

func init() {
	sqlite.MustRegisterDeterministicScalarFunction(fulltextFunc, 1,
		func(_ *sqlite.FunctionContext, args []driver.Value) (driver.Value, error) {
			switch v := args[0].(type) {
			case string:
				return fulltext(v), nil
			case []byte:
				return fulltext(string(v)), nil
			}
			return args[0], nil
		})
}

// isCJK reports whether r belongs to a script written without spaces
// between words.
func isCJK(r rune) bool {
	return r >= 0x2E80 && (unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r))
}

// fulltext is text as the index sees it: every CJK character set apart,
// the highlight marks removed.
func fulltext(s string) string {
	if !needsFulltext(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + len(s)/2)
	prevCJK := false
	for _, r := range s {
		switch {
		case r == MatchStart || r == MatchEnd:
			continue
		case isCJK(r):
			if !prevCJK {
				b.WriteRune(zwsp)
			}
			b.WriteRune(r)
			b.WriteRune(zwsp)
			prevCJK = true
			continue
		}
		b.WriteRune(r)
		prevCJK = false
	}
	return b.String()
}

// needsFulltext reports whether s has anything fulltext changes: ASCII
// text, most pages, goes through untouched without a copy.
func needsFulltext(s string) bool {
	i := 0
	for ; i+8 <= len(s); i += 8 { // eight bytes at a time while they are ASCII
		w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		if w&0x8080808080808080 != 0 {
			break
		}
	}
	for ; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return strings.ContainsFunc(s[i:], func(r rune) bool { return isCJK(r) || r == MatchStart || r == MatchEnd })
		}
	}
	return false
}

// cleanSnippet removes the separators fulltext added.
func cleanSnippet(s string) string {
	if !strings.ContainsRune(s, zwsp) {
		return s
	}
	return strings.ReplaceAll(s, string(zwsp), "")
}

// AdvancedPrefix starts a query written in FTS5's own syntax (AND, OR,
// NOT, NEAR, column:, prefix*, "phrases", parentheses), for those who want
// it; any other text is searched as plain words and phrases.
const AdvancedPrefix = "fts:"

// ErrNoWords is the cause of an ErrBadQuery for text with nothing to search.
var ErrNoWords = errors.New("no words to search for")

// ftsQuery turns what a user typed into an FTS5 query. Plain text never
// fails to parse: each whitespace-separated word must match (a lone word
// also as a prefix: "craw" finds "crawler"), a word with punctuation inside
// (a URL, "select.select") or a "quoted phrase" must match as a phrase, and
// a CJK word as the sequence of its characters. Text after AdvancedPrefix
// is passed to FTS5 as written, with its CJK words made phrases.
func ftsQuery(typed string) (string, error) {
	typed = strings.TrimSpace(typed)
	if rest, ok := strings.CutPrefix(typed, AdvancedPrefix); ok {
		q := advancedQuery(strings.TrimSpace(rest))
		if q == "" {
			return "", fmt.Errorf("%w: %w", ErrBadQuery, ErrNoWords)
		}
		return q, nil
	}
	parts := plainParts(typed)
	if len(parts) == 0 {
		return "", fmt.Errorf("%w %q: %w", ErrBadQuery, typed, ErrNoWords)
	}
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = p.String()
	}
	return strings.Join(out, " "), nil
}

// ftsPart is one part of a plain search as FTS5 reads it: a phrase of
// words, which with prefix also matches words that start with its last.
type ftsPart struct {
	words  []string
	prefix bool
}

func (p ftsPart) String() string {
	s := `"` + strings.Join(p.words, " ") + `"`
	if p.prefix {
		s += "*"
	}
	return s
}

// plainParts splits plain text into the parts ftsQuery joins: a lone
// word is a prefix (not a CJK one), anything else a phrase.
func plainParts(typed string) []ftsPart {
	var parts []ftsPart
	for _, tok := range splitTyped(typed) {
		words := indexWords(tok.text)
		if len(words) == 0 {
			continue
		}
		parts = append(parts, ftsPart{words: words, prefix: len(words) == 1 && !tok.quoted && !isCJKWord(words[0])})
	}
	return parts
}

// typedToken is a word or a "quoted phrase" of what the user typed.
type typedToken struct {
	text   string
	quoted bool
}

// splitTyped splits typed text at spaces, keeping "quoted phrases" whole
// (an unclosed quote runs to the end).
func splitTyped(s string) []typedToken {
	var out []typedToken
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		if s[0] == '"' {
			end := strings.IndexByte(s[1:], '"')
			if end < 0 {
				out = append(out, typedToken{s[1:], true})
				break
			}
			out = append(out, typedToken{s[1 : 1+end], true})
			s = s[end+2:]
			continue
		}
		end := strings.IndexFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r == '"' })
		if end < 0 {
			end = len(s)
		}
		out = append(out, typedToken{s[:end], false})
		s = s[end:]
	}
	return out
}

// indexWords splits text into the tokens the index holds: runs of letters
// and digits, and each CJK character alone.
func indexWords(s string) []string {
	var words []string
	start := -1
	for i, r := range s {
		word := unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
		if isCJK(r) || !word {
			if start >= 0 {
				words = append(words, s[start:i])
				start = -1
			}
			if isCJK(r) {
				words = append(words, string(r))
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		words = append(words, s[start:])
	}
	return words
}

func isCJKWord(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return isCJK(r)
}

// advancedQuery makes each run of CJK characters in an FTS5 query the
// phrase of its characters: quoted outside a phrase, spaced inside one.
func advancedQuery(q string) string {
	var b strings.Builder
	inQuote := false
	runes := []rune(q)
	for i := 0; i < len(runes); i++ {
		r := runes[i]
		if r == '"' {
			inQuote = !inQuote
		}
		if !isCJK(r) {
			b.WriteRune(r)
			continue
		}
		j := i
		for j < len(runes) && isCJK(runes[j]) {
			j++
		}
		chars := make([]string, 0, j-i)
		for _, c := range runes[i:j] {
			chars = append(chars, string(c))
		}
		run := strings.Join(chars, " ")
		if !inQuote {
			run = `"` + run + `"`
		}
		b.WriteString(" " + run + " ")
		i = j - 1
	}
	return strings.Join(strings.Fields(b.String()), " ")
}
