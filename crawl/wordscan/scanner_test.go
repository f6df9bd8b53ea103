package wordscan

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"sync"
	"testing"
)

func TestCompileRefuses(t *testing.T) {
	tests := []struct {
		name string
		l    *Lists
		want string
	}{
		{"nil", nil, "no terms"},
		{"empty", &Lists{}, "no terms"},
		{"zero weight", &Lists{Terms: []Term{{Text: "a", Weight: 0, Category: "c"}}}, `weight 0 of "a" must be a positive number`},
		{"NaN weight", &Lists{Terms: []Term{{Text: "a", Weight: math.NaN(), Category: "c"}}}, `weight NaN of "a"`},
		{"no category", &Lists{Terms: []Term{{Text: "a", Weight: 1}}}, "empty category"},
		{"blank term", &Lists{Terms: []Term{{Text: " \u200b ", Weight: 1, Category: "c"}}}, "empty once normalized"},
		{"bad UTF-8", &Lists{Terms: []Term{{Text: "a\xff", Weight: 1, Category: "c"}}}, "not valid UTF-8"},
		{"duplicate", &Lists{Terms: []Term{
			{Text: "Casino", Weight: 1, Category: "c", File: "x.txt", Line: 4},
			{Text: "casino", Weight: 2, Category: "c", File: "y.txt", Line: 9}}},
			`y.txt:9: term "casino" repeats "Casino" of category "c" (x.txt:4)`},
		{"bad threshold", &Lists{Terms: []Term{{Text: "a", Weight: 1, Category: "c"}},
			Thresholds: map[string]float64{"c": -1}}, `threshold -1 of category "c"`},
	}
	for _, tt := range tests {
		s, err := Compile(tt.l)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Compile = %v, %v; want error containing %q", tt.name, s, err, tt.want)
		}
	}
	// The same text in two categories is fine: both terms are found.
	s, err := Compile(&Lists{Terms: []Term{
		{Text: "casino", Weight: 1, Category: "gambling"},
		{Text: "CASINO", Weight: 2, Category: "travel"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if r := s.Scan(Doc{Text: "Casino"}); len(r.Hits) != 2 {
		t.Errorf("one text in two categories: hits %+v", r.Hits)
	}
}

func TestHash(t *testing.T) {
	hash := func(files ...string) string {
		t.Helper()
		var parts []*Lists
		for i, f := range files {
			l, err := Parse(fmt.Sprintf("f%d.txt", i), strings.NewReader(f))
			if err != nil {
				t.Fatal(err)
			}
			parts = append(parts, l)
		}
		l, err := Merge(parts...)
		if err != nil {
			t.Fatal(err)
		}
		s, err := Compile(l)
		if err != nil {
			t.Fatal(err)
		}
		return s.Hash()
	}
	base := hash("@category g\n@threshold 3\ncasino\nroulette, 2\n")
	if !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(base) {
		t.Fatalf("Hash() = %q, want 64 hex digits", base)
	}
	same := map[string][]string{
		"reordered":        {"@category g\nroulette, 2\ncasino\n"},
		"comments, blanks": {"# list\n\n@category g\n@threshold 3\n  casino , 1 \n\nroulette,2.0\n"},
		"split over files": {"@category g\ncasino\n", "roulette, 2, g\n"},
		"default spelled":  {"casino, 1, g\nroulette, 2, g\n@threshold g 3\n"},
	}
	for name, files := range same {
		if h := hash(files...); h != base {
			t.Errorf("%s: hash %s, want %s", name, h, base)
		}
	}
	differ := map[string]string{
		"weight":    "@category g\ncasino, 1.5\nroulette, 2\n",
		"threshold": "@category g\n@threshold 4\ncasino\nroulette, 2\n",
		"category":  "@category h\ncasino\nroulette, 2\n",
		"term":      "@category g\ncasinos\nroulette, 2\n",
		"spelling":  "@category g\nCasino\nroulette, 2\n", // Hit.Term shows it
		"extra":     "@category g\ncasino\nroulette, 2\npoker\n",
	}
	for name, f := range differ {
		if h := hash(f); h == base {
			t.Errorf("%s changed but the hash did not", name)
		}
	}
}

func TestTestdataLists(t *testing.T) {
	l, err := Load("testdata/gambling.txt", "testdata/zh-gambling.txt")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Compile(l)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		doc  Doc
		want Verdict
		cat  string
	}{
		{Doc{Title: "Trawler release notes", Text: "Faster crawling, fewer bugs."}, White, ""},
		{Doc{Title: "Monte Carlo travel guide", Text: "The famous Casino de Monte-Carlo opened in 1863."}, Grey, "gambling"},
		{Doc{Title: "ONLINE CASINO — Play Now", Text: "Spin the roulette, win the JACKPOT!",
			Anchors: []string{"best online casino"}}, Black, "gambling"},
		{Doc{Title: "今日新闻", Text: "本市天气晴朗，适合出行。"}, White, ""},
		{Doc{Title: "真人荷官在线", Text: "网上赌博平台，百家乐、老虎机，立即下注！"}, Black, "赌博"},
		{Doc{Text: "警惕兼职刷单骗局"}, Black, "诈骗"},
		{Doc{Text: "中奖通知：免费领取"}, Grey, "诈骗"},
		{Doc{Text: "Buy a POWERBALL lottery ticket", Anchors: []string{"六合彩"}}, Black, "lottery"},
	}
	for _, tt := range tests {
		r := s.Scan(tt.doc)
		if r.Verdict != tt.want || r.Category != tt.cat {
			t.Errorf("%q: %s %q (score %v, hits %+v), want %s %q", tt.doc.Title+tt.doc.Text, r.Verdict, r.Category, r.Score, r.Hits, tt.want, tt.cat)
		}
	}
}

// TestConcurrentScan runs one Scanner from many goroutines (run it with
// -race) and checks every answer against the sequential one, so that
// pooled scratch space leaking between Scans would show.
func TestConcurrentScan(t *testing.T) {
	l, err := Load("testdata/gambling.txt", "testdata/zh-gambling.txt")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Compile(l)
	if err != nil {
		t.Fatal(err)
	}
	docs := []Doc{
		{Text: "online casino roulette"},
		{Text: "网上赌博，六合彩", Anchors: []string{"赌场"}},
		{Title: "nothing", Text: "at all"},
		{Text: "casino casino", Anchors: []string{"CASINO", "jackpot"}},
		{Text: "兼职刷单 lottery ticket powerball"},
	}
	want := make([]string, len(docs))
	for i, d := range docs {
		want[i] = fmt.Sprintf("%+v", s.Scan(d))
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 300; i++ {
				k := (i + g) % len(docs)
				if got := fmt.Sprintf("%+v", s.Scan(docs[k])); got != want[k] {
					errs <- fmt.Sprintf("goroutine %d doc %d: %s, want %s", g, k, got, want[k])
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
