package gateway

import (
	"context"
	"time"

	"github.com/trawler/trawler/urlfilter"
)

// Lists answers which list a URL or host is on. *urlfilter.Filter
// satisfies it; the gateway asks through this interface so the lists can
// be swapped (SetLists) while requests are being decided.
type Lists interface {
	// Lookup decides a full URL (plain http requests).
	Lookup(rawURL string) urlfilter.Match
	// LookupHost decides a host alone (HTTPS CONNECT, where the path is
	// never seen).
	LookupHost(host string) urlfilter.Match
}

// noLists is what a nil Lists becomes: every URL is on neither list.
type noLists struct{}

// Lookup finds nothing.
func (noLists) Lookup(string) urlfilter.Match { return urlfilter.Match{} }

// LookupHost finds nothing.
func (noLists) LookupHost(string) urlfilter.Match { return urlfilter.Match{} }

// Backend is the rest of Trawler as the gateway sees it: the crawl that
// decides unknown URLs, the store that explains verdicts, and the review
// queue for reports. The database implements it; the gateway never
// imports it.
type Backend interface {
	// Enqueue pushes a URL on neither list to the front of the crawl so
	// its verdict decides the next request (paper 002's priority queue).
	// It is called off the request path, from one goroutine, through a
	// bounded queue.
	Enqueue(ctx context.Context, rawURL string) error
	// Explain gives the details shown on a block page for match m. It may
	// fail; the page then renders without them.
	Explain(ctx context.Context, m urlfilter.Match, rawURL string) (Explanation, error)
	// Report records a person's "this is a mistake" for later review.
	Report(ctx context.Context, r Report) error
}

// Explanation says why an entry is on a list, for the block page.
type Explanation struct {
	// Source is how the entry got there: "manual", "verdict" (the
	// sensitive-word filter decided it from a crawled page) or "import".
	Source string
	// Score is the verdict's score (verdicts only).
	Score float64
	// Category is the verdict's category, if it differs from the entry's.
	Category string
	// Terms are the words that decided the verdict, with their counts.
	Terms []TermCount
	// Snippet is a short piece of the page's text; the page shows at most
	// a few hundred characters of it.
	Snippet string
	// CrawledAt is when the page was fetched (zero if never).
	CrawledAt time.Time
	// Note is free text from whoever added a manual entry.
	Note string
}

// TermCount is one sensitive word and how often a page used it.
type TermCount struct {
	Term  string
	Count int
}

// Report is one "this is a mistake" sent from a block page. The entry
// fields come from the page the gateway itself rendered (signed, so a
// page elsewhere cannot forge them); Client is the address that sent it.
type Report struct {
	URL      string
	Client   string
	Entry    string
	List     urlfilter.List
	Kind     urlfilter.Kind
	Category string
	Comment  string
	At       time.Time
}
