package wordscan

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// compileString parses one list given as text and compiles it.
func compileString(t testing.TB, name, list string) *Scanner {
	t.Helper()
	l, err := Parse(name, strings.NewReader(list))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Compile(l)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// found returns the terms a Scan of text found, with their Text counts,
// as "term×n" sorted.
func found(s *Scanner, text string) []string {
	var out []string
	for _, h := range s.Scan(Doc{Text: text}).Hits {
		out = append(out, h.Term+"×"+strconv.Itoa(h.Text))
	}
	slices.Sort(out)
	return out
}

const rulesList = `casino
online casino
赌博
网上赌博
赌场casino
casino赌场
c++
straße
`

func TestMatchingRules(t *testing.T) {
	s := compileString(t, "rules.txt", rulesList)
	tests := []struct {
		text string
		want []string
	}{
		{"casino", []string{"casino×1"}},
		{"Casino at the start", []string{"casino×1"}},
		{"at the end: CASINO", []string{"casino×1"}},
		{"ｃａｓｉｎｏ", []string{"casino×1"}},
		{"casinos", nil},
		{"acasino", nil},
		{"casino2", nil},
		{"2casino", nil},
		{"casino.", []string{"casino×1"}},
		{"(casino)", []string{"casino×1"}},
		{"casino_x", []string{"casino×1"}}, // underscore is neither letter nor digit
		{"«casino»", []string{"casino×1"}},
		{"казиноcasino", nil}, // Cyrillic letter before
		{"casinó", nil},       // accented letter after
		{"casino\u0301", nil}, // ... written with a combining accent
		{"casi\u00adno", []string{"casino×1"}},
		{"赌场casino", []string{"casino×1", "赌场casino×1"}},
		{"casino赌场", []string{"casino×1", "casino赌场×1"}},
		{"xcasino赌场", nil},                                // Latin start of the mixed term checked
		{"casino赌场x", []string{"casino×1", "casino赌场×1"}}, // Han end not checked
		{"赌场casinox", nil},
		{"网上赌博网站", []string{"网上赌博×1", "赌博×1"}}, // overlapping, substring
		{"赌博赌博", []string{"赌博×2"}},
		{"开始赌博", []string{"赌博×1"}},
		{"赌博。casino", []string{"casino×1", "赌博×1"}},
		{"online  casino", []string{"casino×1", "online casino×1"}},
		{"ONLINE\n\tCasino", []string{"casino×1", "online casino×1"}},
		{"online casinos", nil},
		{"c++ and C++", []string{"c++×2"}},
		{"c++x", []string{"c++×1"}}, // "+" is no word rune: the end needs no check
		{"ac++", nil},
		{"STRASSE Straße", []string{"straße×2"}},
		{"", nil},
	}
	for _, tt := range tests {
		if got := found(s, tt.text); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Scan(%q) found %q, want %q", tt.text, got, tt.want)
		}
	}
}

const scoringList = `@threshold 3
online casino, 2
casino
roulette
jackpot, 0.5
@category lottery
@threshold 2
lottery ticket
powerball, 1.5
@category tenths
@threshold 1
t0, .1
t1, .1
t2, .1
t3, .1
t4, .1
t5, .1
t6, .1
t7, .1
t8, .1
t9, .1
`

func TestScoring(t *testing.T) {
	s := compileString(t, "gambling.txt", scoringList)
	tests := []struct {
		name  string
		doc   Doc
		want  Verdict
		cat   string
		score float64
	}{
		{"nothing", Doc{Title: "Weather", Text: "Sunny all week."}, White, "", 0},
		{"empty doc", Doc{}, White, "", 0},
		{"repeats count once", Doc{Text: "casino casino casino casino casino"}, Grey, "gambling", 1},
		{"two distinct", Doc{Text: "roulette at the casino"}, Grey, "gambling", 2},
		{"reaches threshold", Doc{Text: "online casino"}, Black, "gambling", 3}, // both terms
		{"over threshold", Doc{Text: "online casino roulette jackpot"}, Black, "gambling", 4.5},
		{"grey picks highest ratio", Doc{Text: "casino powerball"}, Grey, "lottery", 1.5},
		{"black picks highest ratio",
			Doc{Text: "online casino, powerball and a lottery ticket"}, Black, "lottery", 2.5},
		{"black beats higher grey ratio",
			Doc{Text: "online casino roulette jackpot t0"}, Black, "gambling", 4.5},
		{"places add up", Doc{Title: "Casino", Text: "roulette", Anchors: []string{"online casino"}}, Black, "gambling", 4},
		{"float sums reach", Doc{Text: "t0 t1 t2 t3 t4 t5 t6 t7 t8 t9"}, Black, "tenths", 1},
		{"nine tenths", Doc{Text: "t0 t1 t2 t3 t4 t5 t6 t7 t8"}, Grey, "tenths", 0.9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := s.Scan(tt.doc)
			if r.Verdict != tt.want || r.Category != tt.cat || !near(r.Score, tt.score) {
				t.Errorf("got %s %q %v, want %s %q %v (hits %+v)", r.Verdict, r.Category, r.Score, tt.want, tt.cat, tt.score, r.Hits)
			}
			if (r.Verdict == White) != (len(r.Hits) == 0) {
				t.Errorf("verdict %s with %d hits", r.Verdict, len(r.Hits))
			}
		})
	}
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

func TestThresholds(t *testing.T) {
	s := compileString(t, "gambling.txt", scoringList+"@threshold only-threshold 7\n@category plain\nword\n")
	for cat, want := range map[string]float64{
		"gambling": 3, "lottery": 2, "tenths": 1, "only-threshold": 7, "plain": DefaultThreshold, "unknown": DefaultThreshold,
	} {
		if got := s.Threshold(cat); got != want {
			t.Errorf("Threshold(%q) = %v, want %v", cat, got, want)
		}
	}
	if got, want := s.Categories(), []string{"gambling", "lottery", "only-threshold", "plain", "tenths"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Categories() = %q, want %q", got, want)
	}
	if got := s.NumTerms(); got != 17 {
		t.Errorf("NumTerms() = %d, want 17", got)
	}
	// A category at 3 by default reaches its threshold with three terms.
	s = compileString(t, "", "a\nb\nc\n")
	if r := s.Scan(Doc{Text: "a b"}); r.Verdict != Grey || r.Category != "default" {
		t.Errorf("two of three: %+v", r)
	}
	if r := s.Scan(Doc{Text: "a b c"}); r.Verdict != Black {
		t.Errorf("three of three: %+v", r)
	}
}

func TestCountsPerPlace(t *testing.T) {
	s := compileString(t, "g.txt", "casino\n赌博\nonline casino, 2\nnever, 5\n")
	r := s.Scan(Doc{
		Title:   "Casino Night",
		Text:    "casino, CASINO and 网上赌博",
		Anchors: []string{"casino", "best ｃａｓｉｎｏ", "赌博网站", "online", "casino"},
	})
	want := []Hit{
		{Term: "casino", Category: "g", Weight: 1, Title: 1, Text: 2, Anchor: 3},
		{Term: "赌博", Category: "g", Weight: 1, Title: 0, Text: 1, Anchor: 1},
	}
	if !reflect.DeepEqual(r.Hits, want) {
		t.Errorf("hits:\n got %+v\nwant %+v", r.Hits, want)
	}
	// "online" and "casino" in two anchors, or title and text, are not
	// "online casino": a term never spans two places.
	r = s.Scan(Doc{Title: "online", Text: "casino", Anchors: []string{"online", "casino"}})
	for _, h := range r.Hits {
		if h.Term == "online casino" {
			t.Errorf("matched across places: %+v", r.Hits)
		}
	}
}

func TestHitsOrder(t *testing.T) {
	s := compileString(t, "a.txt", "zeta, 2\nalpha\nbeta, 2\ngamma, 0.5\n@category b\nalpha\n")
	r := s.Scan(Doc{Text: "gamma alpha zeta beta"})
	var got []string
	for _, h := range r.Hits {
		got = append(got, h.Term+"/"+h.Category)
	}
	want := []string{"beta/a", "zeta/a", "alpha/a", "alpha/b", "gamma/a"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("order %q, want %q", got, want)
	}
}
