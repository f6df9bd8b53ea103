package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/logfile"
	"github.com/trawler/trawler/db"
	"github.com/trawler/trawler/gateway"
	"github.com/trawler/trawler/gateway/feed"
)

func init() {
	register("gateway", "filter a network's web requests by the black and white lists (paper 002's gateway)", runGateway)
}

const gatewayUsage = `Usage: trawler gateway [--listen 127.0.0.1:3128] [--db F] [--crawl ID] [--unknown allow|block]
                       [--allow-from CIDR]... [--policy FILE] [--crawl-unknown] [--max-age 720h]

An HTTP forward proxy that decides every request by the URL filter's lists:
the entries of trawler lists, and the verdicts of a crawl (the most recent
by default; trawler verdicts). Plain http:// requests are decided by their
whole URL; HTTPS goes through CONNECT and is decided by its host alone: the
gateway never decrypts TLS. A black-listed URL gets a page saying which
entry matched and why, with a "this is a mistake" form whose reports the
window lists. A URL on neither list is let through (--unknown allow, paper
002's first-time-allow) or refused (--unknown block) and pushed to the
front of the crawl, so its verdict decides from then on: a running crawl of
the same database takes it within a second, and so does the gateway's own
crawler with --crawl-unknown (depth 0, the crawl's settings). A verdict
counts for --max-age after its page was crawled; then the URL is crawled
again. Point a browser's HTTP and HTTPS proxy at the address it listens on.
Every decision is logged in the crawl's log beside the database.

It listens on loopback unless told otherwise, and a non-loopback --listen
needs --allow-from naming the networks that may use it: an open proxy is a
hole. Stop it with Ctrl-C.`

func runGateway(args []string, s IO) int {
	fs := newFlagSet("gateway", s, gatewayUsage)
	listen := fs.String("listen", gateway.DefaultListen, "address to listen on")
	dbPath := dbFlag(fs)
	id := fs.Int64("crawl", 0, "crawl whose verdicts decide and which takes unknown URLs (default: the most recent)")
	unknown := fs.String("unknown", "allow", "URLs on neither list: allow (the first time) or block")
	var allow listFlag
	fs.Var(&allow, "allow-from", "a network (CIDR, like 192.168.1.0/24) whose clients may use the gateway (repeatable)")
	policyPath := fs.String("policy", "", "TOML file of per-client rules by address and time of day (see the README)")
	crawlUnknown := fs.Bool("crawl-unknown", false, "fetch and judge unknown URLs with the gateway's own crawler")
	maxAge := fs.Duration("max-age", feed.DefaultMaxAge, "how long a verdict counts after its page was crawled")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	if fs.NArg() > 0 {
		return fail(s, "gateway", usagef("unexpected argument %q", fs.Arg(0)))
	}
	cfg, err := gatewayConfig(*listen, *unknown, allow, *policyPath)
	if err != nil {
		return fail(s, "gateway", err)
	}
	if *maxAge <= 0 {
		return fail(s, "gateway", usagef("--max-age must be a positive duration like 720h"))
	}
	d, err := openDB(*dbPath)
	if err != nil {
		return fail(s, "gateway", err)
	}
	defer d.Close()
	crawlID, settings, err := gatewayCrawl(d, *id, *crawlUnknown)
	if err != nil {
		return fail(s, "gateway", err)
	}
	log, logFile, err := logfile.Open(d.Path(), settings)
	if err != nil {
		return fail(s, "gateway", &storageError{err})
	}
	defer logFile.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serveGateway(ctx, s, d, feed.Options{Gateway: cfg, Crawl: crawlID, MaxAge: *maxAge, CrawlUnknown: *crawlUnknown, Log: log})
}

// gatewayConfig reads the gateway's flags into its Config.
func gatewayConfig(listen, unknown string, allow []string, policyPath string) (gateway.Config, error) {
	cfg := gateway.Config{Listen: listen}
	if err := cfg.Unknown.UnmarshalText([]byte(unknown)); err != nil {
		return cfg, usagef("--unknown: want allow or block, not %q", unknown)
	}
	var err error
	if cfg.AllowFrom, err = feed.ParseAllowFrom(allow); err != nil {
		return cfg, usagef("--allow-from %v", err)
	}
	if policyPath != "" {
		if cfg.Policy, err = feed.ReadPolicy(policyPath); err != nil {
			return cfg, usagef("%v", err)
		}
	}
	return cfg, nil
}

// gatewayCrawl picks the crawl whose verdicts count: the one named, or the
// most recent, or none in an empty database (then only the entries of
// trawler lists decide, and nothing can be crawled).
func gatewayCrawl(d *db.DB, id int64, crawlUnknown bool) (int64, crawl.Config, error) {
	crawlID, err := pickCrawl(d, id)
	if err != nil {
		if id != 0 || crawlUnknown {
			return 0, crawl.Config{}, err
		}
		return 0, crawl.DefaultConfig(), nil
	}
	cfg, err := d.Settings(context.Background(), crawlID)
	if err != nil {
		return 0, cfg, &storageError{err}
	}
	return crawlID, cfg, nil
}

// serveGateway runs the gateway, its feed and, if asked, its crawler
// until ctx ends, then prints what it decided.
func serveGateway(ctx context.Context, s IO, d *db.DB, o feed.Options) int {
	srv, err := feed.Start(ctx, d, o)
	if err != nil {
		if db.IsStorageError(err) {
			return fail(s, "gateway", &storageError{err})
		}
		return fail(s, "gateway", usagef("%s", strings.ReplaceAll(err.Error(), "needs allow-from", "needs --allow-from")))
	}
	what := "its entries only"
	if o.Crawl != 0 {
		what = fmt.Sprintf("its entries and the verdicts of crawl %d", o.Crawl)
	}
	gw := srv.Gateway()
	fmt.Fprintf(s.Out, "gateway listening on %s, deciding by %s (%d entries); Ctrl-C stops it\n",
		gw.Addr(), what, srv.Feed().Filter().Len())
	err = srv.Wait()
	st := gw.Stats()
	fmt.Fprintf(s.Out, "gateway stopped: %d allowed, %d blocked, %d unknown, %d errors\n", st.Allowed, st.Blocked, st.Unknown, st.Errors)
	if err != nil && !errors.Is(err, context.Canceled) {
		return fail(s, "gateway", err)
	}
	return ExitOK
}
