// Package form is the model behind the window's New crawl screen: it reads
// what the user typed (seed lines, numbers, durations, sizes, rules) into a
// crawl.Config, says for each field what is wrong with it, and remembers the
// last settings between runs. It knows no widgets, so it is tested without
// a window.
package form

import (
	"errors"
	"fmt"
	"strings"

	"github.com/trawler/trawler/crawl/urlnorm"
)

// SeedLine is one non-empty line of the seeds box after checking.
type SeedLine struct {
	Line   int    // 1-based line number in the box
	Text   string // as typed, trimmed
	URL    string // normalized URL; empty when the line is rejected
	Added  bool   // "http://" was put in front of the text before normalizing
	DupOf  int    // line number of an earlier line with the same URL, or 0
	Reason string // why the line is not a crawlable URL; empty when it is
}

// OK reports whether the line is a crawlable URL.
func (s SeedLine) OK() bool { return s.Reason == "" }

// Note describes the line for the list under the seeds box: the reason it
// was rejected, or what was made of it when that differs from the text.
func (s SeedLine) Note() string {
	switch {
	case !s.OK():
		return fmt.Sprintf("line %d: %s — %q", s.Line, s.Reason, clip(s.Text, 60))
	case s.DupOf > 0:
		return fmt.Sprintf("line %d: same URL as line %d, crawled once", s.Line, s.DupOf)
	case s.Added:
		return fmt.Sprintf("line %d: read as %s", s.Line, s.URL)
	}
	return ""
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// ParseSeeds checks every non-empty line of text as a seed URL. A line
// without a scheme ("example.com", "localhost:8080/docs") is read as
// http://…; a line with another scheme ("mailto:…") is rejected. maxLen is
// the longest URL accepted (0 for the default). It returns the lines and
// the distinct crawlable URLs in order.
func ParseSeeds(text string, maxLen int) (lines []SeedLine, urls []string) {
	opts := urlnorm.Options{MaxLength: maxLen}
	first := map[string]int{}
	for i, raw := range strings.Split(text, "\n") {
		t := strings.TrimSpace(raw)
		if t == "" {
			continue
		}
		l := SeedLine{Line: i + 1, Text: t}
		in := t
		if needsScheme(t) {
			in, l.Added = "http://"+t, true
		}
		u, err := opts.Normalize(in)
		if err != nil {
			l.Reason = rejectReason(err)
			lines = append(lines, l)
			continue
		}
		l.URL = u
		if n, ok := first[u]; ok {
			l.DupOf = n
		} else {
			first[u] = l.Line
			urls = append(urls, u)
		}
		lines = append(lines, l)
	}
	return lines, urls
}

// needsScheme reports whether t has no scheme of its own. "host:8080/x"
// has none: what precedes the colon is a host when a port number follows.
func needsScheme(t string) bool {
	if strings.Contains(t, "://") {
		return false
	}
	i := strings.IndexByte(t, ':')
	if i <= 0 || !isScheme(t[:i]) {
		return true
	}
	rest := t[i+1:]
	return rest != "" && rest[0] >= '0' && rest[0] <= '9'
}

// isScheme reports whether s has the syntax of a URI scheme (RFC 3986 §3.1).
func isScheme(s string) bool {
	for i, c := range s {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return true
}

// rejectReason turns a normalization error into words for people.
func rejectReason(err error) string {
	var r *urlnorm.Rejection
	if !errors.As(err, &r) {
		return err.Error()
	}
	switch r.Reason {
	case urlnorm.ReasonScheme:
		return "not a web address: " + r.Detail
	case urlnorm.ReasonTooLong:
		return "too long: " + r.Detail
	case urlnorm.ReasonSyntax:
		return "not a URL: " + r.Detail
	}
	return r.Detail
}
