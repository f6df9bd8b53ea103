package wordscan

import (
	"bytes"
	"cmp"
	"errors"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// oracleList has terms that overlap one another in every way the rules
// distinguish: Latin inside Latin, CJK inside CJK, mixed ends, terms
// shared by two categories, punctuation ends.
const oracleList = `@threshold 2
casino
online casino, 1.5
casinos, 0.5
赌博
网上赌博, 2
赌场casino
casino赌场
ー
a.b
@category other
@threshold 1.5
CASINO, 0.7
赌, 0.2
x2
`

// spaceless reports whether r belongs to the scripts matched as
// substrings, written independently of isCJK.
func spaceless(r rune) bool {
	return r == 'ー' || unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
}

func wordish(r rune) bool {
	return !spaceless(r) && (unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r))
}

// bruteForce answers what Scan should, by the rules in the package
// documentation and nothing cleverer than strings.HasPrefix at every
// byte offset.
func bruteForce(l *Lists, d Doc) Result {
	type count struct{ places [3]int }
	counts := make([]count, len(l.Terms))
	place := func(text string, p int) {
		nt := Normalize(text)
		for ti, t := range l.Terms {
			pat := strings.TrimSpace(Normalize(t.Text))
			first, _ := utf8.DecodeRuneInString(pat)
			last, _ := utf8.DecodeLastRuneInString(pat)
			for i := 0; i+len(pat) <= len(nt); i++ {
				if !strings.HasPrefix(nt[i:], pat) {
					continue
				}
				if before, _ := utf8.DecodeLastRuneInString(nt[:i]); i > 0 && wordish(first) && wordish(before) {
					continue
				}
				if after, _ := utf8.DecodeRuneInString(nt[i+len(pat):]); i+len(pat) < len(nt) && wordish(last) && wordish(after) {
					continue
				}
				counts[ti].places[p]++
			}
		}
	}
	place(d.Title, 0)
	place(d.Text, 1)
	for _, a := range d.Anchors {
		place(a, 2)
	}
	var res Result
	score := map[string]float64{}
	for ti, t := range l.Terms {
		c := counts[ti].places
		if c == [3]int{} {
			continue
		}
		res.Hits = append(res.Hits, Hit{t.Text, t.Category, t.Weight, c[0], c[1], c[2]})
		score[t.Category] += t.Weight
	}
	if len(res.Hits) == 0 {
		return Result{Verdict: White}
	}
	thr := func(c string) float64 {
		if v, ok := l.Thresholds[c]; ok {
			return v
		}
		return DefaultThreshold
	}
	res.Verdict = Grey
	bestRatio := -1.0
	for _, c := range sortedKeys(score) {
		black := score[c] >= thr(c)*(1-1e-9)
		if black && res.Verdict != Black {
			res.Verdict, bestRatio = Black, -1
		}
		if black != (res.Verdict == Black) {
			continue
		}
		if r := score[c] / thr(c); r > bestRatio || r == bestRatio && score[c] > res.Score {
			res.Category, res.Score, bestRatio = c, score[c], r
		}
	}
	slices.SortStableFunc(res.Hits, func(a, b Hit) int {
		if c := cmp.Compare(b.Weight, a.Weight); c != 0 {
			return c
		}
		if c := strings.Compare(a.Term, b.Term); c != 0 {
			return c
		}
		return strings.Compare(a.Category, b.Category)
	})
	return res
}

func checkAgainstOracle(t *testing.T, s *Scanner, l *Lists, d Doc) {
	t.Helper()
	got, want := s.Scan(d), bruteForce(l, d)
	if got.Verdict != want.Verdict || got.Category != want.Category || !near(got.Score, want.Score) ||
		!reflect.DeepEqual(got.Hits, want.Hits) {
		t.Fatalf("Scan(%+q):\n got %+v\nwant %+v", d, got, want)
	}
}

func oracleScanner(t testing.TB) (*Scanner, *Lists) {
	l, err := Parse("g.txt", strings.NewReader(oracleList))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Compile(l)
	if err != nil {
		t.Fatal(err)
	}
	return s, l
}

// TestScanMatchesBruteForce compares Scan with bruteForce on random
// texts made of pieces that put terms next to every kind of neighbour.
func TestScanMatchesBruteForce(t *testing.T) {
	s, l := oracleScanner(t)
	pieces := []string{"casino", "Casino", "ｃａｓｉｎｏ", "casinos", "online", " ", "\n", "s", "2", "x", ".", "-",
		"赌博", "赌", "博", "网上", "赌场", "ー", "カ", "é", "\u0301", "a.b", "a", "b", "казино", "\u00ad", "，"}
	r := rand.New(rand.NewPCG(3, 4))
	piece := func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		return b.String()
	}
	for i := 0; i < 3000; i++ {
		d := Doc{Title: piece(r.IntN(4)), Text: piece(r.IntN(14))}
		for j, n := 0, r.IntN(3); j < n; j++ {
			d.Anchors = append(d.Anchors, piece(r.IntN(4)))
		}
		checkAgainstOracle(t, s, l, d)
	}
}

// FuzzScan: Scan never panics and always agrees with bruteForce.
func FuzzScan(f *testing.F) {
	f.Add("Online Casino", "网上赌博网站 casino赌场", "casinos")
	f.Add("", "ｃａｓｉｎｏ\u0301 a.b.c x2x", "赌场casino")
	f.Add("\xff\xfe", "CASINO\u00ad", "ーー")
	s, l := oracleScanner(f)
	f.Fuzz(func(t *testing.T, title, text, anchor string) {
		checkAgainstOracle(t, s, l, Doc{Title: title, Text: text, Anchors: []string{anchor, text}})
	})
}

// FuzzParse: Parse never panics; what it accepts, Compile accepts; what
// it refuses, it refuses with at most ten located errors.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"testdata/gambling.txt", "testdata/zh-gambling.txt", "testdata/invalid.txt"} {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("@threshold a b 3\n,,\n@category\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := bytes.Count(data, []byte("\n")) + 1
		l, err := Parse("f.txt", bytes.NewReader(data))
		if err != nil {
			var errs *Errors
			if !errors.As(err, &errs) || len(errs.List) == 0 || len(errs.List) > maxErrors {
				t.Fatalf("error %v (%T)", err, err)
			}
			for _, le := range errs.List {
				if le.File != "f.txt" || le.Line < 1 || le.Line > lines {
					t.Fatalf("badly located error %+v in %d lines", le, lines)
				}
			}
			return
		}
		for _, tm := range l.Terms {
			if tm.Line < 1 || tm.Line > lines || !positive(tm.Weight) || tm.Text == "" {
				t.Fatalf("bad term %+v", tm)
			}
		}
		if len(l.Terms) == 0 {
			return
		}
		if _, err := Compile(l); err != nil {
			t.Fatalf("Parse accepted what Compile refuses: %v", err)
		}
	})
}
