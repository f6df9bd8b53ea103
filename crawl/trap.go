package crawl

import (
	"strings"
	"sync"

	"github.com/trawler/trawler/crawl/rabin"
)

// trapGuard stops endless URL spaces: calendars that always have a next
// month, paths that repeat a segment forever, query strings that keep
// growing. It decides on the URL alone, before it joins the crawl.
type trapGuard struct {
	budget    int // most URLs per digits-only pattern; 0 = no budget
	repeats   int // most occurrences of one path segment
	maxParams int // most query parameters

	mu       sync.Mutex
	patterns map[uint64]int32 // admitted URLs per pattern fingerprint
}

func newTrapGuard(c *Config) *trapGuard {
	return &trapGuard{budget: c.TrapBudget, repeats: c.TrapRepeats, maxParams: c.MaxQueryParams,
		patterns: map[uint64]int32{}}
}

// allow reports whether u may join the crawl, and why not.
func (g *trapGuard) allow(u string) (bool, string) {
	rest := u
	if i := strings.Index(rest, "://"); i >= 0 {
		rest = rest[i+3:]
	}
	path, query, _ := strings.Cut(rest, "?")
	if query != "" && strings.Count(query, "&")+1 > g.maxParams {
		return false, "too many query parameters"
	}
	if repeatsTooOften(path, g.repeats) {
		return false, "a path segment repeats"
	}
	if g.budget == 0 {
		return true, ""
	}
	pattern, digits := digitPattern(u)
	if !digits {
		return true, ""
	}
	fp := rabin.FingerprintString(pattern)
	g.mu.Lock()
	defer g.mu.Unlock()
	if int(g.patterns[fp]) >= g.budget {
		return false, "pattern over budget: " + pattern
	}
	g.patterns[fp]++
	return true, ""
}

// repeatsTooOften reports whether some segment of the path occurs more than
// n times (after the host).
func repeatsTooOften(hostPath string, n int) bool {
	_, path, ok := strings.Cut(hostPath, "/")
	if !ok || strings.Count(path, "/") < n {
		return false
	}
	segs := strings.Split(path, "/")
	counts := make(map[string]int, len(segs))
	for _, s := range segs {
		if s == "" {
			continue
		}
		if counts[s]++; counts[s] > n {
			return true
		}
	}
	return false
}

// digitPattern replaces every run of digits in u by '#', and reports
// whether there was any.
func digitPattern(u string) (string, bool) {
	var b strings.Builder
	found, inRun := false, false
	for i := 0; i < len(u); i++ {
		c := u[i]
		if c >= '0' && c <= '9' {
			if !inRun {
				b.WriteByte('#')
			}
			inRun, found = true, true
			continue
		}
		inRun = false
		b.WriteByte(c)
	}
	return b.String(), found
}
