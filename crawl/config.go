package crawl

import (
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/url"
	"regexp"
	"regexp/syntax"
	"strings"
	"time"

	"github.com/trawler/trawler/crawl/neardup"
	"github.com/trawler/trawler/crawl/urlnorm"
)

// Strategy is the order in which waiting URLs are picked (paper 004).
type Strategy string

// The three orders. Mixed takes each pick depth-first with probability
// Config.Mix and breadth-first otherwise.
const (
	BFS   Strategy = "bfs"
	DFS   Strategy = "dfs"
	Mixed Strategy = "mixed"
)

// Scope limits which discovered URLs join the crawl.
type Scope string

// Scopes: Host keeps URLs whose hostname equals a seed's (any port or
// scheme); Domain keeps URLs under a seed's registrable domain (public-suffix
// list); Any keeps everything.
const (
	ScopeHost   Scope = "host"
	ScopeDomain Scope = "domain"
	ScopeAny    Scope = "any"
)

// Limits on settings, so a typo cannot start a crawl that harms the machine.
const (
	MaxThreads = 1000
)

// HostAuth is HTTP basic-auth credentials for one host ("hostname:port").
type HostAuth struct {
	Host     string `json:"host"`
	User     string `json:"user"`
	Password string `json:"-"` // never stored: secrets stay out of the database
}

// Config is everything a crawl needs. The zero value of each field means its
// documented default; DefaultConfig returns them filled in, and Validate
// reports the first setting that is out of range.
type Config struct {
	Seeds []string `json:"seeds"` // start URLs, at depth 0

	Depth    int      `json:"depth"`     // link hops from a seed (0 = seeds only); default 5
	Threads  int      `json:"threads"`   // workers; default 5, at most MaxThreads
	PerHost  int      `json:"per_host"`  // concurrent requests per host; 0 = Threads
	Strategy Strategy `json:"strategy"`  // bfs (default), dfs or mixed
	Mix      float64  `json:"mix"`       // share of depth-first picks in mixed order, in [0,1]; default 0.5
	RandSeed int64    `json:"seed"`      // seeds the mixed order's random source; default 1
	MaxPages int      `json:"max_pages"` // stop after fetching this many URLs; 0 = no cap

	Scope   Scope    `json:"scope"`   // host (default), domain or any
	Include []string `json:"include"` // if any, a URL must match one of these regular expressions
	Exclude []string `json:"exclude"` // a URL matching any of these regular expressions is skipped

	ConnectTimeout time.Duration `json:"connect_timeout"` // dial timeout; default 10s
	Timeout        time.Duration `json:"timeout"`         // whole response, body included; default 30s
	MaxRedirects   int           `json:"max_redirects"`   // redirect hops followed; default 20
	UserAgent      string        `json:"user_agent"`      // default "Trawler/<version>"
	MaxSize        int64         `json:"max_size"`        // body cap after decompression, bytes; default 10 MB
	Proxy          string        `json:"proxy"`           // http://, https:// or socks5:// proxy; empty = direct
	Auth           []HostAuth    `json:"auth"`            // basic-auth credentials per host
	ContentTypes   []string      `json:"content_types"`   // media types whose bodies are kept; default HTML, XHTML, plain text
	Resources      bool          `json:"resources"`       // also fetch images, scripts, styles… (status, type, size; never parsed)

	MaxURLLength int `json:"max_url_length"` // longer URLs are rejected; default 2048
	ExpectedURLs int `json:"expected_urls"`  // sizes the seen-set's Bloom filter; default 1,000,000
	MemoryURLs   int `json:"memory_urls"`    // waiting URLs held in memory, the rest stay in the store; default 50,000

	// Politeness (paper 003's process parameters). Robots and StoreIP
	// default to true, so a Config should start from DefaultConfig.
	Robots        bool          `json:"robots"`          // honour robots.txt
	Sitemaps      bool          `json:"sitemaps"`        // add the URLs of robots.txt's Sitemap lines as seeds
	Delay         time.Duration `json:"delay"`           // minimum time from one request's end to the next's start at one host, which then gets one request at a time; 0 = none unless robots.txt sets Crawl-delay
	MaxCrawlDelay time.Duration `json:"max_crawl_delay"` // cap on robots.txt's Crawl-delay; default 30s
	RobotsRetry   time.Duration `json:"robots_retry"`    // first wait of a host whose robots.txt failed (5xx, timeout), doubling per failure; default 1m
	RPS           float64       `json:"rps"`             // cap on requests per second over all hosts; 0 = none
	MaxPerHost    int           `json:"max_per_host"`    // most URLs crawled on one host; 0 = no cap
	StoreIP       bool          `json:"store_ip"`        // record the IP address each page came from

	// Trap guard: budgets that stop endless URL spaces.
	TrapBudget     int `json:"trap_budget"`      // most URLs per pattern where only digits differ (/cal/2026/11, /cal/2026/12 …); 0 = no budget
	TrapRepeats    int `json:"trap_repeats"`     // most times one path segment may occur in a URL; default 3
	MaxQueryParams int `json:"max_query_params"` // most query parameters in a URL; default 32

	// Re-crawls (paper 000's incremental gathering) and near-duplicates.
	KeepVersions  int           `json:"keep_versions"`  // body texts kept per page, the current one included, to compare versions; default 3
	RevisitMin    time.Duration `json:"revisit_min"`    // shortest revisit interval the schedule gives a page; default 1h
	RevisitMax    time.Duration `json:"revisit_max"`    // longest revisit interval; default 30 days
	NearThreshold float64       `json:"near_threshold"` // least similarity of near-duplicate pages, in (0,1]; 0 = no detection; DefaultConfig sets 0.9
	NearWindow    int           `json:"near_window"`    // pages whose sketches stay in memory to be compared, the latest (about 1.6 KB each); default 10,000
	// SketchVersion is how page texts are sketched for near-duplicates
	// (neardup.Config.Version). It is not a choice but a fact about a
	// crawl's stored sketches, which compare only with sketches of their
	// version: a crawl keeps it for all its runs and re-crawls, and no
	// profile, flag or form sets it. 0 means 1, the version of crawls
	// stored before the field existed (see DecodeSettings); DefaultConfig
	// sets neardup.LatestVersion, so new crawls get the fastest.
	SketchVersion int `json:"sketch_version"`

	// WordLists are the sensitive-word lists (paper 002) the crawl's pages
	// are judged by, as files (see crawl/wordscan); none means no verdicts.
	WordLists []string `json:"word_lists"`

	OnCompletion string `json:"on_completion"` // what happens when a crawl's cycle ends: idle (default), quit, or loop (re-crawl)
	LogLevel     int    `json:"log_level"`     // 0 errors only … 5 everything; default 2
	Hook         string `json:"hook"`          // command run when a crawl ends, given the crawl ID and database path
}

// Defaults for the zero-valued fields of Config.
const (
	DefaultDepth          = 5
	DefaultThreads        = 5
	DefaultMix            = 0.5
	DefaultConnectTimeout = 10 * time.Second
	DefaultTimeout        = 30 * time.Second
	DefaultMaxRedirects   = 20
	DefaultMaxSize        = 10 << 20
	DefaultExpectedURLs   = 1_000_000
	DefaultMemoryURLs     = 50_000
	DefaultNearWindow     = 10_000
	MinNearWindow         = 1_000
	DefaultMaxCrawlDelay  = 30 * time.Second
	DefaultRobotsRetry    = time.Minute
	DefaultTrapRepeats    = 3
	DefaultMaxQueryParams = 32
	DefaultLogLevel       = 2
	MaxLogLevel           = 5
	DefaultKeepVersions   = 3
	DefaultRevisitMin     = time.Hour
	DefaultRevisitMax     = 30 * 24 * time.Hour
	DefaultNearThreshold  = 0.9
)

// On-completion actions (paper 003's onCompletion).
// Loop starts a re-crawl of the same crawl each time a cycle ends.
const (
	OnCompletionIdle = "idle"
	OnCompletionQuit = "quit"
	OnCompletionLoop = "loop"
)

// DefaultContentTypes are the media types whose bodies Trawler keeps and
// parses when Config.ContentTypes is empty.
var DefaultContentTypes = []string{"text/html", "application/xhtml+xml", "text/plain"}

// DefaultUserAgent is sent when Config.UserAgent is empty.
func DefaultUserAgent() string { return "Trawler/" + Version }

// DefaultConfig returns a Config with every default filled in and no
// seeds, except PerHost, which stays 0 to follow Threads.
func DefaultConfig() Config {
	var c Config
	c.Depth = DefaultDepth
	c.Robots = true
	c.StoreIP = true
	c.LogLevel = DefaultLogLevel
	c.NearThreshold = DefaultNearThreshold
	c.SketchVersion = neardup.LatestVersion
	c.fillDefaults()
	c.PerHost = 0
	return c
}

// fillDefaults replaces zero values by defaults. Depth is left alone: 0 is a
// meaningful depth (seeds only), so callers start from DefaultConfig.
func (c *Config) fillDefaults() {
	if c.Threads == 0 {
		c.Threads = DefaultThreads
	}
	if c.PerHost == 0 {
		c.PerHost = c.Threads
	}
	if c.Strategy == "" {
		c.Strategy = BFS
	}
	if c.Strategy == Mixed && c.Mix == 0 {
		c.Mix = DefaultMix
	}
	if c.RandSeed == 0 {
		c.RandSeed = 1
	}
	if c.Scope == "" {
		c.Scope = ScopeHost
	}
	if c.ConnectTimeout == 0 {
		c.ConnectTimeout = DefaultConnectTimeout
	}
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	if c.MaxRedirects == 0 {
		c.MaxRedirects = DefaultMaxRedirects
	}
	if c.UserAgent == "" {
		c.UserAgent = DefaultUserAgent()
	}
	if c.MaxSize == 0 {
		c.MaxSize = DefaultMaxSize
	}
	if len(c.ContentTypes) == 0 {
		c.ContentTypes = append([]string(nil), DefaultContentTypes...)
	}
	if c.MaxURLLength == 0 {
		c.MaxURLLength = urlnorm.DefaultMaxLength
	}
	if c.ExpectedURLs == 0 {
		c.ExpectedURLs = DefaultExpectedURLs
	}
	if c.MemoryURLs == 0 {
		c.MemoryURLs = DefaultMemoryURLs
	}
	if c.NearWindow == 0 {
		c.NearWindow = DefaultNearWindow
	}
	if c.MaxCrawlDelay == 0 {
		c.MaxCrawlDelay = DefaultMaxCrawlDelay
	}
	if c.RobotsRetry == 0 {
		c.RobotsRetry = DefaultRobotsRetry
	}
	if c.TrapRepeats == 0 {
		c.TrapRepeats = DefaultTrapRepeats
	}
	if c.MaxQueryParams == 0 {
		c.MaxQueryParams = DefaultMaxQueryParams
	}
	if c.OnCompletion == "" {
		c.OnCompletion = OnCompletionIdle
	}
	if c.KeepVersions == 0 {
		c.KeepVersions = DefaultKeepVersions
	}
	if c.RevisitMin == 0 {
		c.RevisitMin = DefaultRevisitMin
	}
	if c.RevisitMax == 0 {
		c.RevisitMax = DefaultRevisitMax
	}
	if c.SketchVersion == 0 {
		c.SketchVersion = neardup.Version1
	}
}

// DecodeSettings reads a crawl's settings as stored (JSON of a Config).
// A setting added since they were stored takes its DefaultConfig value,
// except SketchVersion: a crawl stored without one made version 1
// sketches, and must go on doing so for them to compare with new ones.
func DecodeSettings(stored []byte) (Config, error) {
	c := DefaultConfig()
	c.SketchVersion = 0
	err := json.Unmarshal(stored, &c)
	if c.SketchVersion == 0 {
		c.SketchVersion = neardup.Version1
	}
	return c, err
}

// SettingError names the setting that is wrong and why, for one clear line
// in the command line and a marked field in the window.
type SettingError struct {
	Setting string
	Reason  string
}

func (e *SettingError) Error() string { return e.Setting + ": " + e.Reason }

func bad(setting, format string, a ...any) error {
	return &SettingError{Setting: setting, Reason: fmt.Sprintf(format, a...)}
}

// Validate fills defaults and reports the first setting out of range.
func (c *Config) Validate() error {
	c.fillDefaults()
	if len(c.Seeds) == 0 {
		return bad("seeds", "at least one seed URL is needed")
	}
	for _, s := range c.Seeds {
		if _, err := (urlnorm.Options{MaxLength: c.MaxURLLength}).Normalize(strings.TrimSpace(s)); err != nil {
			return bad("seeds", "%q is not a crawlable URL: %v", s, err)
		}
	}
	switch {
	case c.Depth < 0:
		return bad("depth", "must be 0 or more, got %d", c.Depth)
	case c.Threads < 1 || c.Threads > MaxThreads:
		return bad("threads", "must be between 1 and %d, got %d", MaxThreads, c.Threads)
	case c.PerHost < 1:
		return bad("per-host", "must be at least 1, got %d", c.PerHost)
	case c.Mix < 0 || c.Mix > 1:
		return bad("mix", "must be between 0 and 1, got %g", c.Mix)
	case c.MaxPages < 0:
		return bad("max-pages", "must be 0 (no cap) or more, got %d", c.MaxPages)
	case c.ConnectTimeout < 0:
		return bad("connect-timeout", "must not be negative")
	case c.Timeout < 0:
		return bad("timeout", "must not be negative")
	case c.MaxRedirects < 0:
		return bad("max-redirects", "must be 0 or more, got %d", c.MaxRedirects)
	case c.MaxSize < 0:
		return bad("max-size", "must not be negative")
	case c.MaxURLLength < 16:
		return bad("max-url-length", "must be at least 16, got %d", c.MaxURLLength)
	case c.MemoryURLs < 100:
		return bad("memory-urls", "must be at least 100, got %d", c.MemoryURLs)
	case c.Delay < 0:
		return bad("delay", "must not be negative")
	case c.MaxCrawlDelay < 0:
		return bad("max-crawl-delay", "must not be negative")
	case c.RobotsRetry < 0:
		return bad("robots-retry", "must not be negative")
	case c.RPS < 0:
		return bad("rps", "must be 0 (no cap) or more, got %g", c.RPS)
	case c.MaxPerHost < 0:
		return bad("max-per-host", "must be 0 (no cap) or more, got %d", c.MaxPerHost)
	case c.TrapBudget < 0:
		return bad("trap-budget", "must be 0 (no budget) or more, got %d", c.TrapBudget)
	case c.TrapRepeats < 1:
		return bad("trap-repeats", "must be at least 1, got %d", c.TrapRepeats)
	case c.MaxQueryParams < 1:
		return bad("max-query-params", "must be at least 1, got %d", c.MaxQueryParams)
	case c.LogLevel < 0 || c.LogLevel > MaxLogLevel:
		return bad("log-level", "must be between 0 and %d, got %d", MaxLogLevel, c.LogLevel)
	case c.OnCompletion != OnCompletionIdle && c.OnCompletion != OnCompletionQuit && c.OnCompletion != OnCompletionLoop:
		return bad("on-completion", "must be idle, quit or loop, got %q", c.OnCompletion)
	case c.KeepVersions < 1:
		return bad("keep-versions", "must be at least 1 (the current text), got %d", c.KeepVersions)
	case c.RevisitMin < 0:
		return bad("revisit-min", "must not be negative")
	case c.RevisitMax < c.RevisitMin:
		return bad("revisit-max", "must not be shorter than revisit-min (%s)", c.RevisitMin)
	case !(c.NearThreshold >= 0 && c.NearThreshold <= 1):
		return bad("near-threshold", "must be between 0 (off) and 1, got %g", c.NearThreshold)
	case c.NearWindow < MinNearWindow:
		return bad("near-window", "must be at least %d pages, got %d", MinNearWindow, c.NearWindow)
	case c.SketchVersion < neardup.Version1 || c.SketchVersion > neardup.LatestVersion:
		return bad("sketch-version", "must be %d to %d (a crawl's stored sketches say which), got %d",
			neardup.Version1, neardup.LatestVersion, c.SketchVersion)
	}
	for _, t := range c.ContentTypes {
		if mt, _, err := mime.ParseMediaType(t); err != nil || !strings.Contains(mt, "/") {
			return bad("content-types", "%q is not a media type like text/html", t)
		}
	}
	switch c.Strategy {
	case BFS, DFS, Mixed:
	default:
		return bad("strategy", "must be bfs, dfs or mixed, got %q", c.Strategy)
	}
	switch c.Scope {
	case ScopeHost, ScopeDomain, ScopeAny:
	default:
		return bad("scope", "must be host, domain or any, got %q", c.Scope)
	}
	for _, list := range []struct {
		name string
		res  []string
	}{{"include", c.Include}, {"exclude", c.Exclude}} {
		for _, re := range list.res {
			if _, err := regexp.Compile(re); err != nil {
				return bad(list.name, "bad regular expression %q: %v", re, unwrapRegexp(err))
			}
		}
	}
	if c.Proxy != "" {
		u, err := url.Parse(c.Proxy)
		if err != nil || u.Host == "" {
			return bad("proxy", "%q is not a proxy URL like http://host:3128 or socks5://host:1080", c.Proxy)
		}
		switch u.Scheme {
		case "http", "https", "socks5", "socks5h":
		default:
			return bad("proxy", "scheme %q not supported (http, https, socks5)", u.Scheme)
		}
	}
	for _, a := range c.Auth {
		if a.Host == "" || a.User == "" {
			return bad("auth", "each entry needs a host and a user name")
		}
	}
	return nil
}

// unwrapRegexp keeps the reason of a regexp/syntax error without repeating
// the whole expression.
func unwrapRegexp(err error) error {
	var se *syntax.Error
	if errors.As(err, &se) {
		return fmt.Errorf("%s: %q", se.Code, se.Expr)
	}
	return err
}
