package crawl

// SkipReason says why a URL the crawl found was not fetched. Skipped URLs
// are kept in the store with their reason, so a user can see what the
// crawl left out and why, as Screaming Frog and Heritrix report it.
type SkipReason string

// Skip reasons. Most belong to the URL itself (it stays out of scope
// however it is reached); depth and nofollow belong to the link that led
// to it, so a later link may still bring the URL into the crawl (see
// PathDependent).
const (
	SkipRobots    SkipReason = "robots"    // disallowed by robots.txt (found when its turn came)
	SkipScope     SkipReason = "scope"     // outside the crawl's hosts or domains
	SkipExcluded  SkipReason = "excluded"  // matched --exclude, or no --include rule
	SkipTooLong   SkipReason = "too-long"  // longer than --max-url-length
	SkipScheme    SkipReason = "scheme"    // not http, https or ftp (mailto:, javascript:, …)
	SkipTrap      SkipReason = "trap"      // the trap guard's limits (repeating paths, endless patterns)
	SkipHostCap   SkipReason = "host-cap"  // over --max-per-host
	SkipNoFollow  SkipReason = "nofollow"  // linked with rel=nofollow, or from a page that forbids following
	SkipDepth     SkipReason = "depth"     // beyond the depth limit
	SkipRedirects SkipReason = "redirects" // more redirects in a row than --max-redirects
	SkipPageCap   SkipReason = "page-cap"  // still waiting when the crawl reached --max-pages
)

// SkipReasons lists the reasons in the order reports show them.
var SkipReasons = []SkipReason{SkipRobots, SkipScope, SkipExcluded, SkipTooLong, SkipScheme, SkipTrap,
	SkipHostCap, SkipNoFollow, SkipDepth, SkipRedirects, SkipPageCap}

var skipLabels = map[SkipReason]string{
	SkipRobots:    "disallowed by robots.txt",
	SkipScope:     "out of scope",
	SkipExcluded:  "excluded by include/exclude rules",
	SkipTooLong:   "URL too long",
	SkipScheme:    "scheme not crawled",
	SkipTrap:      "trap guard",
	SkipHostCap:   "over the per-host cap",
	SkipNoFollow:  "nofollow",
	SkipDepth:     "beyond the depth limit",
	SkipRedirects: "too many redirects",
	SkipPageCap:   "over the page cap",
}

// Label is the reason in words, for tables and reports.
func (r SkipReason) Label() string {
	if l, ok := skipLabels[r]; ok {
		return l
	}
	return string(r)
}

// PathDependent reports whether the reason comes from the link that led
// to the URL rather than from the URL, so another link may still admit it.
func (r SkipReason) PathDependent() bool { return r == SkipDepth || r == SkipNoFollow }

// Skip is a URL that was found and not fetched, with why.
type Skip struct {
	URL      string
	FP       uint64 // Rabin fingerprint of URL
	Depth    int    // depth it would have had
	Parent   string // the page that linked to it
	Resource bool
	Reason   SkipReason

	// Claimed is set when the URL was already in the frontier, leased to
	// the writing run, and turned out skipped when its turn came (robots.txt).
	Claimed bool
}
