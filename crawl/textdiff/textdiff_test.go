package textdiff

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// render writes a diff as "=equal", "+inserted", "-deleted" pieces.
func render(segs []Segment) string {
	var parts []string
	for _, s := range segs {
		parts = append(parts, map[Op]string{Equal: "=", Insert: "+", Delete: "-"}[s.Op]+strings.TrimSpace(s.Text))
	}
	return strings.Join(parts, "|")
}

// rebuild joins the segments that belong to each side.
func rebuild(segs []Segment) (old, new string) {
	var a, b strings.Builder
	for _, s := range segs {
		if s.Op != Insert {
			a.WriteString(s.Text)
		}
		if s.Op != Delete {
			b.WriteString(s.Text)
		}
	}
	return a.String(), b.String()
}

func TestWords(t *testing.T) {
	tests := []struct {
		name, old, new string
		want           string
		size           Size
	}{
		{"both empty", "", "", "", Size{}},
		{"equal", "a b c", "a b c", "=a b c", Size{Old: 3, New: 3}},
		{"from nothing", "", "a b", "+a b", Size{Added: 2, New: 2}},
		{"to nothing", "a b", "", "-a b", Size{Removed: 2, Old: 2}},
		{"one word changed", "the quick brown fox", "the quick red fox", "=the quick|-brown|+red|=fox", Size{1, 1, 4, 4}},
		{"word appended", "the quick brown fox", "the quick brown fox jumps", "=the quick brown fox|+jumps", Size{1, 0, 4, 5}},
		{"all different", "a b", "c d", "-a b|+c d", Size{2, 2, 2, 2}},
		{"word inserted", "alpha beta gamma delta", "alpha beta new gamma delta", "=alpha beta|+new|=gamma delta", Size{1, 0, 4, 5}},
		{"no letter-level noise", "cat", "cot", "-cat|+cot", Size{1, 1, 1, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			segs := Words(tt.old, tt.new)
			if got := render(segs); got != tt.want {
				t.Errorf("Words(%q, %q) = %s, want %s", tt.old, tt.new, got, tt.want)
			}
			if got := SizeOf(segs); got != tt.size {
				t.Errorf("size %+v, want %+v", got, tt.size)
			}
			if a, b := rebuild(segs); a != tt.old || b != tt.new {
				t.Errorf("segments rebuild %q and %q", a, b)
			}
		})
	}
}

// TestRebuildRandom checks on random edits that a diff always gives both
// texts back and counts exactly the words it shows as changed.
func TestRebuildRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	vocab := strings.Fields("a b c d e f g h i j k l m n o p q r s t u v w x y z ä 中文 𝄞")
	text := func(n int) []string {
		w := make([]string, n)
		for i := range w {
			w[i] = vocab[rng.IntN(len(vocab))]
		}
		return w
	}
	for i := range 300 {
		old := text(rng.IntN(80))
		edited := append([]string(nil), old...)
		for range rng.IntN(6) {
			if len(edited) > 0 && rng.IntN(2) == 0 {
				edited[rng.IntN(len(edited))] = vocab[rng.IntN(len(vocab))]
			} else {
				at := rng.IntN(len(edited) + 1)
				edited = append(edited[:at], append([]string{vocab[rng.IntN(len(vocab))]}, edited[at:]...)...)
			}
		}
		a, b := strings.Join(old, " "), strings.Join(edited, " ")
		segs := Words(a, b)
		if x, y := rebuild(segs); x != a || y != b {
			t.Fatalf("case %d: rebuilt %q / %q from %q / %q", i, x, y, a, b)
		}
		s := SizeOf(segs)
		if s.Old != len(old) || s.New != len(edited) {
			t.Fatalf("case %d: size %+v for %d and %d words", i, s, len(old), len(edited))
		}
		if s.New-s.Added != s.Old-s.Removed {
			t.Fatalf("case %d: equal words differ between sides: %+v", i, s)
		}
	}
}

// TestManyDistinctWords uses more distinct words than the surrogate gap
// below them, so token numbers step over it.
func TestManyDistinctWords(t *testing.T) {
	var old, new []string
	for i := range 60000 {
		w := fmt.Sprintf("w%d", i)
		old = append(old, w)
		if i == 59000 {
			w = "changed"
		}
		new = append(new, w)
	}
	segs := Words(strings.Join(old, " "), strings.Join(new, " "))
	if got := SizeOf(segs); got.Added != 1 || got.Removed != 1 {
		t.Errorf("size %+v, want one word added and one removed", got)
	}
	if a, b := rebuild(segs); a != strings.Join(old, " ") || b != strings.Join(new, " ") {
		t.Error("segments do not rebuild the texts")
	}
}

// TestTimeoutStaysCorrect gives the diff no time at all: the result is
// coarse but still rebuilds both texts.
func TestTimeoutStaysCorrect(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var a, b []string
	for range 3000 {
		a = append(a, fmt.Sprint(rng.IntN(500)))
		b = append(b, fmt.Sprint(rng.IntN(500)))
	}
	old, new := strings.Join(a, " "), strings.Join(b, " ")
	segs := words(old, new, time.Nanosecond)
	if x, y := rebuild(segs); x != old || y != new {
		t.Error("a timed-out diff does not rebuild the texts")
	}
}

func TestChanged(t *testing.T) {
	for _, tt := range []struct {
		s    Size
		want float64
	}{{Size{}, 0}, {Size{Added: 1, Removed: 1, Old: 4, New: 4}, 0.25}, {Size{Added: 3, New: 3}, 1}} {
		if got := tt.s.Changed(); got != tt.want {
			t.Errorf("%+v.Changed() = %v, want %v", tt.s, got, tt.want)
		}
	}
}

func BenchmarkMeasure(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	words := make([]string, 1500)
	for i := range words {
		words[i] = fmt.Sprint("w", rng.IntN(3000))
	}
	old := strings.Join(words, " ")
	for i := 0; i < len(words); i += 20 {
		words[i] = "edited"
	}
	new := strings.Join(words, " ")
	b.SetBytes(int64(len(old) + len(new)))
	for b.Loop() {
		Measure(old, new)
	}
}
