package wordscan

import (
	"cmp"
	"slices"
	"unicode/utf8"
)

// Doc is what Scan looks at for one page: its title, its body text, and
// the anchor texts of links pointing AT the page (what other pages call
// it, which paper 000 keeps as extended metadata).
type Doc struct {
	Title, Text string
	Anchors     []string
}

// Verdict is the list a page's URL belongs on.
type Verdict string

// The verdicts: Black when some category's score reaches its threshold,
// White when no term matched at all, Grey in between (some words found,
// too few to block).
const (
	Black Verdict = "black"
	White Verdict = "white"
	Grey  Verdict = "grey"
)

// Hit is one term found in a Doc, with its occurrences counted per
// place: Title, Text, and Anchor (all anchors together).
type Hit struct {
	Term, Category string // Term as written in the list
	Weight         float64
	Title, Text    int
	Anchor         int
}

// Result is Scan's answer. Category and Score name the deciding category:
// for Black the one with the highest score/threshold ratio among those
// that reached their threshold, for Grey the one with the highest ratio;
// for White they are empty and 0. Hits lists every term found, by weight
// (highest first), then term, then category.
type Result struct {
	Verdict  Verdict
	Score    float64
	Category string
	Hits     []Hit
}

// The places of a Doc, as indices into a term's counts.
const (
	placeTitle = iota
	placeText
	placeAnchor
)

// scratch is one Scan's working space, pooled per Scanner.
type scratch struct {
	norm    *normalizer
	buf     []byte
	counts  [][3]int32 // per term: occurrences per place
	touched []int32    // terms with non-zero counts
	score   []float64  // per category: sum of distinct terms' weights
	cats    []int32    // categories with a non-zero score
}

func (s *Scanner) newScratch() *scratch {
	return &scratch{
		norm:   newNormalizer(),
		counts: make([][3]int32, len(s.terms)),
		score:  make([]float64, len(s.cats)),
	}
}

// Scan checks d against the lists: it normalizes the title, the text and
// each anchor separately (a term never spans two of them), finds every
// occurrence of every term, and scores the categories as the package
// documentation describes. It is safe for concurrent use and allocates
// little beyond the returned Hits.
func (s *Scanner) Scan(d Doc) Result {
	// The scratch goes back to the pool only when Scan finishes cleanly,
	// so a half-used one is never reused.
	sc := s.pool.Get().(*scratch)
	s.scanPlace(sc, d.Title, placeTitle)
	s.scanPlace(sc, d.Text, placeText)
	for _, a := range d.Anchors {
		s.scanPlace(sc, a, placeAnchor)
	}
	if len(sc.touched) == 0 {
		s.pool.Put(sc)
		return Result{Verdict: White}
	}

	// Sum in term order, so that equal inputs give bit-equal scores.
	slices.Sort(sc.touched)
	hits := make([]Hit, 0, len(sc.touched))
	for _, ti := range sc.touched {
		t := &s.terms[ti]
		c := sc.counts[ti]
		hits = append(hits, Hit{
			Term: t.Text, Category: t.Category, Weight: t.Weight,
			Title: int(c[placeTitle]), Text: int(c[placeText]), Anchor: int(c[placeAnchor]),
		})
		sc.counts[ti] = [3]int32{}
		ci := s.termCat[ti]
		if sc.score[ci] == 0 {
			sc.cats = append(sc.cats, ci)
		}
		sc.score[ci] += t.Weight
	}
	sc.touched = sc.touched[:0]

	res := Result{Verdict: Grey, Hits: hits}
	best := sc.cats[0]
	for _, ci := range sc.cats[1:] {
		if s.outranks(sc, ci, best) {
			best = ci
		}
	}
	if reaches(sc.score[best], s.thresh[best]) {
		res.Verdict = Black
	}
	res.Category, res.Score = s.cats[best], sc.score[best]
	for _, ci := range sc.cats {
		sc.score[ci] = 0
	}
	sc.cats = sc.cats[:0]
	s.pool.Put(sc)

	slices.SortFunc(res.Hits, func(a, b Hit) int {
		if c := cmp.Compare(b.Weight, a.Weight); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Term, b.Term); c != 0 {
			return c
		}
		return cmp.Compare(a.Category, b.Category)
	})
	return res
}

// outranks reports whether category a decides over category b: one
// that reached its threshold over one that did not, then the higher
// score/threshold ratio, the higher score, the name first in order.
func (s *Scanner) outranks(sc *scratch, a, b int32) bool {
	sa, sb := sc.score[a], sc.score[b]
	if ra, rb := reaches(sa, s.thresh[a]), reaches(sb, s.thresh[b]); ra != rb {
		return ra
	}
	if qa, qb := sa/s.thresh[a], sb/s.thresh[b]; qa != qb {
		return qa > qb
	}
	if sa != sb {
		return sa > sb
	}
	return s.cats[a] < s.cats[b]
}

// reaches reports whether score reaches threshold, allowing for the
// rounding of float sums: ten terms of weight 0.1 reach a threshold of 1.
func reaches(score, threshold float64) bool {
	return score >= threshold*(1-1e-9)
}

// scanPlace counts the terms found in one place of a Doc.
func (s *Scanner) scanPlace(sc *scratch, text string, place int) {
	if text == "" {
		return
	}
	sc.buf = sc.norm.appendNorm(sc.buf[:0], text)
	b := sc.buf
	// IsMatch allocates nothing and stops at the first match; most
	// places (an anchor, a clean page) have none.
	if !s.ac.IsMatch(b) {
		return
	}
	for _, m := range s.ac.FindAllOverlapping(b) {
		p := &s.pats[m.PatternID]
		if p.checkStart && m.Start > 0 {
			if r, _ := utf8.DecodeLastRune(b[:m.Start]); isWordRune(r) {
				continue
			}
		}
		if p.checkEnd && m.End < len(b) {
			if r, _ := utf8.DecodeRune(b[m.End:]); isWordRune(r) {
				continue
			}
		}
		for _, ti := range p.terms {
			if sc.counts[ti] == [3]int32{} {
				sc.touched = append(sc.touched, ti)
			}
			sc.counts[ti][place]++
		}
	}
}
