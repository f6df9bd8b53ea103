package cli

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/db"
)

func init() {
	register("crawl", "crawl from seed URLs into the database", runCrawl)
	register("resume", "continue a stopped or killed crawl with its saved settings", runResume)
}

const crawlUsage = `Usage: trawler crawl [flags] SEED...

Crawls from the SEED URLs and stores every page in the database. Ctrl-C stops
cleanly; "trawler resume" continues later.`

// crawlFlags binds the crawl settings to flags on fs.
func crawlFlags(fs *flag.FlagSet, c *crawl.Config) *sizeFlag {
	fs.IntVar(&c.Depth, "depth", crawl.DefaultDepth, "link hops from a seed (seeds are depth 0; 0 = seeds only)")
	fs.IntVar(&c.Threads, "threads", crawl.DefaultThreads, fmt.Sprintf("workers fetching at once (1..%d)", crawl.MaxThreads))
	fs.IntVar(&c.PerHost, "per-host", 0, "concurrent requests per host (default: threads)")
	fs.Var((*strategyFlag)(&c.Strategy), "strategy", "order: bfs, dfs or mixed")
	fs.Float64Var(&c.Mix, "mix", crawl.DefaultMix, "mixed order: share of picks taken depth-first, in [0,1]")
	fs.Int64Var(&c.RandSeed, "seed", 1, "seed of the mixed order's random source")
	fs.IntVar(&c.MaxPages, "max-pages", 0, "stop after fetching this many URLs (0 = no cap)")
	fs.Var((*scopeFlag)(&c.Scope), "scope", "which URLs to follow: host, domain or any")
	fs.Var((*listFlag)(&c.Include), "include", "follow only URLs matching this regular expression (repeatable)")
	fs.Var((*listFlag)(&c.Exclude), "exclude", "skip URLs matching this regular expression (repeatable)")
	fs.DurationVar(&c.ConnectTimeout, "connect-timeout", crawl.DefaultConnectTimeout, "time allowed to connect")
	fs.DurationVar(&c.Timeout, "timeout", crawl.DefaultTimeout, "time allowed for a whole response")
	fs.IntVar(&c.MaxRedirects, "max-redirects", crawl.DefaultMaxRedirects, "redirects followed per URL")
	fs.StringVar(&c.UserAgent, "user-agent", crawl.DefaultUserAgent(), "User-Agent header")
	size := sizeFlag(crawl.DefaultMaxSize)
	fs.Var(&size, "max-size", "largest body read, after decompression (e.g. 10MB)")
	fs.StringVar(&c.Proxy, "proxy", "", "proxy URL: http://host:port or socks5://host:port")
	fs.BoolVar(&c.Resources, "resources", false, "also fetch images, scripts and styles (status, type, size)")
	return &size
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

func dbFlag(fs *flag.FlagSet) *string {
	return fs.String("db", "", "database file (default: trawler.db in the user config directory, shared with the window)")
}

func runCrawl(args []string, s IO) int {
	fs := newFlagSet("crawl", s, crawlUsage)
	c := crawl.DefaultConfig()
	c.Strategy, c.Scope = crawl.BFS, crawl.ScopeHost
	size := crawlFlags(fs, &c)
	dbPath := dbFlag(fs)
	name := fs.String("name", "", "a name for the crawl (default: the first seed)")
	quiet := fs.Bool("quiet", false, "no live status line")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	c.MaxSize = int64(*size)
	c.Seeds = fs.Args()
	// In a Config zero means "the default"; on the command line it is a mistake.
	if c.Threads < 1 || c.Threads > crawl.MaxThreads {
		return fail(s, "crawl", usagef("threads: must be between 1 and %d, got %d", crawl.MaxThreads, c.Threads))
	}
	if c.Strategy != crawl.Mixed && !visited(fs)["mix"] {
		c.Mix = 0
	}
	if err := c.Validate(); err != nil {
		return fail(s, "crawl", usagef("%v", err))
	}
	d, err := openDB(*dbPath)
	if err != nil {
		return fail(s, "crawl", err)
	}
	defer d.Close()
	if *name == "" {
		*name = c.Seeds[0]
	}
	id, err := d.CreateCrawl(context.Background(), *name, c)
	if err != nil {
		return fail(s, "crawl", &storageError{err})
	}
	return runEngine(s, "crawl", d, id, c, *quiet)
}

func runResume(args []string, s IO) int {
	fs := newFlagSet("resume", s, `Usage: trawler resume [--db F] [ID]

Continues a stopped or killed crawl with its saved settings: the most recent
unfinished one when no ID is given.`)
	dbPath := dbFlag(fs)
	quiet := fs.Bool("quiet", false, "no live status line")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	d, err := openDB(*dbPath)
	if err != nil {
		return fail(s, "resume", err)
	}
	defer d.Close()
	id, err := crawlArg(d, fs.Args())
	if err != nil {
		return fail(s, "resume", err)
	}
	c, err := d.Settings(context.Background(), id)
	if err != nil {
		return fail(s, "resume", &storageError{err})
	}
	return runEngine(s, "resume", d, id, c, *quiet)
}

// crawlArg picks the crawl named by args, or the latest unfinished one.
func crawlArg(d *db.DB, args []string) (int64, error) {
	switch len(args) {
	case 0:
		id, err := d.LatestUnfinished(context.Background())
		if err != nil {
			return 0, usagef("no unfinished crawl to resume (%v)", err)
		}
		return id, nil
	case 1:
		var id int64
		if _, err := fmt.Sscan(args[0], &id); err != nil || id <= 0 {
			return 0, usagef("crawl ID must be a positive number, got %q", args[0])
		}
		if _, err := d.CrawlInfo(context.Background(), id); err != nil {
			return 0, usagef("no crawl %d in this database", id)
		}
		return id, nil
	}
	return 0, usagef("give at most one crawl ID")
}

// runEngine runs a crawl to its end with a live status line and a summary.
func runEngine(s IO, cmd string, d *db.DB, id int64, c crawl.Config, quiet bool) int {
	e, err := crawl.New(c, d.Crawl(id))
	if err != nil {
		return fail(s, cmd, usagef("%v", err))
	}
	ctx := context.Background()
	_ = d.SetState(ctx, id, string(crawl.StateRunning))
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	interrupted := false
	go func() {
		if _, ok := <-sig; ok {
			interrupted = true
			fmt.Fprintln(s.Err, "\nstopping: finishing the fetches in flight…")
			e.Stop()
		}
	}()
	status := newStatusLine(s.Err, quiet)
	stopStatus := status.follow(e.Progress)
	runErr := e.Run(ctx)
	stopStatus()
	p := e.Progress()
	state := p.State
	if runErr != nil {
		state = crawl.StateFailed
	}
	if err := d.SetState(ctx, id, string(state)); err != nil && runErr == nil {
		runErr = err
	}
	printSummary(s, id, p)
	switch {
	case runErr != nil:
		fmt.Fprintf(s.Err, "trawler %s: %v\n", cmd, runErr)
		return ExitStorage
	case interrupted:
		fmt.Fprintf(s.Err, "stopped; continue with: trawler resume --db %s %d\n", shellQuote(d.Path()), id)
		return ExitInterrupted
	}
	return ExitOK
}

func printSummary(s IO, id int64, p crawl.Progress) {
	rate := 0.0
	if p.Elapsed > 0 {
		rate = float64(p.Fetched()) / p.Elapsed.Seconds()
	}
	fmt.Fprintf(s.Out, "crawl %d %s: %d done, %d errors, %d waiting, %s read in %s (%.1f pages/s)\n",
		id, p.State, p.Done, p.Errors, p.Waiting, humanBytes(p.Bytes), p.Elapsed.Round(time.Millisecond), rate)
}

func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`*?[]{}()<>|&;#~!") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// openDB opens the database at path, or the default one.
func openDB(path string) (*db.DB, error) {
	if path == "" {
		p, err := db.DefaultPath()
		if err != nil {
			return nil, &storageError{fmt.Errorf("find the default database: %w", err)}
		}
		path = p
	}
	d, err := db.Open(path)
	if err != nil {
		return nil, &storageError{err}
	}
	return d, nil
}
