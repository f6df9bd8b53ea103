package wordscan

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// refNormalize is Normalize done the slow, obvious way on the whole
// string; the fast path must agree with it byte for byte.
func refNormalize(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = cases.Fold().String(norm.NFKC.String(s))
	var b strings.Builder
	space := false
	for _, r := range s {
		switch {
		case unicode.Is(unicode.Cf, r):
			continue
		case unicode.IsSpace(r):
			if space {
				continue
			}
			r, space = ' ', true
		default:
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

func TestNormalize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"casino", "casino"},
		{"CASINO", "casino"},
		{"Casino", "casino"},
		{"ｃａｓｉｎｏ", "casino"},                     // full-width letters
		{"ＣＡＳＩＮＯ１２３", "casino123"},               // full-width capitals and digits
		{"Straße", "strasse"},                    // full case folding, not lower-casing
		{"ΣΊΣΥΦΟΣ", "σίσυφοσ"},                   // Greek, final sigma folded too
		{"ﬁle", "file"},                          // ligature (NFKC)
		{"①②", "12"},                             // circled digits
		{"ｶｼﾞﾉ", "カジノ"},                          // half-width katakana composed
		{"e\u0301", "é"},                         // combining accent after ASCII
		{"Ｅ\u0301x", "éx"},                       // ... after a full-width letter
		{"网上赌博网站", "网上赌博网站"},                     // CJK unchanged
		{"online\n\t  casino", "online casino"},  // white space collapsed
		{"online\u3000casino", "online casino"},  // ideographic space
		{"online\u00a0 casino", "online casino"}, // no-break space then space
		{"casi\u00adno", "casino"},               // soft hyphen dropped
		{"赌\u200b博", "赌博"},                       // zero-width space dropped
		{"\ufeffbom", "bom"},                     // byte-order mark dropped
		{" lead and trail ", " lead and trail "}, // text is not trimmed
		{"bad\xffbyte", "bad\ufffdbyte"},         // invalid UTF-8
		{"K\u212a", "kk"},                        // Kelvin sign
		{"MIXED 中文 Text", "mixed 中文 text"},
	}
	for _, tt := range tests {
		if got := Normalize(tt.in); got != tt.want {
			t.Errorf("Normalize(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got := refNormalize(tt.in); got != tt.want {
			t.Errorf("refNormalize(%q) = %q, want %q (the test's reference is wrong)", tt.in, got, tt.want)
		}
	}
}

// TestNormalizeMatchesReference compares the ASCII fast path with the
// reference on random mixtures of ASCII and characters that NFKC, folding
// or the space rules change, especially at the seams between them.
func TestNormalizeMatchesReference(t *testing.T) {
	pieces := []string{
		"a", "Z", "e", " ", "\t", "\n", ".", "1", "\u0301", "\u0327", "\u00ad",
		"\u200b", "\u3000", "ß", "Σ", "ς", "ｃ", "Ａ", "１", "ﬁ", "赌", "博", "ｶ",
		"ﾞ", "\u1100", "\u1161", "\u11a8", "\xff", "\xe4\xb8", "İ", "ǰ", "ΐ",
		"漢", "\u9fff", "\u3400", "、", "。", "，", "か", "\u3099", "ｚ", "～", "\u0345", "\u05b0",
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20000; i++ {
		var b strings.Builder
		for j, n := 0, r.IntN(12); j < n; j++ {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := b.String()
		if got, want := Normalize(s), refNormalize(s); got != want {
			t.Fatalf("Normalize(%q) = %q, reference %q", s, got, want)
		}
	}
}

// TestNormalizeReusesBuffers checks that one normalizer gives the same
// answers when reused, as Scan reuses it through a pool.
func TestNormalizeReusesBuffers(t *testing.T) {
	n := newNormalizer()
	var buf []byte
	for _, s := range []string{"ＡＢＣ", "Straße", "abc", "ΣΊΣΥΦΟΣ", "x"} {
		buf = n.appendNorm(buf[:0], s)
		if got, want := string(buf), refNormalize(s); got != want {
			t.Errorf("reused normalizer: %q → %q, want %q", s, got, want)
		}
	}
}

func TestWordRunes(t *testing.T) {
	tests := []struct {
		r         rune
		word, cjk bool
	}{
		{'a', true, false},
		{'Z', true, false},
		{'7', true, false},
		{'_', false, false},
		{'.', false, false},
		{' ', false, false},
		{'é', true, false},
		{'ж', true, false},
		{'\u0301', true, false}, // combining mark continues a word
		{'٣', true, false},      // Arabic-Indic digit
		{'赌', false, true},
		{'ひ', false, true},
		{'カ', false, true},
		{'ー', false, true}, // prolonged sound mark (script Common)
		{'한', false, true},
		{'，', false, false},
	}
	for _, tt := range tests {
		if got := isWordRune(tt.r); got != tt.word {
			t.Errorf("isWordRune(%q) = %v, want %v", tt.r, got, tt.word)
		}
		if got := isCJK(tt.r); got != tt.cjk {
			t.Errorf("isCJK(%q) = %v, want %v", tt.r, got, tt.cjk)
		}
	}
}

// FuzzNormalize: the fast path always equals the reference.
func FuzzNormalize(f *testing.F) {
	f.Add("Ｃasino e\u0301 ß\u00ad 赌博\u3000x")
	f.Add("\xffa\u0301\u1100\u1161")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Normalize(s), refNormalize(s); got != want {
			t.Fatalf("Normalize(%+q) = %+q, reference %+q", s, got, want)
		}
	})
}
