package neardup

import (
	"math/rand/v2"
	"slices"
	"strings"
)

// vocab is a deterministic vocabulary of 2,000 distinct made-up words of
// 2 to 10 letters.
var vocab = func() []string {
	rng := rand.New(rand.NewPCG(2000, 1))
	seen := make(map[string]bool)
	var words []string
	for len(words) < 2000 {
		b := make([]byte, 2+rng.IntN(9))
		for i := range b {
			b[i] = byte('a' + rng.IntN(26))
		}
		if w := string(b); !seen[w] {
			seen[w] = true
			words = append(words, w)
		}
	}
	return words
}()

// paragraphs returns n paragraphs of size random words each.
func paragraphs(rng *rand.Rand, n, size int) [][]string {
	ps := make([][]string, n)
	for i := range ps {
		ps[i] = randomWords(rng, size)
	}
	return ps
}

func randomWords(rng *rand.Rand, n int) []string {
	w := make([]string, n)
	for i := range w {
		w[i] = vocab[rng.IntN(len(vocab))]
	}
	return w
}

// join makes normalized page text of paragraphs.
func join(ps [][]string) string {
	var parts []string
	for _, p := range ps {
		parts = append(parts, strings.Join(p, " "))
	}
	return strings.Join(parts, " ")
}

// replaced returns a copy of ps with the paragraphs at the given
// positions rewritten with new random words.
func replaced(rng *rand.Rand, ps [][]string, at ...int) [][]string {
	out := slices.Clone(ps)
	for _, i := range at {
		out[i] = randomWords(rng, len(ps[i]))
	}
	return out
}

// shingleSet is the exact set of w-word shingles of text, computed
// independently of Config.Sketch: strings.Fields and strings.Join.
func shingleSet(text string, w int) map[string]bool {
	words := strings.Fields(text)
	set := make(map[string]bool)
	if len(words) > 0 && len(words) < w {
		set[strings.Join(words, " ")] = true
	}
	for i := 0; i+w <= len(words); i++ {
		set[strings.Join(words[i:i+w], " ")] = true
	}
	return set
}

// exact returns the Jaccard index and the Dice coefficient of two sets.
func exact(a, b map[string]bool) (jaccard, dice float64) {
	inter := 0
	for s := range a {
		if b[s] {
			inter++
		}
	}
	union := len(a) + len(b) - inter
	if union == 0 {
		return 0, 0
	}
	return float64(inter) / float64(union), 2 * float64(inter) / float64(len(a)+len(b))
}

// editWords returns words with n randomly chosen positions rewritten.
func editWords(rng *rand.Rand, words []string, n int) []string {
	out := append([]string(nil), words...)
	for range n {
		out[rng.IntN(len(out))] = vocab[rng.IntN(len(vocab))]
	}
	return out
}

// vocabIndex numbers the words of vocab.
var vocabIndex = func() map[string]uint64 {
	m := make(map[string]uint64, len(vocab))
	for i, w := range vocab {
		m[w] = uint64(i)
	}
	return m
}()

// wordShingles is shingleSet for a text of vocab words (at least w, w at
// most 5), faster: a shingle is the numbers of its words in 11 bits each.
func wordShingles(words []string, w int) map[uint64]bool {
	set := make(map[uint64]bool, len(words))
	for i := 0; i+w <= len(words); i++ {
		var key uint64
		for _, word := range words[i : i+w] {
			key = key<<11 | vocabIndex[word]
		}
		set[key] = true
	}
	return set
}

// exactDice returns the Dice coefficient of two sets.
func exactDice(a, b map[uint64]bool) float64 {
	inter := 0
	for s := range a {
		if b[s] {
			inter++
		}
	}
	return 2 * float64(inter) / float64(len(a)+len(b))
}
