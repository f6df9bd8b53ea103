// Package profile reads and writes a crawl's settings as a TOML file: every
// field of crawl.Config under the name of its `trawler crawl` flag, so a
// profile, the command line and the window's form say the same thing.
//
// Reading is strict: an unknown key, a value of the wrong type or out of
// range is refused with its line and the reason ("profile line 7: key
// "threads": must be between 1 and 1000, got 5000"). Writing puts every key
// with a comment explaining it, and never a password: per-host auth lists
// host and user only, a proxy URL keeps its user but not its password.
package profile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/pelletier/go-toml/v2"

	"github.com/trawler/trawler/crawl"
)

// file is a profile as TOML sees it. Each field has the name of the
// crawl.Config field it stands for (fields are copied by name), the flag's
// name as its key and a comment for people reading the file.
type file struct {
	Seeds []string `toml:"seeds" comment:"start URLs (URLs given on the command line replace these)"`

	Depth    int            `toml:"depth" comment:"link hops from a seed; seeds are depth 0, so 0 fetches the seeds only; a redirect is not a link hop: its target keeps the depth of the URL that redirected"`
	Threads  int            `toml:"threads" comment:"workers fetching at once, 1 to 1000"`
	PerHost  int            `toml:"per-host" comment:"requests at once to one host; 0 = as many as threads"`
	Strategy crawl.Strategy `toml:"strategy" comment:"order of the crawl: bfs (breadth-first), dfs (depth-first) or mixed"`
	Mix      float64        `toml:"mix" comment:"mixed order: share of picks taken depth-first, 0 to 1 (0 = the default, 0.5)"`
	RandSeed int64          `toml:"seed" comment:"seed of the mixed order's random choices, to repeat a crawl exactly"`
	MaxPages int            `toml:"max-pages" comment:"stop after fetching this many URLs; 0 = no cap"`

	Scope   crawl.Scope `toml:"scope" comment:"URLs followed: host (the seeds' host names), domain (their registrable domains) or any"`
	Include []string    `toml:"include" comment:"if not empty, follow only URLs matching one of these regular expressions"`
	Exclude []string    `toml:"exclude" comment:"skip URLs matching any of these regular expressions"`

	ConnectTimeout duration   `toml:"connect-timeout" comment:"time allowed to connect, like \"10s\""`
	Timeout        duration   `toml:"timeout" comment:"time allowed for a whole response, body included, like \"30s\""`
	MaxRedirects   int        `toml:"max-redirects" comment:"redirects in a row followed from one URL; each URL of a chain is stored with its own 3xx status"`
	UserAgent      string     `toml:"user-agent" comment:"User-Agent header sent with every request"`
	MaxSize        size       `toml:"max-size" comment:"largest body read, after decompression: a size like \"10MiB\" or \"500KB\", or bytes; a longer page keeps its first bytes and is marked truncated"`
	Proxy          string     `toml:"proxy" comment:"proxy URL like http://host:3128 or socks5://user@host:1080; \"\" = direct. Never a password: trawler asks or uses the keychain"`
	Resources      bool       `toml:"resources" comment:"also fetch images, scripts and styles (status, type and size only)"`
	ContentTypes   []string   `toml:"content-types" comment:"media types whose bodies are kept and parsed"`
	MaxURLLength   int        `toml:"max-url-length" comment:"longer URLs are rejected (at least 16)"`
	ExpectedURLs   int        `toml:"expected-urls" comment:"URLs the crawl expects to see; sizes the filter of seen URLs"`
	MemoryURLs     int        `toml:"memory-urls" comment:"waiting URLs held in memory, the rest wait in the database (at least 100)"`
	Robots         bool       `toml:"robots" comment:"honour robots.txt (rules and Crawl-delay)"`
	Sitemaps       bool       `toml:"sitemaps" comment:"add the URLs of the sitemaps robots.txt lists as seeds"`
	Delay          duration   `toml:"delay" comment:"least time between two requests to one host, like \"1s\"; \"0s\" = none unless robots.txt sets Crawl-delay"`
	MaxCrawlDelay  duration   `toml:"max-crawl-delay" comment:"cap on the Crawl-delay robots.txt may ask for"`
	RobotsRetry    duration   `toml:"robots-retry" comment:"first wait before asking again for a robots.txt that failed (5xx, timeout); doubles per failure"`
	RPS            float64    `toml:"rps" comment:"cap on requests per second over all hosts; 0 = none"`
	MaxPerHost     int        `toml:"max-per-host" comment:"most URLs crawled on one host; 0 = no cap"`
	StoreIP        bool       `toml:"store-ip" comment:"record the IP address each page came from"`
	TrapBudget     int        `toml:"trap-budget" comment:"most URLs per pattern that differs only in digits (/cal/2026/11, /cal/2026/12 ...); 0 = no budget"`
	TrapRepeats    int        `toml:"trap-repeats" comment:"most times one path segment may occur in a URL"`
	MaxQueryParams int        `toml:"max-query-params" comment:"most query parameters in a URL"`
	KeepVersions   int        `toml:"keep-versions" comment:"body texts kept per page, the current one included, to compare versions"`
	RevisitMin     duration   `toml:"revisit-min" comment:"shortest interval before a page is fetched again in a re-crawl, like \"1h\""`
	RevisitMax     duration   `toml:"revisit-max" comment:"longest interval before a page is fetched again, like \"720h\""`
	NearThreshold  float64    `toml:"near-threshold" comment:"least similarity, 0 to 1, for two pages to count as near-duplicates; 0 = no detection"`
	NearWindow     int        `toml:"near-window" comment:"pages whose sketches stay in memory to be compared, the latest (about 1.6 KB each; at least 1000)"`
	OnCompletion   string     `toml:"on-completion" comment:"what happens when a crawl's cycle ends: idle, quit (the window closes) or loop (crawl again)"`
	LogLevel       int        `toml:"log-level" comment:"log detail, 0 errors only, 1 warnings, 2 milestones, 3 every fetch, 4 link decisions, 5 everything"`
	WordLists      []string   `toml:"word-lists" comment:"sensitive-word list files the pages are judged by (paper 002's URL filter): black, white or grey"`
	Hook           string     `toml:"hook" comment:"command run when the crawl ends, given the crawl ID and the database path (split on spaces, no shell)"`
	Auth           []hostAuth `toml:"auth" comment:"basic-auth user per host (host or host:port); passwords are never written here"`
}

// Unkeyed lists the crawl.Config fields a profile has no key for, and so
// no flag or form control either: facts about a stored crawl rather than
// settings. Reading a profile over a Config leaves them as they were; a
// profile exported from an old crawl does not pass them to new ones.
var Unkeyed = []string{"SketchVersion"}

// hostAuth is one [[auth]] table: a crawl.HostAuth without its password.
type hostAuth struct {
	Host string `toml:"host"`
	User string `toml:"user"`
}

// Error is a refused profile: the line (0 when unknown), the key and why.
type Error struct {
	Line   int
	Key    string
	Reason string
}

func (e *Error) Error() string {
	switch {
	case e.Line > 0 && e.Key != "":
		return fmt.Sprintf("profile line %d: key %q: %s", e.Line, e.Key, e.Reason)
	case e.Line > 0:
		return fmt.Sprintf("profile line %d: %s", e.Line, e.Reason)
	}
	return fmt.Sprintf("profile: key %q: %s", e.Key, e.Reason)
}

// Load reads a profile over crawl.DefaultConfig: keys it leaves out keep
// their defaults.
func Load(r io.Reader) (crawl.Config, error) {
	return LoadOver(crawl.DefaultConfig(), r)
}

// LoadOver reads a profile over base, so a preset or the settings of an
// earlier crawl fill the keys the profile leaves out. It refuses the whole
// profile, returning base, at the first problem, as an *Error. A profile
// need not list seeds; every other setting is checked as crawl.Config's
// Validate would.
func LoadOver(base crawl.Config, r io.Reader) (crawl.Config, error) {
	doc, err := io.ReadAll(r)
	if err != nil {
		return base, fmt.Errorf("read profile: %w", err)
	}
	f := fromConfig(base)
	f.Auth = nil
	dec := toml.NewDecoder(bytes.NewReader(doc))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return base, decodeError(err, doc)
	}
	pos := positions(doc)
	if _, ok := pos.keys["auth"]; !ok {
		f.Auth = fromConfig(base).Auth
	}
	c := f.toConfig(base)
	if err := check(c, pos); err != nil {
		return base, err
	}
	return c, nil
}

// header opens every saved profile.
const header = `# Trawler crawl profile. Keys are the long flags of "trawler crawl";
# use it with "trawler crawl --profile FILE", where flags given beside it win.
# Durations are strings like "500ms" or "30s". Passwords are never stored here.

`

// Save writes c as a profile with every key, each after a comment that
// explains it. Passwords are left out.
func Save(w io.Writer, c crawl.Config) error {
	var body bytes.Buffer
	enc := toml.NewEncoder(&body)
	enc.SetIndentTables(false)
	if err := enc.Encode(fromConfig(c)); err != nil {
		return fmt.Errorf("write profile: %w", err)
	}
	// A blank line before each key's comment (the encoder writes none).
	out := []byte(header)
	for i, line := range bytes.SplitAfter(body.Bytes(), []byte("\n")) {
		if i > 0 && bytes.HasPrefix(line, []byte("# ")) && !bytes.HasSuffix(out, []byte("\n\n")) {
			out = append(out, '\n')
		}
		out = append(out, line...)
	}
	if _, err := w.Write(out); err != nil {
		return fmt.Errorf("write profile: %w", err)
	}
	return nil
}

// duration is a time.Duration written as a string like "1m30s".
type duration struct{ time.Duration }

func (d duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

func (d *duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return errors.New(`want a duration like "500ms", "30s" or "1m"`)
	}
	d.Duration = v
	return nil
}
