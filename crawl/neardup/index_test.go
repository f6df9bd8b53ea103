package neardup

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
)

// randomSketch returns a sketch of k random, non-empty bins.
func randomSketch(rng *rand.Rand, k int) Sketch {
	s := make(Sketch, k)
	for i := range s {
		s[i] = uint8(1 + rng.IntN(255))
	}
	return s
}

// changed returns a copy of s with the bins [from, to) holding other
// non-empty values, shifted by 1+salt (salt < 254) within 1..255.
func changed(s Sketch, from, to int, salt uint8) Sketch {
	out := slices.Clone(s)
	for i := from; i < to; i++ {
		out[i] = uint8((int(s[i])+int(salt))%255) + 1
	}
	return out
}

// TestAddThreshold checks the match decision at the threshold: 185 bins
// of 1,024 disagreeing are Similarity 0.90027, 186 are 0.89967.
func TestAddThreshold(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	a := randomSketch(rng, DefaultHashes)
	tests := []struct {
		differ int
		want   bool
	}{{0, true}, {1, true}, {185, true}, {186, false}, {512, false}}
	for _, tt := range tests {
		x := NewIndex(Config{})
		x.Add(10, a)
		b := changed(a, 0, tt.differ, 0)
		m, ok := x.Add(20, b)
		if ok != tt.want {
			t.Errorf("%d minima differ: match %v, want %v", tt.differ, ok, tt.want)
			continue
		}
		want := Match{Group: 20}
		if ok {
			want = Match{ID: 10, Similarity: Similarity(a, b), Group: 10}
		}
		if m != want {
			t.Errorf("%d minima differ: Add = %+v, want %+v", tt.differ, m, want)
		}
	}
}

// TestGroups checks that groups are fixed at insertion: a page joins the
// group of its closest match, chains of matches share a group, and a page
// close to two groups does not merge them.
func TestGroups(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	k := DefaultHashes
	a := randomSketch(rng, k)
	b := changed(a, 800, 900, 1) // 0.95 to a
	c := changed(b, 400, 500, 2) // 0.95 to b, 0.89 to a
	d := changed(a, 0, 200, 3)   // 0.89 to a: a group of its own
	e := slices.Clone(d)         // d with its first 80 bins back as a's:
	copy(e[:80], a[:80])         // 0.96 to d, 0.94 to a
	z := randomSketch(rng, k)
	steps := []struct {
		id   uint64
		s    Sketch
		want Match
		ok   bool
	}{
		{1, a, Match{Group: 1}, false},
		{2, b, Match{ID: 1, Group: 1}, true},
		{3, c, Match{ID: 2, Group: 1}, true},
		{4, d, Match{Group: 4}, false},
		{5, e, Match{ID: 4, Group: 4}, true},
		{6, z, Match{Group: 6}, false},
		{7, slices.Clone(a), Match{ID: 1, Group: 1}, true}, // a copy: similarity 1
		{8, slices.Clone(a), Match{ID: 1, Group: 1}, true}, // copies match the first
		{9, nil, Match{Group: 9}, false},
		{10, a[:512], Match{Group: 10}, false}, // another size
	}
	x := NewIndex(Config{})
	for _, st := range steps {
		m, ok := x.Add(st.id, st.s)
		if ok {
			st.want.Similarity = Similarity(st.s, steps[st.want.ID-1].s)
		}
		if ok != st.ok || m != st.want {
			t.Errorf("Add(%d) = %+v, %v; want %+v, %v", st.id, m, ok, st.want, st.ok)
		}
	}
	if Similarity(c, a) >= DefaultThreshold || Similarity(d, a) >= DefaultThreshold {
		t.Fatal("test sketches are not as described")
	}
	if got, want := x.Len(), 8; got != want {
		t.Errorf("Len = %d, want %d", got, want)
	}
	if got, want := int(x.stored), 6; got != want {
		t.Errorf("%d sketches stored, want %d (copies are not stored)", got, want)
	}
}

// TestMaxChain checks that Add looks at most MaxChain pages deep into a
// band: a page whose only shared band holds its match behind MaxChain
// later pages is missed, one just within reach is found.
func TestMaxChain(t *testing.T) {
	k, r := DefaultHashes, DefaultRows
	for _, tt := range []struct {
		later int
		want  bool
	}{{MaxChain - 1, true}, {MaxChain, false}} {
		rng := rand.New(rand.NewPCG(7, uint64(tt.later)))
		first := randomSketch(rng, k)
		x := NewIndex(Config{})
		x.Add(1, first)
		for i := range tt.later { // pages sharing only band 0 with first
			s := randomSketch(rng, k)
			copy(s[:r], first[:r])
			x.Add(uint64(100+i), s)
		}
		probe := slices.Clone(first) // one change in every band but band 0
		for b := 1; b < DefaultBands; b++ {
			probe = changed(probe, b*r, b*r+1, 0)
		}
		m, ok := x.Add(2, probe)
		if ok != tt.want || (ok && m.ID != 1) {
			t.Errorf("match behind %d pages: Add = %+v, %v; want found %v", tt.later, m, ok, tt.want)
		}
	}
}

// plantedCorpus returns n random texts of 100 to 1,500 words and, for
// every other one, a near-duplicate whose exact Similarity is spread over
// [0.9, 1]: the most words of a random sequence of positions are
// rewritten that keep the Similarity at or above a target drawn from that
// range (found by binary search; rewriting more never raises it).
func plantedCorpus(n, w int) (texts []string, partner map[int]int, dice map[int]float64) {
	rng := rand.New(rand.NewPCG(2024, 6))
	partner, dice = make(map[int]int), make(map[int]float64)
	for i := range n {
		words := randomWords(rng, 100+rng.IntN(1400))
		texts = append(texts, join([][]string{words}))
		if i%2 == 1 {
			continue
		}
		target := 0.9 + 0.1*rng.Float64()
		orig := wordShingles(words, w)
		positions, replacements := rng.Perm(len(words)), randomWords(rng, len(words))
		edited := func(m int) ([]string, float64) {
			out := slices.Clone(words)
			for _, p := range positions[:m] {
				out[p] = replacements[p]
			}
			return out, exactDice(orig, wordShingles(out, w))
		}
		lo, hi := 0, len(words) // edited(lo) reaches the target, edited(hi) does not
		for hi-lo > 1 {
			if mid := (lo + hi) / 2; func() bool { _, d := edited(mid); return d >= target }() {
				lo = mid
			} else {
				hi = mid
			}
		}
		near, d := edited(lo)
		texts = append(texts, join([][]string{near}))
		a, b := len(texts)-2, len(texts)-1
		partner[a], partner[b] = b, a
		dice[a], dice[b] = d, d
	}
	return texts, partner, dice
}

// TestRecall plants 500 near-duplicate pairs, Similarity spread over
// [0.9, 1], among 1,000 unrelated pages, adds all in random order and
// counts the pairs LSH makes candidates (they share a band) and the pairs
// Add matches. The first is the S-curve, DetectionProbability(0.9) ≥
// 0.993; the second also loses pairs whose estimate falls under the
// threshold, about half of those right at it. Both versions must do so.
func TestRecall(t *testing.T) {
	for _, v := range versions {
		t.Run(fmt.Sprintf("v=%d", v), func(t *testing.T) {
			c := DefaultConfig()
			c.Version = v
			testRecall(t, c)
		})
	}
}

func testRecall(t *testing.T, c Config) {
	texts, partner, dice := plantedCorpus(1000, c.Shingle)
	sketches := make([]Sketch, len(texts))
	for i, s := range texts {
		sketches[i] = c.Sketch(s)
	}
	x := NewIndex(c)
	order := rand.New(rand.NewPCG(8, 8)).Perm(len(texts))
	matched := make(map[int]Match)
	for _, i := range order {
		if m, ok := x.Add(uint64(i), sketches[i]); ok {
			matched[i] = m
		}
	}
	pairs, candidates, found, wrong := 0, 0, 0, 0
	for a, b := range partner {
		if a > b {
			continue
		}
		pairs++
		ka, kb := make([]uint32, c.Bands), make([]uint32, c.Bands)
		x.keys(sketches[a], ka)
		x.keys(sketches[b], kb)
		for i := range ka {
			if ka[i] == kb[i] {
				candidates++
				break
			}
		}
		later := b
		if slices.Index(order, a) > slices.Index(order, b) {
			later = a
		}
		if m, ok := matched[later]; ok && m.ID == uint64(partner[later]) {
			found++
		}
	}
	for i, m := range matched {
		if p, ok := partner[i]; !ok || m.ID != uint64(p) {
			wrong++
			t.Logf("page %d matched %d (similarity %.3f), not its partner", i, m.ID, m.Similarity)
		}
	}
	var lo, hi float64 = 1, 0
	for a, d := range dice {
		lo, hi = min(lo, d), max(hi, d)
		if a < 20 { // the fast exact similarity agrees with the plain one
			if _, want := exact(shingleSet(texts[a], c.Shingle), shingleSet(texts[partner[a]], c.Shingle)); d != want {
				t.Fatalf("pair %d: similarity %v, shingleSet gives %v", a, d, want)
			}
		}
	}
	t.Logf("%d pairs, exact similarity %.3f to %.3f: LSH candidates %d (%.1f%%), matched %d (%.1f%%), wrong matches %d",
		pairs, lo, hi, candidates, 100*float64(candidates)/float64(pairs), found, 100*float64(found)/float64(pairs), wrong)
	if candidates < pairs*95/100 {
		t.Errorf("LSH made %d of %d pairs candidates, want at least 95%%", candidates, pairs)
	}
	if found < pairs*90/100 {
		t.Errorf("Add matched %d of %d pairs, want at least 90%%", found, pairs)
	}
	if wrong > 0 {
		t.Errorf("%d pages matched another than their partner", wrong)
	}
}

// TestConcurrentAdd adds pairs of near-copies from several goroutines; run
// with -race. Whichever of a pair comes second must join the first's group.
func TestConcurrentAdd(t *testing.T) {
	c := DefaultConfig()
	rng := rand.New(rand.NewPCG(11, 12))
	const pairs = 200
	sketches := make([]Sketch, 2*pairs)
	for i := range pairs {
		ps := paragraphs(rng, 20, 50)
		sketches[2*i] = c.Sketch(join(ps))
		sketches[2*i+1] = c.Sketch(join(replaced(rng, ps, rng.IntN(20))))
	}
	x := NewIndex(c)
	groups := make([]uint64, len(sketches))
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := g; i < len(sketches); i += 4 { // pair members go to different goroutines
				m, _ := x.Add(uint64(i), sketches[i])
				groups[i] = m.Group
			}
		})
	}
	wg.Wait()
	if got := x.Len(); got != len(sketches) {
		t.Errorf("Len = %d, want %d", got, len(sketches))
	}
	for i := 0; i < len(sketches); i += 2 {
		if groups[i] != groups[i+1] || (groups[i] != uint64(i) && groups[i] != uint64(i+1)) {
			t.Errorf("pair %d, %d: groups %d, %d", i, i+1, groups[i], groups[i+1])
		}
	}
}

// TestRebuild checks that adding stored sketches again in the same order,
// as a resumed crawl does, gives the same matches.
func TestRebuild(t *testing.T) {
	c := DefaultConfig()
	texts, _, _ := plantedCorpus(200, c.Shingle)
	var stored [][]byte
	first := NewIndex(c)
	var want []Match
	for i, text := range texts {
		s := c.Sketch(text)
		m, _ := first.Add(uint64(i), s)
		want = append(want, m)
		b, err := s.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		stored = append(stored, b)
	}
	again := NewIndex(c)
	for i, b := range stored {
		var s Sketch
		if err := s.UnmarshalBinary(b); err != nil {
			t.Fatal(err)
		}
		if m, _ := again.Add(uint64(i), s); m != want[i] {
			t.Fatalf("page %d: rebuilt index gives %+v, first gave %+v", i, m, want[i])
		}
	}
}

// TestTemplateSite checks recall where every page is 80% one template, so
// that any two pages have a Similarity near 0.8 and each band has a key
// shared by hundreds of pages, far more than MaxChain: near-copies of
// early pages, added late, must still be found through the bands their
// own text decides. Both versions must do so.
func TestTemplateSite(t *testing.T) {
	for _, v := range versions {
		t.Run(fmt.Sprintf("v=%d", v), func(t *testing.T) {
			c := DefaultConfig()
			c.Version = v
			testTemplateSite(t, c)
		})
	}
}

func testTemplateSite(t *testing.T, c Config) {
	rng := rand.New(rand.NewPCG(88, 89))
	shared := join([][]string{randomWords(rng, 800)})
	var bodies [][]string
	var sketches []Sketch
	partner := make(map[int]int)
	for i := range 2000 {
		body := randomWords(rng, 200)
		if i%20 == 19 {
			j := rng.IntN(i / 2) // an early page
			body = editWords(rng, bodies[j], 12)
			partner[i] = j
		}
		bodies = append(bodies, body)
		sketches = append(sketches, c.Sketch(shared+" "+join([][]string{body})))
	}
	x := NewIndex(c)
	found, other := 0, 0
	for i, s := range sketches {
		m, ok := x.Add(uint64(i), s)
		p, planted := partner[i]
		switch {
		case planted && ok && m.ID == uint64(p):
			found++
		case ok && !planted:
			other++
		}
	}
	var lo, hi float64 = 1, 0
	for i, p := range partner {
		_, d := exact(shingleSet(shared+" "+join([][]string{bodies[i]}), c.Shingle), shingleSet(shared+" "+join([][]string{bodies[p]}), c.Shingle))
		lo, hi = min(lo, d), max(hi, d)
	}
	t.Logf("%d of %d near-copies found (exact similarity %.3f to %.3f), %d other pages matched", found, len(partner), lo, hi, other)
	if found < len(partner)*95/100 || other > 0 {
		t.Errorf("found %d of %d near-copies, want 95%%; %d unplanted matches, want 0", found, len(partner), other)
	}
}
