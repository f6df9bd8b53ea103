package wordscan

import (
	"bufio"
	"cmp"
	"errors"
	"io"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxLine bounds one line of a word list; longer lines are refused.
const maxLine = 64 << 10

// Parse reads one word list (the format is described in the package
// documentation). name is used in error messages and gives the default
// category (its base name without extension; "default" when name is
// empty). Refused lines are collected, about ten at most, and returned
// together as *Errors, each with name and line number; Parse then
// returns no Lists.
func Parse(name string, r io.Reader) (*Lists, error) {
	p := parser{
		name: name,
		cat:  categoryOfFile(name),
		out:  &Lists{Thresholds: map[string]float64{}, Files: []string{name}},
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxLine)
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if line == 1 {
			text = strings.TrimPrefix(text, "\uFEFF")
		}
		p.line(line, text)
		if p.c.stopped() {
			break
		}
	}
	if err := sc.Err(); err != nil {
		msg := err.Error()
		if errors.Is(err, bufio.ErrTooLong) {
			msg = "line longer than " + strconv.Itoa(maxLine) + " bytes"
		}
		p.c.add(name, line+1, "%s", msg)
	}
	if !p.c.stopped() {
		checkTerms(&p.c, p.out)
	}
	if err := p.c.err(); err != nil {
		sort.SliceStable(p.c.errs.List, func(i, j int) bool {
			return p.c.errs.List[i].Line < p.c.errs.List[j].Line
		})
		return nil, err
	}
	return p.out, nil
}

// parser is the state of one Parse: the default category in force and
// the lists read so far.
type parser struct {
	name string
	cat  string
	out  *Lists
	c    collector
}

// line handles one line of the file.
func (p *parser) line(n int, raw string) {
	if !utf8.ValidString(raw) {
		p.c.add(p.name, n, "line is not valid UTF-8")
		return
	}
	s := strings.TrimSpace(raw)
	switch {
	case s == "" || s[0] == '#':
		return
	case s[0] == '@':
		p.directive(n, s)
		return
	}
	fields := strings.Split(s, ",")
	if len(fields) > 3 {
		p.c.add(p.name, n, "too many fields (%d): want term, weight, category", len(fields))
		return
	}
	t := Term{Weight: DefaultWeight, Category: p.cat, File: p.name, Line: n}
	t.Text = strings.TrimSpace(fields[0])
	if t.Text == "" {
		p.c.add(p.name, n, "empty term")
		return
	}
	if len(fields) > 1 {
		if w := strings.TrimSpace(fields[1]); w != "" {
			v, ok := p.number(n, "weight", w)
			if !ok {
				return
			}
			t.Weight = v
		}
	}
	if len(fields) > 2 {
		if c := strings.TrimSpace(fields[2]); c != "" {
			t.Category = c
		}
	}
	// checkTerms validates the rest (normalized form, category, duplicates).
	p.out.Terms = append(p.out.Terms, t)
}

// directive handles "@category NAME" and "@threshold [CATEGORY] N".
func (p *parser) directive(n int, s string) {
	word, rest := s[1:], ""
	if i := strings.IndexFunc(word, unicode.IsSpace); i >= 0 {
		word, rest = word[:i], strings.TrimSpace(word[i:])
	}
	switch word {
	case "category":
		if msg := checkCategory(rest); msg != "" {
			p.c.add(p.name, n, "@category: %s", msg)
			return
		}
		p.cat = rest
	case "threshold":
		cat, num := "", rest
		if i := strings.LastIndexFunc(rest, unicode.IsSpace); i >= 0 {
			_, size := utf8.DecodeRuneInString(rest[i:])
			cat, num = strings.TrimSpace(rest[:i]), rest[i+size:]
		}
		if num == "" {
			p.c.add(p.name, n, "@threshold needs a number")
			return
		}
		if cat == "" {
			cat = p.cat
		} else if msg := checkCategory(cat); msg != "" {
			p.c.add(p.name, n, "@threshold: %s", msg)
			return
		}
		v, ok := p.number(n, "threshold", num)
		if !ok {
			return
		}
		if old, set := p.out.Thresholds[cat]; set && old != v {
			p.c.add(p.name, n, "threshold %s of category %q differs from %s set before", fmtNum(v), cat, fmtNum(old))
			return
		}
		p.out.Thresholds[cat] = v
	default:
		p.c.add(p.name, n, "unknown directive %q (want @category or @threshold)", "@"+word)
	}
}

// number parses a weight or threshold, which must be positive and finite.
func (p *parser) number(n int, what, s string) (float64, bool) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		p.c.add(p.name, n, "%s %q is not a number", what, s)
		return 0, false
	}
	if !positive(v) {
		p.c.add(p.name, n, "%s %s must be a positive number", what, s)
		return 0, false
	}
	return v, true
}

// sortedKeys returns m's keys in order, for deterministic output.
func sortedKeys[V any](m map[string]V) []string {
	return slices.SortedFunc(maps.Keys(m), cmp.Compare[string])
}
