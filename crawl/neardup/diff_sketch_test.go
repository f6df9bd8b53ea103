package neardup

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/trawler/trawler/crawl/rabin"
)

// slowFingerprint is a Rabin fingerprint by long division one bit at a
// time, independent of the rabin package's tables: the specification
// those tables are held to.
func slowFingerprint(s string) uint64 {
	r := uint64(1)
	for i := 0; i < len(s); i++ {
		for j := 7; j >= 0; j-- {
			top := r >> 63
			r = r<<1 | uint64(s[i]>>uint(j)&1)
			if top == 1 {
				r ^= rabin.Poly
			}
		}
	}
	return r
}

// refSketch is Sketch as it was at commit 259d8fa, written plainly (a
// slice of word starts for the ring) and with the fingerprint by long
// division: what a version 1 sketch must be, byte for byte, whatever
// makes rabin or shingling faster.
func refSketch(c Config, text string) Sketch {
	c = c.mustValid()
	mins := make([]uint64, c.Hashes)
	for i := range mins {
		mins[i] = noMin
	}
	mask := uint64(len(mins) - 1)
	var starts []int
	n, first, end := 0, -1, 0
	for i := 0; i < len(text); {
		if text[i] == ' ' {
			i++
			continue
		}
		start := i
		if j := strings.IndexByte(text[i:], ' '); j >= 0 {
			i += j
		} else {
			i = len(text)
		}
		if first < 0 {
			first = start
		}
		end = i
		if starts = append(starts, start); len(starts) >= c.Shingle {
			h := mix(slowFingerprint(text[starts[len(starts)-c.Shingle]:i]) ^ c.Seed)
			mins[h&mask] = min(mins[h&mask], h)
			n++
		}
	}
	if len(starts) > 0 && len(starts) < c.Shingle {
		h := mix(slowFingerprint(text[first:end]) ^ c.Seed)
		mins[h&mask] = h
		n = 1
	}
	if n == 0 {
		return nil
	}
	out := make(Sketch, c.Hashes)
	c.finish(mins, out)
	return out
}

// TestSketchMatchesReference holds version 1 Sketch to the reference on
// the texts of the golden test and of the corpora, under several
// configurations.
func TestSketchMatchesReference(t *testing.T) {
	texts := []string{"", " ", "a", "Page not found", "one two three four five six seven eight",
		"  two  spaces\tand a tab ", join(paragraphs(rand.New(rand.NewPCG(42, 42)), 4, 25))}
	texts = append(texts, siteCorpus(12)...)
	for _, p := range varied(24, DefaultShingle) {
		texts = append(texts, p.a, p.b)
	}
	configs := []Config{DefaultConfig(), {Hashes: 64, Shingle: 3, Seed: 7}, {Hashes: 64},
		{Hashes: 16, Shingle: 1}, {Hashes: 4096, Shingle: MaxShingle, Seed: 1 << 63}}
	for _, c := range configs {
		c.Version = Version1
		for _, text := range texts {
			if got, want := c.Sketch(text), refSketch(c, text); !slices.Equal(got, want) || (got == nil) != (want == nil) {
				t.Fatalf("%+v: Sketch(%.80q) differs from the reference", c, text)
			}
		}
	}
}

// FuzzSketchMatchesReference compares version 1 Sketch with the reference
// on arbitrary texts and configurations:
//
//	go test -run '^$' -fuzz FuzzSketchMatchesReference -fuzztime 3m ./crawl/neardup
func FuzzSketchMatchesReference(f *testing.F) {
	f.Add("Page not found", uint8(5), uint8(6), uint64(0))
	f.Add(join(paragraphs(rand.New(rand.NewPCG(42, 42)), 4, 25)), uint8(3), uint8(2), uint64(7))
	f.Add("a  b\x00c d\xffe f g h i j k", uint8(2), uint8(0), uint64(1))
	f.Fuzz(func(t *testing.T, text string, shingle, logK uint8, seed uint64) {
		c := Config{Version: Version1, Shingle: 1 + int(shingle)%MaxShingle, Hashes: 16 << (logK % 9), Seed: seed}
		if got, want := c.Sketch(text), refSketch(c, text); !slices.Equal(got, want) || (got == nil) != (want == nil) {
			t.Fatalf("%+v: Sketch(%q) = %x, reference %x", c, text, got, want)
		}
	})
}
