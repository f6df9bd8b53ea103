package form

import (
	"strconv"
	"strings"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/trawler/trawler/crawl"
)

// Defaults returns the form filled with the engine's defaults and no seeds.
func Defaults() Fields {
	return FromConfig(crawl.DefaultConfig(), "")
}

// FromConfig fills a form from a crawl's settings, for reusing them. Zero
// values the engine reads as "the default" are shown as that default.
func FromConfig(c crawl.Config, name string) Fields {
	d := crawl.DefaultConfig()
	mix := c.Mix
	if c.Strategy != crawl.Mixed || mix == 0 {
		mix = crawl.DefaultMix
	}
	f := Fields{
		Name:           name,
		Seeds:          strings.Join(c.Seeds, "\n"),
		Depth:          strconv.Itoa(c.Depth),
		Threads:        orInt(c.Threads, d.Threads),
		Strategy:       orString(string(c.Strategy), string(crawl.BFS)),
		Mix:            mix,
		MaxPages:       strconv.Itoa(c.MaxPages),
		Scope:          orString(string(c.Scope), string(crawl.ScopeHost)),
		PerHost:        strconv.Itoa(c.PerHost),
		RandSeed:       strconv.FormatInt(orInt64(c.RandSeed, 1), 10),
		Include:        strings.Join(c.Include, "\n"),
		Exclude:        strings.Join(c.Exclude, "\n"),
		ConnectTimeout: Duration(orDuration(c.ConnectTimeout, d.ConnectTimeout)),
		Timeout:        Duration(orDuration(c.Timeout, d.Timeout)),
		MaxRedirects:   orInt(c.MaxRedirects, d.MaxRedirects),
		UserAgent:      orString(c.UserAgent, d.UserAgent),
		Proxy:          c.Proxy,
		MaxSize:        humanize.IBytes(uint64(orInt64(c.MaxSize, d.MaxSize))),
		ContentTypes:   strings.Join(orList(c.ContentTypes, d.ContentTypes), ", "),
		Resources:      c.Resources,
		MaxURLLength:   orInt(c.MaxURLLength, d.MaxURLLength),
		ExpectedURLs:   orInt(c.ExpectedURLs, d.ExpectedURLs),
		MemoryURLs:     orInt(c.MemoryURLs, d.MemoryURLs),

		Robots:         c.Robots,
		Sitemaps:       c.Sitemaps,
		StoreIP:        c.StoreIP,
		Delay:          Duration(c.Delay),
		MaxCrawlDelay:  Duration(orDuration(c.MaxCrawlDelay, d.MaxCrawlDelay)),
		RobotsRetry:    Duration(orDuration(c.RobotsRetry, d.RobotsRetry)),
		RPS:            strconv.FormatFloat(c.RPS, 'f', -1, 64),
		MaxPerHost:     strconv.Itoa(c.MaxPerHost),
		TrapBudget:     strconv.Itoa(c.TrapBudget),
		TrapRepeats:    orInt(c.TrapRepeats, d.TrapRepeats),
		MaxQueryParams: orInt(c.MaxQueryParams, d.MaxQueryParams),
		KeepVersions:   orInt(c.KeepVersions, d.KeepVersions),
		RevisitMin:     Duration(orDuration(c.RevisitMin, d.RevisitMin)),
		RevisitMax:     Duration(orDuration(c.RevisitMax, d.RevisitMax)),
		NearThreshold:  strconv.FormatFloat(c.NearThreshold, 'f', -1, 64),
		NearWindow:     orInt(c.NearWindow, d.NearWindow),
		OnCompletion:   orString(c.OnCompletion, crawl.OnCompletionIdle),
		LogLevel:       c.LogLevel,
		Hook:           c.Hook,
		WordLists:      strings.Join(c.WordLists, "\n"),
	}
	for _, a := range c.Auth {
		f.Auth = append(f.Auth, Auth{Host: a.Host, User: a.User, Password: a.Password})
	}
	return f
}

// Duration writes a duration the way the form reads it back: whole days
// as "30d", otherwise Go's form without zero units ("1h", "1m30s").
func Duration(d time.Duration) string {
	const day = 24 * time.Hour
	if d > 0 && d%day == 0 {
		return strconv.FormatInt(int64(d/day), 10) + "d"
	}
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

func orInt(v, def int) string {
	if v == 0 {
		v = def
	}
	return strconv.Itoa(v)
}

func orInt64(v, def int64) int64 {
	if v == 0 {
		return def
	}
	return v
}

func orString(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

func orDuration(v, def time.Duration) time.Duration {
	if v == 0 {
		return def
	}
	return v
}

func orList(v, def []string) []string {
	if len(v) == 0 {
		return def
	}
	return v
}
