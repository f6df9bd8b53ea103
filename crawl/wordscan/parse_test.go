package wordscan

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseEntries(t *testing.T) {
	in := "\ufeff# comment\n" +
		"\n" +
		"casino\n" +
		"  online casino , 2 \r\n" +
		"poker room, , cards\n" +
		"jackpot, 0.5, \n" +
		"   # indented comment\n" +
		"@category lottery\n" +
		"scratch card, 1e0\n" +
		"powerball, 1.5, lotto games\n"
	l, err := Parse("lists/gambling.txt", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	f := "lists/gambling.txt"
	want := []Term{
		{"casino", 1, "gambling", f, 3},
		{"online casino", 2, "gambling", f, 4},
		{"poker room", 1, "cards", f, 5},
		{"jackpot", 0.5, "gambling", f, 6},
		{"scratch card", 1, "lottery", f, 9},
		{"powerball", 1.5, "lotto games", f, 10},
	}
	if !reflect.DeepEqual(l.Terms, want) {
		t.Errorf("terms:\n got %v\nwant %v", l.Terms, want)
	}
	if len(l.Thresholds) != 0 {
		t.Errorf("thresholds = %v, want none", l.Thresholds)
	}
	if !reflect.DeepEqual(l.Files, []string{f}) {
		t.Errorf("files = %v", l.Files)
	}
}

func TestParseDefaultCategory(t *testing.T) {
	tests := []struct{ name, want string }{
		{"gambling.txt", "gambling"},
		{"/etc/trawler/lists/fraud.words", "fraud"},
		{"noext", "noext"},
		{"archive.tar.gz", "archive.tar"},
		{".hidden", ".hidden"},
		{"", "default"},
	}
	for _, tt := range tests {
		l, err := Parse(tt.name, strings.NewReader("word\n"))
		if err != nil {
			t.Fatalf("%q: %v", tt.name, err)
		}
		if got := l.Terms[0].Category; got != tt.want {
			t.Errorf("Parse(%q): category %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestParseDirectives(t *testing.T) {
	in := "@threshold 4\n" + // file's category "gambling"
		"a\n" +
		"@category fraud\n" +
		"@threshold 2.5\n" + // fraud
		"b\n" +
		"@threshold online gambling 6\n" + // a category with a space
		"@threshold\tlottery\t5\n" +
		"@threshold fraud 2.5\n" + // same value again: fine
		"c, 1, online gambling\n" +
		"@category\t赌博\n" +
		"赌博\n"
	l, err := Parse("gambling.txt", strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	wantThr := map[string]float64{"gambling": 4, "fraud": 2.5, "online gambling": 6, "lottery": 5}
	if !reflect.DeepEqual(l.Thresholds, wantThr) {
		t.Errorf("thresholds = %v, want %v", l.Thresholds, wantThr)
	}
	var cats []string
	for _, tm := range l.Terms {
		cats = append(cats, tm.Category)
	}
	if want := []string{"gambling", "fraud", "online gambling", "赌博"}; !reflect.DeepEqual(cats, want) {
		t.Errorf("categories = %q, want %q", cats, want)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string // each error line, in order
	}{
		{"bad weight", "a\ncasino, x\n", []string{`w.txt:2: weight "x" is not a number`}},
		{"zero weight", "casino, 0", []string{`w.txt:1: weight 0 must be a positive number`}},
		{"negative weight", "casino, -2", []string{`w.txt:1: weight -2 must be a positive number`}},
		{"NaN weight", "casino, NaN", []string{`w.txt:1: weight NaN must be a positive number`}},
		{"Inf weight", "casino, +Inf", []string{`w.txt:1: weight +Inf must be a positive number`}},
		{"empty term", ", 2", []string{`w.txt:1: empty term`}},
		{"too many fields", "a, 1, b, c", []string{`w.txt:1: too many fields (4): want term, weight, category`}},
		{"unknown directive", "@include other.txt", []string{`w.txt:1: unknown directive "@include" (want @category or @threshold)`}},
		{"empty category", "@category  ", []string{`w.txt:1: @category: empty category`}},
		{"comma category", "@category a,b", []string{`w.txt:1: @category: category "a,b" holds a comma or line break`}},
		{"bare threshold", "@threshold", []string{`w.txt:1: @threshold needs a number`}},
		{"bad threshold", "@threshold x 0", []string{`w.txt:1: threshold 0 must be a positive number`}},
		{"threshold not number", "@threshold lots", []string{`w.txt:1: threshold "lots" is not a number`}},
		{"threshold conflict", "@threshold 3\n@threshold 4", []string{`w.txt:2: threshold 4 of category "w" differs from 3 set before`}},
		{"invalid UTF-8", "ok\nbad\xffbyte\n", []string{`w.txt:2: line is not valid UTF-8`}},
		{"normalizes to nothing", "\u200b\u00ad, 2", []string{`w.txt:1: term "\u200b\u00ad" is empty once normalized`}},
		{"duplicate", "casino\npoker\nCASINO, 2", []string{`w.txt:3: term "CASINO" repeats "casino" of category "w" (w.txt:1)`}},
		{"duplicate full-width", "casino\nｃａｓｉｎｏ", []string{`w.txt:2: term "ｃａｓｉｎｏ" repeats "casino" of category "w" (w.txt:1)`}},
		{"long line", "a\n" + strings.Repeat("x", maxLine+1), []string{`w.txt:2: line longer than 65536 bytes`}},
		{"errors sorted by line", "x\n, 1\ny, q\nX", []string{
			`w.txt:2: empty term`, `w.txt:3: weight "q" is not a number`, `w.txt:4: term "X" repeats "x" of category "w" (w.txt:1)`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := Parse("w.txt", strings.NewReader(tt.in))
			if err == nil {
				t.Fatalf("no error; lists %+v", l)
			}
			if l != nil {
				t.Errorf("lists returned with the error")
			}
			if got := strings.Split(err.Error(), "\n"); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("errors:\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

// TestParseFile reads testdata/invalid.txt, where each line is wrong in
// its own way, and checks that all are reported at once.
func TestParseFile(t *testing.T) {
	_, err := Load("testdata/invalid.txt")
	var errs *Errors
	if !errors.As(err, &errs) {
		t.Fatalf("error %v (%T), want *Errors", err, err)
	}
	f := "testdata/invalid.txt"
	want := []string{
		f + `:2: weight "x" is not a number`,
		f + `:3: empty term`,
		f + `:4: weight -1 must be a positive number`,
		f + `:5: weight NaN must be a positive number`,
		f + `:6: unknown directive "@colour" (want @category or @threshold)`,
		f + `:7: too many fields (4): want term, weight, category`,
		f + `:8: term "\u200b\u00ad" is empty once normalized`,
		f + `:9: line is not valid UTF-8`,
		f + `:10: threshold "many" is not a number`,
		f + `:12: term "BlackJack" repeats "blackjack" of category "invalid" (` + f + `:11)`,
	}
	var got []string
	for _, le := range errs.List {
		got = append(got, le.Error())
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("errors:\n got %q\nwant %q", got, want)
	}
	if errs.Truncated {
		t.Errorf("truncated with %d errors", len(errs.List))
	}
	var le *LineError
	if !errors.As(err, &le) || le.Line != 2 {
		t.Errorf("errors.As finds %+v, want the line-2 error", le)
	}
}

func TestParseStopsAfterTenErrors(t *testing.T) {
	in := strings.Repeat("a, x\n", 50)
	_, err := Parse("many.txt", strings.NewReader(in))
	var errs *Errors
	if !errors.As(err, &errs) {
		t.Fatalf("error %v", err)
	}
	if len(errs.List) != maxErrors || !errs.Truncated {
		t.Errorf("%d errors, truncated %v; want %d, true", len(errs.List), errs.Truncated, maxErrors)
	}
	if last := errs.List[len(errs.List)-1]; last.Line != maxErrors {
		t.Errorf("last error on line %d, want %d", last.Line, maxErrors)
	}
	if !strings.HasSuffix(err.Error(), "(too many errors; stopped)") {
		t.Errorf("message does not say it stopped: %q", err.Error())
	}
}

func TestLoadMerges(t *testing.T) {
	l, err := Load("testdata/gambling.txt", "testdata/zh-gambling.txt")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"testdata/gambling.txt", "testdata/zh-gambling.txt"}; !reflect.DeepEqual(l.Files, want) {
		t.Errorf("files = %q", l.Files)
	}
	wantThr := map[string]float64{"gambling": 3, "lottery": 2, "赌博": 3, "诈骗": 2}
	if !reflect.DeepEqual(l.Thresholds, wantThr) {
		t.Errorf("thresholds = %v, want %v", l.Thresholds, wantThr)
	}
	count := map[string]int{}
	for _, tm := range l.Terms {
		count[tm.Category]++
	}
	if want := map[string]int{"gambling": 8, "lottery": 3, "赌博": 10, "诈骗": 4}; !reflect.DeepEqual(count, want) {
		t.Errorf("terms per category = %v, want %v", count, want)
	}
	first, last := l.Terms[0], l.Terms[len(l.Terms)-1]
	if first.File != "testdata/gambling.txt" || first.Text != "online casino" || first.Line != 6 {
		t.Errorf("first term %+v", first)
	}
	if last.File != "testdata/zh-gambling.txt" || last.Text != "免费领取" || last.Weight != 0.5 {
		t.Errorf("last term %+v", last)
	}
}

func TestLoadRefusesAcrossFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := write("a.txt", "@category gambling\n@threshold 3\ncasino\n")
	b := write("b.txt", "@category gambling\n@threshold 3\nroulette\n")
	c := write("c.txt", "@category gambling\n@threshold 5\nCasino\n")
	if _, err := Load(a, b); err != nil {
		t.Errorf("a+b: %v (equal thresholds and distinct terms must merge)", err)
	}
	_, err := Load(a, c)
	if err == nil {
		t.Fatal("a+c merged")
	}
	for _, want := range []string{
		`threshold 5 of category "gambling" differs from 3 set by ` + a,
		c + `:3: term "Casino" repeats "casino" of category "gambling" (` + a + `:3)`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	_, err = Load(a, filepath.Join(dir, "missing.txt"))
	if err == nil || !strings.Contains(err.Error(), "missing.txt") {
		t.Errorf("missing file: %v", err)
	}
	if _, err := Load(); err == nil {
		t.Error("Load() with no paths succeeded")
	}
}
