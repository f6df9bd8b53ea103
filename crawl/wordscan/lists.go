package wordscan

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// DefaultWeight is the weight of an entry that gives none: each distinct
// term found counts 1 towards its category's score.
const DefaultWeight = 1.0

// DefaultThreshold is the score at which a category turns a page black
// when no @threshold line sets another: three distinct terms of weight 1,
// so that one stray word ("casino" in a travel guide) leaves a page grey.
const DefaultThreshold = 3.0

// defaultCategory is the category of entries read from a reader that has
// no file name.
const defaultCategory = "default"

// maxErrors is how many line errors Parse and Load collect before they
// stop reading.
const maxErrors = 10

// Term is one entry of a word list.
type Term struct {
	Text     string  // as written in the list, trimmed
	Weight   float64 // > 0; DefaultWeight when the entry gives none
	Category string  // the entry's own, or the default in force at its line
	File     string  // the list it came from ("" when built by hand)
	Line     int     // 1-based line in File (0 when built by hand)
}

// Lists is one or more parsed word-list files. Thresholds holds the
// thresholds that @threshold lines set; a category without one uses
// DefaultThreshold. Files names the lists in the order they were read.
type Lists struct {
	Terms      []Term
	Thresholds map[string]float64
	Files      []string
}

// LineError is one refused line of a word list, printed as
// "gambling.txt:12: weight "x" is not a number".
type LineError struct {
	File string // "" for a reader without a name
	Line int    // 1-based; 0 when the error concerns no single line
	Msg  string
}

// Error formats e as file:line: message, leaving out the parts it lacks.
func (e *LineError) Error() string {
	switch {
	case e.File != "" && e.Line > 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	case e.File != "":
		return e.File + ": " + e.Msg
	}
	return e.Msg
}

// Errors is what Parse, Load, Merge and Compile return when they refuse
// lines: up to about ten of them in file order, so that a user fixes a
// list in one round instead of one line per round. Truncated says that
// reading stopped with more errors possibly left.
type Errors struct {
	List      []*LineError
	Truncated bool
}

// Error prints one line error per line.
func (e *Errors) Error() string {
	var b strings.Builder
	for i, le := range e.List {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(le.Error())
	}
	if e.Truncated {
		b.WriteString("\n(too many errors; stopped)")
	}
	return b.String()
}

// Unwrap lets errors.As find each LineError.
func (e *Errors) Unwrap() []error {
	out := make([]error, len(e.List))
	for i, le := range e.List {
		out[i] = le
	}
	return out
}

// collector gathers line errors up to maxErrors.
type collector struct{ errs Errors }

// add records an error, or marks the collection truncated once it holds
// maxErrors; readers stop when stopped says so.
func (c *collector) add(file string, line int, format string, args ...any) {
	if len(c.errs.List) >= maxErrors {
		c.errs.Truncated = true
		return
	}
	c.errs.List = append(c.errs.List, &LineError{File: file, Line: line, Msg: fmt.Sprintf(format, args...)})
}

// stopped reports whether an error was refused for lack of room.
func (c *collector) stopped() bool { return c.errs.Truncated }

func (c *collector) err() error {
	if len(c.errs.List) == 0 {
		return nil
	}
	errs := c.errs
	return &errs
}

// Load reads and merges the word lists at paths, as Parse and Merge do.
// Each file's base name without extension is its default category.
// Errors from all files are collected together.
func Load(paths ...string) (*Lists, error) {
	if len(paths) == 0 {
		return nil, errors.New("wordscan: no word lists given")
	}
	var c collector
	parts := make([]*Lists, 0, len(paths))
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			c.add("", 0, "%v", err)
			continue
		}
		l, err := Parse(p, f)
		f.Close()
		var pe *Errors
		switch {
		case errors.As(err, &pe):
			for _, le := range pe.List {
				c.add(le.File, le.Line, "%s", le.Msg)
			}
			c.errs.Truncated = c.errs.Truncated || pe.Truncated
		case err != nil:
			c.add(p, 0, "%v", err)
		default:
			parts = append(parts, l)
		}
		if c.stopped() {
			break
		}
	}
	if err := c.err(); err != nil {
		return nil, err
	}
	return Merge(parts...)
}

// Merge joins lists read separately into one, as if they were one file
// per part. It refuses a term repeated in one category (the same text
// after normalizing) and a category given two different thresholds, each
// with the lines involved: merging them silently would hide which weight
// or threshold applies.
func Merge(parts ...*Lists) (*Lists, error) {
	out := &Lists{Thresholds: map[string]float64{}}
	var c collector
	thrFrom := map[string]string{}
	for _, l := range parts {
		if l == nil {
			continue
		}
		out.Files = append(out.Files, l.Files...)
		for _, k := range sortedKeys(l.Thresholds) {
			v := l.Thresholds[k]
			from := strings.Join(l.Files, ", ")
			if old, ok := out.Thresholds[k]; ok && old != v {
				c.add(from, 0, "threshold %s of category %q differs from %s set by %s", fmtNum(v), k, fmtNum(old), thrFrom[k])
				continue
			}
			out.Thresholds[k] = v
			thrFrom[k] = from
		}
		out.Terms = append(out.Terms, l.Terms...)
	}
	checkTerms(&c, out)
	if err := c.err(); err != nil {
		return nil, err
	}
	return out, nil
}

// checkTerms validates every term and threshold of l (as Parse does for
// its lines, so that hand-built Lists get the same checks) and refuses
// duplicates within a category.
func checkTerms(c *collector, l *Lists) {
	for _, k := range sortedKeys(l.Thresholds) {
		if msg := checkCategory(k); msg != "" {
			c.add("", 0, "threshold for %s", msg)
		}
		if v := l.Thresholds[k]; !positive(v) {
			c.add("", 0, "threshold %s of category %q must be a positive number", fmtNum(v), k)
		}
	}
	type key struct{ cat, norm string }
	seen := make(map[key]int, len(l.Terms))
	n := newNormalizer()
	var buf []byte
	for i := range l.Terms {
		t := &l.Terms[i]
		if c.stopped() {
			return
		}
		if !utf8.ValidString(t.Text) {
			c.add(t.File, t.Line, "term is not valid UTF-8")
			continue
		}
		buf = normTerm(n, buf[:0], t.Text)
		switch {
		case len(buf) == 0:
			c.add(t.File, t.Line, "term %q is empty once normalized", t.Text)
			continue
		case !positive(t.Weight):
			c.add(t.File, t.Line, "weight %s of %q must be a positive number", fmtNum(t.Weight), t.Text)
			continue
		}
		if msg := checkCategory(t.Category); msg != "" {
			c.add(t.File, t.Line, "%s", msg)
			continue
		}
		k := key{t.Category, string(buf)}
		if j, dup := seen[k]; dup {
			o := &l.Terms[j]
			c.add(t.File, t.Line, "term %q repeats %q of category %q (%s)", t.Text, o.Text, t.Category, where(o.File, o.Line))
			continue
		}
		seen[k] = i
	}
}

// normTerm appends the normalized form of a term: like text, and trimmed
// of the single space that normalizing may leave at either end.
func normTerm(n *normalizer, dst []byte, s string) []byte {
	start := len(dst)
	dst = n.appendNorm(dst, s)
	t := strings.TrimSpace(string(dst[start:]))
	return append(dst[:start], t...)
}

// checkCategory returns why name cannot be a category, or "".
func checkCategory(name string) string {
	switch {
	case name == "":
		return "empty category"
	case !utf8.ValidString(name):
		return "category is not valid UTF-8"
	case strings.TrimSpace(name) != name:
		return fmt.Sprintf("category %q has surrounding spaces", name)
	case strings.ContainsAny(name, ",\n\r"):
		return fmt.Sprintf("category %q holds a comma or line break", name)
	}
	return ""
}

// positive reports whether v is a usable weight or threshold.
func positive(v float64) bool {
	return v > 0 && !math.IsInf(v, 0) && !math.IsNaN(v)
}

func fmtNum(v float64) string { return fmt.Sprintf("%g", v) }

// where names a line as file:line, or what it has of the two.
func where(file string, line int) string {
	switch {
	case line == 0:
		return file
	case file == "":
		return fmt.Sprintf("line %d", line)
	}
	return fmt.Sprintf("%s:%d", file, line)
}

// categoryOfFile is the default category of a list named name: its base
// name without extension, or "default" for a nameless reader.
func categoryOfFile(name string) string {
	if name == "" {
		return defaultCategory
	}
	base := filepath.Base(name)
	if ext := filepath.Ext(base); ext != base {
		base = strings.TrimSuffix(base, ext)
	}
	if base == "" || base == "." || base == string(filepath.Separator) || checkCategory(base) != "" {
		return defaultCategory
	}
	return base
}
