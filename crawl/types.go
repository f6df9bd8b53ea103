package crawl

import (
	"time"

	"github.com/trawler/trawler/crawl/neardup"
)

// State is where a URL stands: the four queues of paper 004.
type State int

// URL states. Waiting URLs are known but not yet fetched; Processing ones are
// in a worker's hands; Done ones have their page committed to the store;
// Error ones failed for good (network failure, refused status, bad body);
// Skipped ones were found and deliberately not fetched (see SkipReason).
const (
	Waiting State = iota
	Processing
	Done
	Error
	Skipped
)

var stateNames = [...]string{"waiting", "processing", "done", "error", "skipped"}

func (s State) String() string {
	if s >= 0 && int(s) < len(stateNames) {
		return stateNames[s]
	}
	return "unknown"
}

// LinkKind says how a page refers to a URL. Page kinds (a, area, frame,
// iframe, redirect, ftp) are fetched and parsed; resource kinds are stored as
// links and fetched only with Config.Resources.
type LinkKind string

// Reference kinds, named after the element (or mechanism) they come from.
const (
	LinkA          LinkKind = "a"
	LinkArea       LinkKind = "area"
	LinkFrame      LinkKind = "frame"
	LinkIFrame     LinkKind = "iframe"
	LinkImg        LinkKind = "img"
	LinkScript     LinkKind = "script"
	LinkLink       LinkKind = "link" // <link href>: stylesheets, icons, alternates
	LinkEmbed      LinkKind = "embed"
	LinkBackground LinkKind = "background" // <body background>
	LinkApplet     LinkKind = "applet"     // <applet code>
	LinkRedirect   LinkKind = "redirect"   // the Location of a 3xx answer: same depth as the redirecting URL
	LinkFTP        LinkKind = "ftp"        // an entry of an FTP directory listing
)

// IsPage reports whether URLs reached this way are crawled as pages, as
// opposed to resources that are only recorded (and probed with Resources).
func (k LinkKind) IsPage() bool {
	switch k {
	case LinkA, LinkArea, LinkFrame, LinkIFrame, LinkRedirect, LinkFTP:
		return true
	}
	return false
}

// Link is one reference found on a page, with its anchor or alt text
// (paper 000's "extended metadata").
type Link struct {
	URL      string   `json:"url"`
	Kind     LinkKind `json:"kind"`
	Text     string   `json:"text,omitempty"`
	NoFollow bool     `json:"nofollow,omitempty"` // rel="nofollow": recorded, not followed
}

// Hop is one step of a redirect chain: the URL asked for and the status
// that sent the crawler on.
type Hop struct {
	URL    string `json:"url"`
	Status int    `json:"status"`
}

// Page is the resource description of one fetched URL (paper 003 tables 1
// and 2): what was known before the download and what it told.
type Page struct {
	// Before download (paper 003 table 1).
	URL    string // normalized URL as queued
	FP     uint64 // Rabin fingerprint of URL
	Host   string // hostname:port
	IP     string // address the connection went to, when known
	Depth  int
	Parent string // URL of the page that first linked here; empty for seeds

	// After download (paper 003 table 2).
	Status          int
	FinalURL        string // the URL answered; equals URL (redirects are rows of their own)
	RedirectTo      string // Location of a 3xx answer, resolved and normalized; empty otherwise
	ContentType     string // media type without parameters
	Charset         string // charset the body was decoded from
	ContentEncoding string // as sent: gzip, br, deflate or empty
	ContentLength   int64  // from the header; -1 when absent
	Length          int64  // bytes of body read, after decompression
	Truncated       bool   // the body was longer than Config.MaxSize: only its first MaxSize bytes were read
	LastModified    time.Time
	Expires         time.Time
	ETag            string

	Title       string
	Description string
	Keywords    string
	Author      string
	Robots      string // content of <meta name="robots">
	Text        string // body text, whitespace collapsed

	ContentFP   uint64 // Rabin fingerprint of Text; 0 when there is no text
	DuplicateOf string // URL of an earlier page with the same ContentFP, if any

	// Near-duplicates (crawl/neardup), when Config.NearThreshold is set.
	// Sketch is nil for a page without text, and for an unchanged page
	// answered 304, whose stored sketch stays.
	Sketch         neardup.Sketch
	NearGroup      uint64  // near-duplicate group: URL fingerprint of the group's first page; 0 without a sketch
	NearOf         uint64  // URL fingerprint of the most similar earlier page, 0 when none reaches the threshold
	NearSimilarity float64 // estimated share of text shared with NearOf, in [threshold, 1]

	FetchedAt time.Time
	Duration  time.Duration
	Redirects []Hop // the chain a fetch followed, in crawls stored before redirects had rows of their own
	Links     []Link
	Resource  bool   // fetched as a resource: status, type and size only
	Err       string // why the fetch failed, for people; empty on success
}

// Failed reports whether the page ends in the error state: the fetch failed
// or the server answered with a 4xx or 5xx status.
func (p *Page) Failed() bool { return p.Err != "" || p.Status >= 400 }

// Item is a URL in the frontier, as the engine and the store exchange it.
type Item struct {
	URL      string
	FP       uint64 // Rabin fingerprint of URL: the URL's key in the store
	Depth    int
	Parent   string // referring page, empty for seeds
	Resource bool   // reached only as a resource (img, script, …)
	Hops     int    // redirects in a row that led here; 0 when a link did
	Urgent   bool   // from the priority lane (Store.ClaimUrgent): served before any other waiting URL

	// Validators are the stored page's, when a re-crawl visits the URL
	// again; nil otherwise. The fetch then asks for the page only if it
	// changed (If-None-Match, If-Modified-Since).
	Validators *Validators
}

// Validators are what a server said identifies the version of a page it
// sent: sent back on a revisit, they let an unchanged page be answered
// 304 Not Modified, without a body.
type Validators struct {
	ETag         string
	LastModified time.Time
}

// Change is what a visit found compared with the URL's previous visit, in
// an earlier cycle of the crawl (see Store.FinishCycle and the db package's
// change report).
type Change string

// Change classes. New: first visit. Changed: the body text's fingerprint
// (or the page's success or failure) differs from the previous visit's.
// Unchanged: 304 Not Modified, or the same fingerprint. Gone: the page
// answers 404 or 410, or no stored page links to it any more. Error: the
// visit failed otherwise (network, 5xx, other 4xx); the stored page keeps
// its last good content.
const (
	ChangeNew       Change = "new"
	ChangeChanged   Change = "changed"
	ChangeUnchanged Change = "unchanged"
	ChangeGone      Change = "gone"
	ChangeError     Change = "error"
)

// Changes lists the change classes in report order.
var Changes = []Change{ChangeNew, ChangeChanged, ChangeUnchanged, ChangeGone, ChangeError}

// Gone reports whether an HTTP status says the page is gone for good.
func Gone(status int) bool { return status == 404 || status == 410 }

// Batch is one atomic write to the store: URLs newly admitted to the
// frontier and the pages fetched, failed ones included. The engine groups many results into
// one batch (paper 000 uploads in 300 kB batches) so writes stay off the
// fetch path.
type Batch struct {
	// New URLs join the frontier as waiting. A URL already known keeps its
	// state, but a waiting one takes the smaller depth. Those with Held set
	// are leased to the writing run already (they sit in its memory window).
	New  []Item
	Held []bool // parallel to New; nil means none are held

	// Pages turn their URLs done, or error when Failed.
	Pages []*Page

	// Skipped URLs are recorded with their reason; a URL already known
	// keeps its state unless Claimed by the writing run.
	Skipped []Skip
}

// Empty reports whether the batch has nothing to write.
func (b *Batch) Empty() bool {
	return len(b.New) == 0 && len(b.Pages) == 0 && len(b.Skipped) == 0
}

// Totals is what the earlier runs of a crawl's current cycle fetched: the
// figures a resumed run carries on from.
type Totals struct {
	Bytes    int64         // body bytes stored
	ByDepth  []int64       // pages stored per depth
	ByStatus [6]int64      // pages stored per status class, as Progress.ByStatus
	Elapsed  time.Duration // time the runs spent crawling
}

// Counts is how many URLs of a crawl are in each state. A store counts
// leased URLs as waiting; only the running engine knows what is processing.
type Counts struct {
	Waiting, Processing, Done, Error, Skipped int64
}
