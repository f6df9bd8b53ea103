package neardup

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// refMum is mum by big-integer arithmetic.
func refMum(a, b uint64) uint64 {
	p := new(big.Int).Mul(new(big.Int).SetUint64(a), new(big.Int).SetUint64(b))
	lo := new(big.Int).And(p, new(big.Int).SetUint64(^uint64(0)))
	return new(big.Int).Rsh(p, 64).Uint64() ^ lo.Uint64()
}

// refStep is a step of up to eight bytes of a word as version 2 reads it:
// little-endian, each byte XORed with a space, zero past the word's end.
func refStep(s string) uint64 {
	var t uint64
	for j := range len(s) {
		t |= uint64(s[j]^' ') << (8 * j)
	}
	return t
}

// refWordHash is version 2's hash of a word, written plainly: its full
// steps of eight bytes, then the rest (possibly none).
func refWordHash(word string) uint64 {
	h := uint64(wordSeed)
	for ; len(word) >= 8; word = word[8:] {
		h = refMum(refStep(word[:8])^wordKey1, h^wordKey2)
	}
	return refMum(refStep(word)^wordKey1, h^wordKey2)
}

// refSketchV2 is what a version 2 sketch must be, written plainly: the
// words split at spaces, each shingle's hash the polynomial of its words'
// hashes in Horner's form, mixed with the seed.
func refSketchV2(c Config, text string) Sketch {
	c = c.mustValid()
	var words []uint64
	for _, w := range strings.Split(text, " ") {
		if w != "" {
			words = append(words, refWordHash(w))
		}
	}
	if len(words) == 0 {
		return nil
	}
	mins := make([]uint64, c.Hashes)
	for i := range mins {
		mins[i] = noMin
	}
	key := mix(c.Seed ^ shingle2)
	put := func(shingle []uint64) {
		var poly uint64
		for _, h := range shingle {
			poly = poly*rollBase + h
		}
		h := mix(poly ^ key)
		b := h & uint64(c.Hashes-1)
		mins[b] = min(mins[b], h)
	}
	if len(words) < c.Shingle {
		put(words)
	}
	for i := 0; i+c.Shingle <= len(words); i++ {
		put(words[i : i+c.Shingle])
	}
	out := make(Sketch, c.Hashes)
	c.finish(mins, out)
	return out
}

// oddTexts returns texts that try the edges of reading eight bytes at a
// time: words of every length from 1 to 20 (and one of 100) ending at
// every distance from the end of the text, runs of spaces, leading and
// trailing spaces, and bytes that are not letters.
func oddTexts(rng *rand.Rand, n int) []string {
	alphabet := "abcxyz\x00\x01\x1f\x21\x7f\x80\xa0\xff\t\n"
	texts := []string{"", " ", "a", "abcdefgh", "abcdefgh ", " abcdefghijklmnop", "x\x00y  tab\there ünïcödé",
		strings.Repeat("w", 100), "a " + strings.Repeat("long", 40), strings.Repeat("ab cd ", 300)}
	for range n {
		var b strings.Builder
		b.WriteString(strings.Repeat(" ", rng.IntN(3)))
		for range rng.IntN(40) {
			size := 1 + rng.IntN(20)
			if rng.IntN(30) == 0 {
				size = 100
			}
			for range size {
				if rng.IntN(4) == 0 {
					b.WriteByte(alphabet[rng.IntN(len(alphabet))])
				} else {
					b.WriteByte(byte('a' + rng.IntN(26)))
				}
			}
			b.WriteString(strings.Repeat(" ", 1+rng.IntN(3)*rng.IntN(2)))
		}
		text := b.String()
		if rng.IntN(2) == 0 {
			text = strings.TrimRight(text, " ")
		}
		texts = append(texts, text)
	}
	return texts
}

// TestSketchV2MatchesReference holds version 2 Sketch to the plain
// reference on odd texts, long ones (more words than a block) and the
// corpora, under several configurations.
func TestSketchV2MatchesReference(t *testing.T) {
	texts := oddTexts(rand.New(rand.NewPCG(2, 2)), 400)
	texts = append(texts, siteCorpus(12)...)
	texts = append(texts, peerTexts(t, 3)...)
	for _, p := range varied(24, DefaultShingle) {
		texts = append(texts, p.a, p.b)
	}
	configs := []Config{DefaultConfig(), {Hashes: 64, Shingle: 3, Seed: 7}, {Hashes: 64}, {Shingle: 2},
		{Hashes: 16, Shingle: 1}, {Hashes: 4096, Shingle: MaxShingle, Seed: 1 << 63}}
	for _, c := range configs {
		c.Version = Version2
		for _, text := range texts {
			if got, want := c.Sketch(text), refSketchV2(c, text); !slices.Equal(got, want) || (got == nil) != (want == nil) {
				t.Fatalf("%+v: Sketch(%.80q) differs from the reference", c, text)
			}
		}
	}
}

// FuzzSketchV2MatchesReference compares version 2 Sketch with the
// reference on arbitrary texts and configurations:
//
//	go test -run '^$' -fuzz FuzzSketchV2MatchesReference -fuzztime 3m ./crawl/neardup
func FuzzSketchV2MatchesReference(f *testing.F) {
	f.Add("Page not found", uint8(5), uint8(6), uint64(0))
	f.Add(join(paragraphs(rand.New(rand.NewPCG(42, 42)), 4, 25)), uint8(3), uint8(2), uint64(7))
	f.Add("a  b\x00c d\xffe f g h i j k abcdefghijklmnopqrstuvwxyz", uint8(2), uint8(0), uint64(1))
	f.Fuzz(func(t *testing.T, text string, shingle, logK uint8, seed uint64) {
		c := Config{Version: Version2, Shingle: 1 + int(shingle)%MaxShingle, Hashes: 16 << (logK % 9), Seed: seed}
		if got, want := c.Sketch(text), refSketchV2(c, text); !slices.Equal(got, want) || (got == nil) != (want == nil) {
			t.Fatalf("%+v: Sketch(%q) = %x, reference %x", c, text, got, want)
		}
	})
}

// TestWordHashes checks that distinct words get distinct hashes: the
// vocabulary, also with NUL bytes appended (which a step must not confuse
// with the zeros past a word's end) and with a backquote (a space with
// another bit set), and every word of up to two bytes over an alphabet of
// edge bytes.
func TestWordHashes(t *testing.T) {
	var words []string
	for _, w := range vocab {
		words = append(words, w, w+"\x00", w+"\x00\x00", w+strings.Repeat("\x00", 8-len(w)%8), w+"`")
	}
	edge := "\x00\x01\x1f\x21\x60\x7f\x80\xa0\xdf\xe0\xffaz"
	for i := range len(edge) {
		words = append(words, edge[i:i+1])
		for j := range len(edge) {
			words = append(words, edge[i:i+1]+edge[j:j+1])
		}
	}
	seen := make(map[uint64]string)
	for _, w := range words {
		if w == "" || strings.Contains(w, " ") {
			continue
		}
		h := refWordHash(w)
		if other, ok := seen[h]; ok && other != w {
			t.Fatalf("words %q and %q have one hash %#x", other, w, h)
		}
		seen[h] = w
	}
}

// TestWordOrder checks that a shingle's hash depends on the order of its
// words: texts of the same words in another order share no shingle, and
// their estimated Similarity is about 0, under both versions.
func TestWordOrder(t *testing.T) {
	words := randomWords(rand.New(rand.NewPCG(3, 3)), 600)
	swapped := slices.Clone(words)
	for i := 0; i+1 < len(swapped); i += 2 {
		swapped[i], swapped[i+1] = swapped[i+1], swapped[i]
	}
	reversed := slices.Clone(words)
	slices.Reverse(reversed)
	tests := []struct {
		name string
		a, b string
	}{
		{"pairs swapped", strings.Join(words, " "), strings.Join(swapped, " ")},
		{"reversed", strings.Join(words, " "), strings.Join(reversed, " ")},
		{"one shingle, two words swapped", "alpha beta gamma delta epsilon", "alpha beta gamma epsilon delta"},
		{"short text reversed", "page not found", "found not page"},
	}
	for _, v := range []int{Version1, Version2} {
		c := Config{Version: v}
		for _, tt := range tests {
			if j, _ := exact(shingleSet(tt.a, c.withDefaults().Shingle), shingleSet(tt.b, c.withDefaults().Shingle)); j != 0 {
				t.Fatalf("%s: the texts share shingles (Jaccard %.3f)", tt.name, j)
			}
			sa, sb := c.Sketch(tt.a), c.Sketch(tt.b)
			if s := Similarity(sa, sb); s > 0.05 || slices.Equal(sa, sb) {
				t.Errorf("v%d, %s: Similarity %.3f, want about 0", v, tt.name, s)
			}
		}
	}
}

// TestSeeds checks that the seed picks the hash functions: under both
// versions, the sketches of one text under 20 seeds agree pairwise only
// by chance (an estimate near 0), and a seed gives the same sketch every
// time.
func TestSeeds(t *testing.T) {
	text := join(paragraphs(rand.New(rand.NewPCG(7, 7)), 40, 25))
	for _, v := range []int{Version1, Version2} {
		t.Run(fmt.Sprintf("v=%d", v), func(t *testing.T) {
			var sketches []Sketch
			for seed := range uint64(20) {
				c := Config{Version: v, Seed: seed * 0x1234567}
				s := c.Sketch(text)
				if !slices.Equal(s, c.Sketch(strings.Clone(text))) {
					t.Fatalf("seed %d: Sketch is not deterministic", seed)
				}
				sketches = append(sketches, s)
			}
			sum, pairs := 0.0, 0
			for i := range sketches {
				for j := range i {
					r := Resemblance(sketches[i], sketches[j])
					if r > 0.03 {
						t.Errorf("seeds %d and %d: Resemblance %.3f, want about 0", i, j, r)
					}
					sum += r
					pairs++
				}
			}
			if mean := sum / float64(pairs); mean > 0.005 {
				t.Errorf("mean Resemblance across seeds %.4f, want about 0", mean)
			}
		})
	}
}
