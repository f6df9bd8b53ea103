package cli

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/profile"
)

// settingFlags binds every crawl setting to a flag on fs, named as its
// profile key and explained as a saved profile explains it. c should start
// as crawl.DefaultConfig, whose values the help shows as defaults.
func settingFlags(fs *flag.FlagSet, c *crawl.Config) {
	u := profile.Comment
	fs.IntVar(&c.Depth, "depth", c.Depth, u("depth"))
	fs.IntVar(&c.Threads, "threads", c.Threads, u("threads"))
	fs.IntVar(&c.PerHost, "per-host", c.PerHost, u("per-host"))
	fs.Var((*strategyFlag)(&c.Strategy), "strategy", u("strategy"))
	fs.Float64Var(&c.Mix, "mix", c.Mix, u("mix"))
	fs.Int64Var(&c.RandSeed, "seed", c.RandSeed, u("seed"))
	fs.IntVar(&c.MaxPages, "max-pages", c.MaxPages, u("max-pages"))
	fs.Var((*scopeFlag)(&c.Scope), "scope", u("scope"))
	fs.Var((*listFlag)(&c.Include), "include", u("include")+" (repeatable)")
	fs.Var((*listFlag)(&c.Exclude), "exclude", u("exclude")+" (repeatable)")
	fs.Var((*listFlag)(&c.WordLists), "word-lists", u("word-lists")+" (repeatable; see `trawler verdicts --help` for the format)")
	fs.DurationVar(&c.ConnectTimeout, "connect-timeout", c.ConnectTimeout, u("connect-timeout"))
	fs.DurationVar(&c.Timeout, "timeout", c.Timeout, u("timeout"))
	fs.IntVar(&c.MaxRedirects, "max-redirects", c.MaxRedirects, u("max-redirects"))
	fs.StringVar(&c.UserAgent, "user-agent", c.UserAgent, u("user-agent"))
	fs.Var((*sizeFlag)(&c.MaxSize), "max-size", u("max-size"))
	fs.StringVar(&c.Proxy, "proxy", c.Proxy, "proxy URL like http://host:3128 or socks5://user@host:1080; a user's password is asked for (see --password-stdin), never stored in clear")
	fs.Var((*authFlag)(&c.Auth), "auth", "basic auth: `host[:port]=user` (repeatable); the password is asked for, recalled from the keychain or read with --password-stdin")
	fs.Var(&commaFlag{list: &c.ContentTypes}, "content-types", u("content-types")+", comma-separated")
	fs.BoolVar(&c.Resources, "resources", c.Resources, u("resources"))
	fs.IntVar(&c.MaxURLLength, "max-url-length", c.MaxURLLength, u("max-url-length"))
	fs.IntVar(&c.ExpectedURLs, "expected-urls", c.ExpectedURLs, u("expected-urls"))
	fs.IntVar(&c.MemoryURLs, "memory-urls", c.MemoryURLs, u("memory-urls"))
	fs.BoolVar(&c.Robots, "robots", c.Robots, u("robots")+"; --robots=false ignores it")
	fs.BoolVar(&c.Sitemaps, "sitemaps", c.Sitemaps, u("sitemaps"))
	fs.DurationVar(&c.Delay, "delay", c.Delay, u("delay"))
	fs.DurationVar(&c.MaxCrawlDelay, "max-crawl-delay", c.MaxCrawlDelay, u("max-crawl-delay"))
	fs.DurationVar(&c.RobotsRetry, "robots-retry", c.RobotsRetry, u("robots-retry"))
	fs.Float64Var(&c.RPS, "rps", c.RPS, u("rps"))
	fs.IntVar(&c.MaxPerHost, "max-per-host", c.MaxPerHost, u("max-per-host"))
	fs.BoolVar(&c.StoreIP, "store-ip", c.StoreIP, u("store-ip"))
	fs.IntVar(&c.TrapBudget, "trap-budget", c.TrapBudget, u("trap-budget"))
	fs.IntVar(&c.TrapRepeats, "trap-repeats", c.TrapRepeats, u("trap-repeats"))
	fs.IntVar(&c.MaxQueryParams, "max-query-params", c.MaxQueryParams, u("max-query-params"))
	fs.IntVar(&c.KeepVersions, "keep-versions", c.KeepVersions, u("keep-versions"))
	fs.DurationVar(&c.RevisitMin, "revisit-min", c.RevisitMin, u("revisit-min"))
	fs.DurationVar(&c.RevisitMax, "revisit-max", c.RevisitMax, u("revisit-max"))
	fs.Float64Var(&c.NearThreshold, "near-threshold", c.NearThreshold, u("near-threshold"))
	fs.IntVar(&c.NearWindow, "near-window", c.NearWindow, u("near-window"))
	fs.StringVar(&c.OnCompletion, "on-completion", c.OnCompletion, u("on-completion"))
	fs.IntVar(&c.LogLevel, "log-level", c.LogLevel, u("log-level")+"; the log is written beside the database (trawler.db → trawler.log)")
	fs.StringVar(&c.Hook, "hook", c.Hook, "command run when the crawl is done or failed, with the crawl ID and the database path as two more arguments (split on spaces, no shell; TRAWLER_CRAWL_STATE holds done or failed); its failure is reported but does not change the exit code")
}

// sourceFlags are the flags naming where settings come from besides the
// setting flags themselves.
type sourceFlags struct {
	preset, profile *string
}

func addSourceFlags(fs *flag.FlagSet) sourceFlags {
	var names []string
	for _, p := range profile.Presets() {
		names = append(names, p.Name)
	}
	return sourceFlags{
		preset:  fs.String("preset", "", "start from a preset: "+strings.Join(names, ", ")+` ("trawler profile presets" describes them)`),
		profile: fs.String("profile", "", "read settings from this TOML profile; flags given beside it win"),
	}
}

// settings builds a crawl's Config in layers: base, then the preset, then
// the profile, then the setting flags the user gave (flagged holds their
// values), then the SEED arguments, which replace the profile's seeds.
func settings(fs *flag.FlagSet, base, flagged crawl.Config, src sourceFlags) (crawl.Config, error) {
	c := base
	if *src.preset != "" {
		p, err := profile.FindPreset(*src.preset)
		if err != nil {
			return c, usagef("%v", err)
		}
		if err := p.Apply(&c); err != nil {
			return c, usagef("%v", err)
		}
	}
	if *src.profile != "" {
		f, err := os.Open(*src.profile)
		if err != nil {
			return c, usagef("cannot read the profile: %v", err)
		}
		c, err = profile.LoadOver(c, f)
		f.Close()
		if err != nil {
			return c, usagef("%s: %v", *src.profile, err)
		}
	}
	var given []string
	for name := range visited(fs) {
		given = append(given, name)
	}
	profile.Override(&c, flagged, given)
	if fs.NArg() > 0 {
		c.Seeds = fs.Args()
	}
	// In a Config zero threads means "the default"; given by hand it is a mistake.
	if c.Threads < 1 || c.Threads > crawl.MaxThreads {
		return c, usagef("threads: must be between 1 and %d, got %d", crawl.MaxThreads, c.Threads)
	}
	return c, nil
}

type strategyFlag crawl.Strategy

func (s *strategyFlag) String() string { return string(*s) }
func (s *strategyFlag) Set(v string) error {
	switch crawl.Strategy(v) {
	case crawl.BFS, crawl.DFS, crawl.Mixed:
		*s = strategyFlag(v)
		return nil
	}
	return fmt.Errorf("must be bfs, dfs or mixed")
}

type scopeFlag crawl.Scope

func (s *scopeFlag) String() string { return string(*s) }
func (s *scopeFlag) Set(v string) error {
	switch crawl.Scope(v) {
	case crawl.ScopeHost, crawl.ScopeDomain, crawl.ScopeAny:
		*s = scopeFlag(v)
		return nil
	}
	return fmt.Errorf("must be host, domain or any")
}

// authFlag is a repeatable host[:port]=user; passwords never come by flag.
type authFlag []crawl.HostAuth

func (a *authFlag) String() string {
	var parts []string
	for _, h := range *a {
		parts = append(parts, h.Host+"="+h.User)
	}
	return strings.Join(parts, ",")
}

func (a *authFlag) Set(v string) error {
	host, user, ok := strings.Cut(v, "=")
	if !ok || host == "" || user == "" {
		return fmt.Errorf("want host[:port]=user")
	}
	if strings.Contains(user, ":") {
		return fmt.Errorf("give the user only: the password is asked for or read with --password-stdin, never given on the command line")
	}
	*a = append(*a, crawl.HostAuth{Host: host, User: user})
	return nil
}

// commaFlag is a comma-separated list; given more than once, the lists add
// up. The first use replaces the default.
type commaFlag struct {
	list *[]string
	set  bool
}

func (f *commaFlag) String() string {
	if f.list == nil {
		return ""
	}
	return strings.Join(*f.list, ",")
}

func (f *commaFlag) Set(v string) error {
	if !f.set {
		*f.list, f.set = nil, true
	}
	for _, item := range strings.Split(v, ",") {
		if item = strings.TrimSpace(item); item != "" {
			*f.list = append(*f.list, item)
		}
	}
	return nil
}
