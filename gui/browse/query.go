package browse

import (
	"strconv"
	"strings"

	"github.com/trawler/trawler/db"
)

// Filters are the Results screen's filter controls as chosen.
type Filters struct {
	Status string // one of StatusChoices
	Type   string // media type, "" for any
	Host   string // host:port, "" for any
	Depth  string // a number, "" for any
	Search string // as typed
	// NearDuplicates keeps only pages in a near-duplicate group.
	NearDuplicates bool
	Verdict        string // one of VerdictChoices
}

// VerdictChoices are the verdict filter's choices (paper 002's
// sensitive-word filter), "Any verdict" first.
var VerdictChoices = []string{"Any verdict", "Black", "Grey", "White"}

// StatusChoices are the status-class filter's choices, "Any status" first
// and "Skipped" (URLs found and not fetched) last.
var StatusChoices = []string{"Any status", "2xx success", "Redirects (3xx)", "4xx client error", "5xx server error",
	"No response", SkippedChoice}

// SkippedChoice lists the skipped URLs, with their reasons, instead of pages.
const SkippedChoice = "Skipped"

func statusClass(choice string) int {
	switch choice {
	case "2xx success":
		return 2
	case "Redirects (3xx)":
		return 3
	case "4xx client error":
		return 4
	case "5xx server error":
		return 5
	case "No response":
		return -1
	}
	return 0
}

// Query builds the listing of crawl for the filters, sorted by sort.
func (f Filters) Query(crawl int64, sort db.SortKey, desc bool) db.PageQuery {
	q := db.PageQuery{
		Crawl:       crawl,
		StatusClass: statusClass(f.Status),
		ContentType: f.Type,
		Host:        f.Host,
		Search:      strings.TrimSpace(f.Search),
		Sort:        sort,
		Desc:        desc,

		NearDuplicates: f.NearDuplicates,
		Skipped:        f.Status == SkippedChoice,
	}
	if f.Verdict != "" && f.Verdict != VerdictChoices[0] {
		q.Verdict = strings.ToLower(f.Verdict)
	}
	if q.Search != "" && !q.Skipped && q.Sort == db.SortStored {
		q.Sort = db.SortRelevance // a search lists the best matches first unless another sort is chosen
	}
	if n, err := strconv.Atoi(strings.TrimSpace(f.Depth)); err == nil && n >= 0 {
		q.Depth = &n
	}
	return q
}

// Span is a piece of a search snippet; Match marks the words that matched.
type Span struct {
	Text  string
	Match bool
}

// Spans splits a snippet whose matches are marked out of band (between
// db.MatchStart and db.MatchEnd) into plain and matching pieces; the
// page's own characters, brackets included, are kept as they are.
func Spans(snippet string) []Span {
	var out []Span
	for snippet != "" {
		open := strings.IndexRune(snippet, db.MatchStart)
		if open < 0 {
			break
		}
		rest := snippet[open+len(string(db.MatchStart)):]
		end := strings.IndexRune(rest, db.MatchEnd)
		if end < 0 {
			break
		}
		if open > 0 {
			out = append(out, Span{Text: snippet[:open]})
		}
		if m := rest[:end]; m != "" {
			out = append(out, Span{Text: m, Match: true})
		}
		snippet = rest[end+len(string(db.MatchEnd)):]
	}
	if snippet != "" {
		out = append(out, Span{Text: snippet})
	}
	return out
}

// Fit shortens spans to width, cutting the span that crosses it and ending
// with "…"; measure gives a span's width. Whole runes are kept.
func Fit(spans []Span, width float32, measure func(Span) float32) []Span {
	var out []Span
	used := float32(0)
	for _, sp := range spans {
		w := measure(sp)
		if used+w <= width {
			out = append(out, sp)
			used += w
			continue
		}
		room := width - used - measure(Span{Text: "…"})
		r := []rune(sp.Text)
		lo, hi := 0, len(r) // the longest prefix that fits is r[:lo]
		for lo < hi {
			mid := (lo + hi + 1) / 2
			if measure(Span{Text: string(r[:mid]), Match: sp.Match}) <= room {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		if lo > 0 {
			out = append(out, Span{Text: string(r[:lo]), Match: sp.Match})
		}
		return append(out, Span{Text: "…"})
	}
	return out
}
