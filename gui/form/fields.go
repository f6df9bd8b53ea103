package form

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/wordscan"
)

// Field names, as the form marks them. They match crawl.SettingError's
// Setting names where the engine has one.
const (
	FieldName           = "name"
	FieldSeeds          = "seeds"
	FieldDepth          = "depth"
	FieldThreads        = "threads"
	FieldStrategy       = "strategy"
	FieldMix            = "mix"
	FieldMaxPages       = "max-pages"
	FieldScope          = "scope"
	FieldPerHost        = "per-host"
	FieldRandSeed       = "seed"
	FieldInclude        = "include"
	FieldWordLists      = "word-lists"
	FieldExclude        = "exclude"
	FieldConnectTimeout = "connect-timeout"
	FieldTimeout        = "timeout"
	FieldMaxRedirects   = "max-redirects"
	FieldUserAgent      = "user-agent"
	FieldProxy          = "proxy"
	FieldAuth           = "auth"
	FieldMaxSize        = "max-size"
	FieldContentTypes   = "content-types"
	FieldMaxURLLength   = "max-url-length"
	FieldExpectedURLs   = "expected-urls"
	FieldMemoryURLs     = "memory-urls"

	FieldDelay          = "delay"
	FieldMaxCrawlDelay  = "max-crawl-delay"
	FieldRobotsRetry    = "robots-retry"
	FieldRPS            = "rps"
	FieldMaxPerHost     = "max-per-host"
	FieldTrapBudget     = "trap-budget"
	FieldTrapRepeats    = "trap-repeats"
	FieldMaxQueryParams = "max-query-params"
	FieldKeepVersions   = "keep-versions"
	FieldRevisitMin     = "revisit-min"
	FieldRevisitMax     = "revisit-max"
	FieldNearThreshold  = "near-threshold"
	FieldNearWindow     = "near-window"
	FieldOnCompletion   = "on-completion"
	FieldLogLevel       = "log-level"
	FieldHook           = "hook"
)

// Auth is one row of per-host credentials as typed. The password is never
// saved with the preferences or the crawl.
type Auth struct {
	Host     string `json:"host"`
	User     string `json:"user"`
	Password string `json:"-"`
}

// Fields holds the New crawl form as typed: text for every entry, so a
// half-typed value survives until it is fixed.
type Fields struct {
	Name     string  `json:"name"`
	Seeds    string  `json:"seeds"` // one URL per line
	Depth    string  `json:"depth"`
	Threads  string  `json:"threads"`
	Strategy string  `json:"strategy"` // bfs, dfs or mixed
	Mix      float64 `json:"mix"`      // share of depth-first picks, for mixed
	MaxPages string  `json:"max_pages"`
	Scope    string  `json:"scope"` // host, domain or any

	PerHost        string `json:"per_host"`
	RandSeed       string `json:"rand_seed"`
	Include        string `json:"include"`    // one regular expression per line
	WordLists      string `json:"word_lists"` // one word-list file per line
	Exclude        string `json:"exclude"`
	ConnectTimeout string `json:"connect_timeout"` // Go duration: 10s, 1m30s
	Timeout        string `json:"timeout"`
	MaxRedirects   string `json:"max_redirects"`
	UserAgent      string `json:"user_agent"`
	Proxy          string `json:"proxy"`
	Auth           []Auth `json:"auth"`
	MaxSize        string `json:"max_size"`      // 10 MiB, 500kB, 2000000
	ContentTypes   string `json:"content_types"` // comma- or line-separated media types
	Resources      bool   `json:"resources"`
	MaxURLLength   string `json:"max_url_length"`
	ExpectedURLs   string `json:"expected_urls"`
	MemoryURLs     string `json:"memory_urls"`

	Robots         bool   `json:"robots"`
	Sitemaps       bool   `json:"sitemaps"`
	StoreIP        bool   `json:"store_ip"`
	Delay          string `json:"delay"` // between two requests to one host; 0 = none
	MaxCrawlDelay  string `json:"max_crawl_delay"`
	RobotsRetry    string `json:"robots_retry"`
	RPS            string `json:"rps"`          // requests per second over all hosts; 0 = no cap
	MaxPerHost     string `json:"max_per_host"` // URLs crawled on one host; 0 = no cap
	TrapBudget     string `json:"trap_budget"`
	TrapRepeats    string `json:"trap_repeats"`
	MaxQueryParams string `json:"max_query_params"`
	KeepVersions   string `json:"keep_versions"`
	RevisitMin     string `json:"revisit_min"` // durations may use days: 30d
	RevisitMax     string `json:"revisit_max"`
	NearThreshold  string `json:"near_threshold"` // in [0,1]; 0 = off
	NearWindow     string `json:"near_window"`
	OnCompletion   string `json:"on_completion"` // idle, quit or loop
	LogLevel       int    `json:"log_level"`     // 0 … crawl.MaxLogLevel
	Hook           string `json:"hook"`
}

// Result is what Check made of a form.
type Result struct {
	Config crawl.Config      // the crawl settings; meaningful only when OK
	Seeds  []SeedLine        // every non-empty seed line, checked
	Errors map[string]string // field name → what is wrong with it
}

// OK reports whether the form can start a crawl.
func (r Result) OK() bool { return len(r.Errors) == 0 }

// Summary says in one line why Start is disabled: the first wrong fields,
// in form order. It is empty when the form is OK.
func (r Result) Summary() string {
	if r.OK() {
		return ""
	}
	var parts []string
	for _, name := range fieldOrder {
		if msg, ok := r.Errors[name]; ok {
			parts = append(parts, name+": "+msg)
		}
	}
	for _, name := range sortedKeys(r.Errors) {
		if !contains(fieldOrder, name) {
			parts = append(parts, name+": "+r.Errors[name])
		}
	}
	return strings.Join(parts, "; ")
}

var fieldOrder = []string{
	FieldName, FieldSeeds, FieldDepth, FieldThreads, FieldStrategy, FieldMix, FieldMaxPages, FieldScope,
	FieldPerHost, FieldRandSeed, FieldInclude, FieldExclude, FieldWordLists, FieldConnectTimeout, FieldTimeout,
	FieldMaxRedirects, FieldUserAgent, FieldProxy, FieldAuth, FieldMaxSize, FieldContentTypes,
	FieldMaxURLLength, FieldExpectedURLs, FieldMemoryURLs,
	FieldDelay, FieldMaxCrawlDelay, FieldRobotsRetry, FieldRPS, FieldMaxPerHost,
	FieldTrapBudget, FieldTrapRepeats, FieldMaxQueryParams,
	FieldKeepVersions, FieldRevisitMin, FieldRevisitMax, FieldNearThreshold, FieldNearWindow, FieldOnCompletion, FieldLogLevel, FieldHook,
}

// politeness reads the politeness, trap-guard and re-crawl settings.
func politeness(p *parser, f Fields, c *crawl.Config) {
	c.Robots, c.Sitemaps, c.StoreIP = f.Robots, f.Sitemaps, f.StoreIP
	c.Delay = p.durationOrZero(FieldDelay, f.Delay)
	c.MaxCrawlDelay = p.duration(FieldMaxCrawlDelay, f.MaxCrawlDelay)
	c.RobotsRetry = p.duration(FieldRobotsRetry, f.RobotsRetry)
	c.RPS = p.floatIn(FieldRPS, f.RPS, 0, 1e6)
	c.MaxPerHost = p.intIn(FieldMaxPerHost, f.MaxPerHost, 0, 1<<31-1)
	c.TrapBudget = p.intIn(FieldTrapBudget, f.TrapBudget, 0, 1<<31-1)
	c.TrapRepeats = p.intIn(FieldTrapRepeats, f.TrapRepeats, 1, 1000)
	c.MaxQueryParams = p.intIn(FieldMaxQueryParams, f.MaxQueryParams, 1, 10000)
	c.KeepVersions = p.intIn(FieldKeepVersions, f.KeepVersions, 1, 1000)
	c.RevisitMin = p.duration(FieldRevisitMin, f.RevisitMin)
	c.RevisitMax = p.duration(FieldRevisitMax, f.RevisitMax)
	c.NearThreshold = p.floatIn(FieldNearThreshold, f.NearThreshold, 0, 1)
	c.NearWindow = p.intIn(FieldNearWindow, f.NearWindow, crawl.MinNearWindow, 1<<31-1)
	c.OnCompletion = f.OnCompletion
	c.LogLevel = f.LogLevel
	c.Hook = strings.TrimSpace(f.Hook)
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// Check reads the form into a crawl.Config and reports every field that
// cannot be read, then the first setting the engine refuses.
func Check(f Fields) Result {
	r := Result{Errors: map[string]string{}}
	p := parser{errs: r.Errors}
	c := crawl.DefaultConfig()
	c.MaxURLLength = p.intIn(FieldMaxURLLength, f.MaxURLLength, 16, 1<<20)
	var urls []string
	r.Seeds, urls = ParseSeeds(f.Seeds, c.MaxURLLength)
	seedErrors(&r, urls)
	c.Seeds = urls
	c.Depth = p.intIn(FieldDepth, f.Depth, 0, 1000)
	c.Threads = p.intIn(FieldThreads, f.Threads, 1, crawl.MaxThreads)
	c.Strategy = crawl.Strategy(f.Strategy)
	c.Mix = 0
	if c.Strategy == crawl.Mixed {
		c.Mix = f.Mix
	}
	c.MaxPages = p.intIn(FieldMaxPages, f.MaxPages, 0, 1<<31-1)
	c.Scope = crawl.Scope(f.Scope)
	c.PerHost = p.intIn(FieldPerHost, f.PerHost, 0, crawl.MaxThreads)
	c.RandSeed = p.int64(FieldRandSeed, f.RandSeed)
	c.Include = lines(f.Include)
	c.Exclude = lines(f.Exclude)
	c.WordLists = lines(f.WordLists)
	if len(c.WordLists) > 0 {
		if _, err := wordscan.Load(c.WordLists...); err != nil {
			p.errs[FieldWordLists] = err.Error()
		}
	}
	c.ConnectTimeout = p.duration(FieldConnectTimeout, f.ConnectTimeout)
	c.Timeout = p.duration(FieldTimeout, f.Timeout)
	c.MaxRedirects = p.intIn(FieldMaxRedirects, f.MaxRedirects, 0, 100)
	c.UserAgent = strings.TrimSpace(f.UserAgent)
	c.Proxy = strings.TrimSpace(f.Proxy)
	c.MaxSize = p.size(FieldMaxSize, f.MaxSize)
	c.ContentTypes = p.mediaTypes(FieldContentTypes, f.ContentTypes)
	c.Resources = f.Resources
	c.ExpectedURLs = p.intIn(FieldExpectedURLs, f.ExpectedURLs, 1000, 1<<31-1)
	c.MemoryURLs = p.intIn(FieldMemoryURLs, f.MemoryURLs, 100, 1<<31-1)
	c.Auth = p.auth(f.Auth)
	politeness(&p, f, &c)
	if r.OK() {
		v := c
		if err := v.Validate(); err != nil {
			var se *crawl.SettingError
			if errors.As(err, &se) {
				r.Errors[se.Setting] = se.Reason
			} else {
				r.Errors[FieldSeeds] = err.Error()
			}
		}
	}
	r.Config = c
	return r
}

// seedErrors records what is wrong with the seeds box, if anything.
func seedErrors(r *Result, urls []string) {
	bad := 0
	for _, l := range r.Seeds {
		if !l.OK() {
			bad++
		}
	}
	switch {
	case bad == 1:
		r.Errors[FieldSeeds] = "1 line is not a crawlable URL"
	case bad > 1:
		r.Errors[FieldSeeds] = fmt.Sprintf("%d lines are not crawlable URLs", bad)
	case len(urls) == 0:
		r.Errors[FieldSeeds] = "type at least one URL to start from"
	}
}

func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}
