package form

import (
	"strings"
	"testing"
	"time"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/neardup"
)

func TestParseSeeds(t *testing.T) {
	tests := []struct {
		name   string
		text   string
		urls   []string
		notes  []string
		reject []int // line numbers rejected
	}{
		{"empty", "", nil, nil, nil},
		{"blank lines", "\n  \n", nil, nil, nil},
		{"full URL", "https://Example.org/a/../b", []string{"https://example.org/b"}, []string{""}, nil},
		{"bare host gets http", "example.com", []string{"http://example.com/"},
			[]string{"line 1: read as http://example.com/"}, nil},
		{"host and port gets http", "localhost:8080/docs", []string{"http://localhost:8080/docs"},
			[]string{"line 1: read as http://localhost:8080/docs"}, nil},
		{"other scheme rejected", "mailto:a@b.org", nil,
			[]string{`line 1: not a web address: only http, https and ftp are crawled — "mailto:a@b.org"`}, []int{1}},
		{"bad host", "http://exa mple.com", nil,
			[]string{`line 1: invalid character in host — "http://exa mple.com"`}, []int{1}},
		{"bad port", "http://a.org:99999/", nil, []string{`line 1: port out of range — "http://a.org:99999/"`}, []int{1}},
		{"mixed lines keep their numbers", "a.org\n\nhttp://\nb.org", []string{"http://a.org/", "http://b.org/"},
			[]string{"line 1: read as http://a.org/", `line 3: empty host — "http://"`, "line 4: read as http://b.org/"}, []int{3}},
		{"duplicates once", "http://a.org/\nhttp://A.org", []string{"http://a.org/"},
			[]string{"", "line 2: same URL as line 1, crawled once"}, nil},
		{"ftp kept", "ftp://files.example.org/pub/", []string{"ftp://files.example.org/pub/"}, []string{""}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lines, urls := ParseSeeds(tt.text, 0)
			if got, want := strings.Join(urls, " "), strings.Join(tt.urls, " "); got != want {
				t.Errorf("urls = %q, want %q", got, want)
			}
			if len(lines) != len(tt.notes) {
				t.Fatalf("got %d lines, want %d: %+v", len(lines), len(tt.notes), lines)
			}
			var rejected []int
			for i, l := range lines {
				if got := l.Note(); got != tt.notes[i] {
					t.Errorf("line %d note = %q, want %q", l.Line, got, tt.notes[i])
				}
				if !l.OK() {
					rejected = append(rejected, l.Line)
				}
			}
			if got, want := rejected, tt.reject; len(got) != len(want) || (len(got) > 0 && got[0] != want[0]) {
				t.Errorf("rejected lines %v, want %v", got, want)
			}
		})
	}
}

func TestCheckDefaultsWithSeed(t *testing.T) {
	f := Defaults()
	f.Seeds = "example.org"
	r := Check(f)
	if !r.OK() {
		t.Fatalf("defaults with a seed not OK: %v", r.Errors)
	}
	c := r.Config
	want := crawl.DefaultConfig()
	if c.Depth != want.Depth || c.Threads != want.Threads || c.Strategy != crawl.BFS || c.Scope != crawl.ScopeHost ||
		c.Timeout != want.Timeout || c.ConnectTimeout != want.ConnectTimeout || c.MaxSize != want.MaxSize ||
		c.UserAgent != want.UserAgent || c.MemoryURLs != want.MemoryURLs || c.Mix != 0 {
		t.Errorf("config from defaults = %+v\nwant like %+v", c, want)
	}
	if got := strings.Join(c.Seeds, " "); got != "http://example.org/" {
		t.Errorf("seeds = %q", got)
	}
}

func TestCheckFields(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(*Fields)
		field string // the field reported, "" for OK
		want  string // part of the message
	}{
		{"no seeds", func(f *Fields) { f.Seeds = "" }, FieldSeeds, "at least one URL"},
		{"bad seed line", func(f *Fields) { f.Seeds = "a.org\nmailto:x" }, FieldSeeds, "1 line is not"},
		{"two bad seed lines", func(f *Fields) { f.Seeds = "http://\nmailto:x" }, FieldSeeds, "2 lines are not"},
		{"depth not a number", func(f *Fields) { f.Depth = "five" }, FieldDepth, `"five" is not a whole number`},
		{"depth negative", func(f *Fields) { f.Depth = "-1" }, FieldDepth, "between 0 and"},
		{"threads zero", func(f *Fields) { f.Threads = "0" }, FieldThreads, "between 1 and 1000"},
		{"threads too many", func(f *Fields) { f.Threads = "5000" }, FieldThreads, "between 1 and 1000"},
		{"threads with comma", func(f *Fields) { f.Threads = "1,000" }, "", ""},
		{"max pages empty", func(f *Fields) { f.MaxPages = "" }, FieldMaxPages, "type a number"},
		{"timeout bare seconds", func(f *Fields) { f.Timeout = "45" }, "", ""},
		{"timeout bad", func(f *Fields) { f.Timeout = "soon" }, FieldTimeout, "not a duration"},
		{"timeout zero", func(f *Fields) { f.ConnectTimeout = "0s" }, FieldConnectTimeout, "more than 0"},
		{"size with units", func(f *Fields) { f.MaxSize = "512 kB" }, "", ""},
		{"size bad", func(f *Fields) { f.MaxSize = "big" }, FieldMaxSize, "not a size"},
		{"content types", func(f *Fields) { f.ContentTypes = "text/html, application/pdf" }, "", ""},
		{"content type bad", func(f *Fields) { f.ContentTypes = "html" }, FieldContentTypes, "not a media type"},
		{"include regexp bad", func(f *Fields) { f.Include = "/blog/\n(unclosed" }, FieldInclude, "bad regular expression"},
		{"proxy bad scheme", func(f *Fields) { f.Proxy = "ftp://proxy:21" }, FieldProxy, "not supported"},
		{"proxy ok", func(f *Fields) { f.Proxy = "socks5://127.0.0.1:1080" }, "", ""},
		{"auth half row", func(f *Fields) { f.Auth = []Auth{{Host: "a.org"}} }, FieldAuth, "row 1 needs a host and a user"},
		{"auth URL as host", func(f *Fields) { f.Auth = []Auth{{Host: "http://a.org/", User: "u"}} }, FieldAuth, "not a URL"},
		{"auth empty row ignored", func(f *Fields) { f.Auth = []Auth{{}} }, "", ""},
		{"memory too small", func(f *Fields) { f.MemoryURLs = "10" }, FieldMemoryURLs, "between 100"},
		{"mixed keeps mix", func(f *Fields) { f.Strategy = "mixed"; f.Mix = 0.25 }, "", ""},
		{"unknown strategy", func(f *Fields) { f.Strategy = "random" }, FieldStrategy, "bfs, dfs or mixed"},
		{"delay zero is off", func(f *Fields) { f.Delay = "0" }, "", ""},
		{"delay negative", func(f *Fields) { f.Delay = "-1s" }, FieldDelay, "must not be negative"},
		{"rps negative", func(f *Fields) { f.RPS = "-2" }, FieldRPS, "between 0 and"},
		{"rps word", func(f *Fields) { f.RPS = "fast" }, FieldRPS, `"fast" is not a number`},
		{"trap repeats zero", func(f *Fields) { f.TrapRepeats = "0" }, FieldTrapRepeats, "between 1 and"},
		{"revisit in days", func(f *Fields) { f.RevisitMin, f.RevisitMax = "12h", "1d12h" }, "", ""},
		{"revisit max below min", func(f *Fields) { f.RevisitMin, f.RevisitMax = "2d", "1d" }, FieldRevisitMax, "not be shorter"},
		{"near threshold above 1", func(f *Fields) { f.NearThreshold = "1.5" }, FieldNearThreshold, "between 0 and 1"},
		{"on completion unknown", func(f *Fields) { f.OnCompletion = "sleep" }, FieldOnCompletion, "idle, quit or loop"},
		{"log level too high", func(f *Fields) { f.LogLevel = 9 }, FieldLogLevel, "between 0 and 5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Defaults()
			f.Seeds = "http://127.0.0.1/"
			tt.edit(&f)
			r := Check(f)
			if tt.field == "" {
				if !r.OK() {
					t.Fatalf("want OK, got %v", r.Errors)
				}
				return
			}
			msg, ok := r.Errors[tt.field]
			if !ok {
				t.Fatalf("no error for %s; errors %v", tt.field, r.Errors)
			}
			if !strings.Contains(msg, tt.want) {
				t.Errorf("%s error %q does not say %q", tt.field, msg, tt.want)
			}
			if !strings.Contains(r.Summary(), tt.field+": ") {
				t.Errorf("summary %q does not name %s", r.Summary(), tt.field)
			}
		})
	}
}

func TestCheckConvertsEverySetting(t *testing.T) {
	f := Defaults()
	f.Seeds = "http://127.0.0.1:8080/"
	f.Depth, f.Threads, f.Strategy, f.Mix, f.MaxPages, f.Scope = "3", "50", "mixed", 0.75, "1000", "domain"
	f.PerHost, f.RandSeed = "4", "42"
	f.Include, f.Exclude = "/docs/\n\n/blog/", `\.pdf$`
	f.ConnectTimeout, f.Timeout, f.MaxRedirects = "2s", "1m", "3"
	f.UserAgent, f.Proxy = "TestBot/1", "http://127.0.0.1:3128"
	f.Auth = []Auth{{Host: "Intranet:8080", User: "me", Password: "secret"}}
	f.MaxSize, f.ContentTypes, f.Resources = "1 MiB", "text/html", true
	f.MaxURLLength, f.ExpectedURLs, f.MemoryURLs = "512", "5000", "200"
	f.Robots, f.Sitemaps, f.StoreIP = false, true, false
	f.Delay, f.MaxCrawlDelay, f.RobotsRetry, f.RPS, f.MaxPerHost = "250ms", "10s", "2m", "7.5", "900"
	f.TrapBudget, f.TrapRepeats, f.MaxQueryParams = "50", "2", "8"
	f.KeepVersions, f.RevisitMin, f.RevisitMax, f.NearThreshold = "5", "2h", "7d", "0.8"
	f.OnCompletion, f.LogLevel, f.Hook = "loop", 4, " notify-send done "
	r := Check(f)
	if !r.OK() {
		t.Fatal(r.Errors)
	}
	c := r.Config
	checks := []struct {
		name      string
		got, want any
	}{
		{"depth", c.Depth, 3}, {"threads", c.Threads, 50}, {"strategy", c.Strategy, crawl.Mixed},
		{"mix", c.Mix, 0.75}, {"max pages", c.MaxPages, 1000}, {"scope", c.Scope, crawl.ScopeDomain},
		{"per host", c.PerHost, 4}, {"seed", c.RandSeed, int64(42)}, {"include", len(c.Include), 2},
		{"exclude", c.Exclude[0], `\.pdf$`}, {"connect", c.ConnectTimeout, 2 * time.Second},
		{"timeout", c.Timeout, time.Minute}, {"redirects", c.MaxRedirects, 3}, {"agent", c.UserAgent, "TestBot/1"},
		{"proxy", c.Proxy, "http://127.0.0.1:3128"}, {"auth host", c.Auth[0].Host, "intranet:8080"},
		{"auth password", c.Auth[0].Password, "secret"}, {"size", c.MaxSize, int64(1 << 20)},
		{"types", c.ContentTypes[0], "text/html"}, {"resources", c.Resources, true},
		{"url length", c.MaxURLLength, 512}, {"expected", c.ExpectedURLs, 5000}, {"memory", c.MemoryURLs, 200},
		{"robots", c.Robots, false}, {"sitemaps", c.Sitemaps, true}, {"store ip", c.StoreIP, false},
		{"delay", c.Delay, 250 * time.Millisecond}, {"max crawl delay", c.MaxCrawlDelay, 10 * time.Second},
		{"robots retry", c.RobotsRetry, 2 * time.Minute}, {"rps", c.RPS, 7.5}, {"max per host", c.MaxPerHost, 900},
		{"trap budget", c.TrapBudget, 50}, {"trap repeats", c.TrapRepeats, 2}, {"query params", c.MaxQueryParams, 8},
		{"versions", c.KeepVersions, 5}, {"revisit min", c.RevisitMin, 2 * time.Hour},
		{"revisit max", c.RevisitMax, 7 * 24 * time.Hour}, {"near", c.NearThreshold, 0.8},
		{"on completion", c.OnCompletion, "loop"}, {"log level", c.LogLevel, 4}, {"hook", c.Hook, "notify-send done"},
	}
	for _, ch := range checks {
		if ch.got != ch.want {
			t.Errorf("%s = %v, want %v", ch.name, ch.got, ch.want)
		}
	}
	back := FromConfig(c, "again")
	if back.RevisitMax != "7d" || back.Delay != "250ms" || back.RobotsRetry != "2m" || back.Sitemaps != true {
		t.Errorf("FromConfig writes %q %q %q %v", back.RevisitMax, back.Delay, back.RobotsRetry, back.Sitemaps)
	}
	if r2 := Check(back); !r2.OK() || r2.Config.Mix != 0.75 || r2.Config.Timeout != time.Minute || back.Name != "again" {
		t.Errorf("FromConfig does not round-trip: %v %+v", r2.Errors, back)
	}
}

// memPrefs is an in-memory Prefs.
type memPrefs map[string]string

func (m memPrefs) String(k string) string { return m[k] }
func (m memPrefs) SetString(k, v string)  { m[k] = v }

func TestPrefsRoundTripWithoutPasswords(t *testing.T) {
	p := memPrefs{}
	if got := Load(p); got.Threads != Defaults().Threads {
		t.Errorf("empty prefs give threads %q", got.Threads)
	}
	f := Defaults()
	f.Seeds, f.Threads, f.Strategy = "a.org\nb.org", "12", "dfs"
	f.Auth = []Auth{{Host: "a.org", User: "me", Password: "secret"}}
	Save(p, f)
	if strings.Contains(p[PrefsKey], "secret") {
		t.Fatalf("password saved in preferences: %s", p[PrefsKey])
	}
	got := Load(p)
	if got.Seeds != f.Seeds || got.Threads != "12" || got.Strategy != "dfs" || got.Auth[0].User != "me" || got.Auth[0].Password != "" {
		t.Errorf("loaded %+v", got)
	}
	p[PrefsKey] = "{not json"
	if got := Load(p); got.Seeds != "" {
		t.Errorf("unreadable prefs should give defaults, got seeds %q", got.Seeds)
	}
}

func TestDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0: "0s", 10 * time.Second: "10s", 90 * time.Second: "1m30s", time.Hour: "1h", 90 * time.Minute: "1h30m",
		30 * 24 * time.Hour: "30d", 36 * time.Hour: "36h", 250 * time.Millisecond: "250ms",
	} {
		if got := Duration(d); got != want {
			t.Errorf("Duration(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestDefaultsFollowTheEngine(t *testing.T) {
	r := Check(Fields(Defaults()))
	if _, ok := r.Errors[FieldSeeds]; !ok || len(r.Errors) != 1 {
		t.Fatalf("defaults without seeds: %v", r.Errors)
	}
	want := crawl.DefaultConfig()
	c := r.Config
	if c.Robots != want.Robots || c.StoreIP != want.StoreIP || c.NearThreshold != want.NearThreshold ||
		c.LogLevel != want.LogLevel || c.RevisitMax != want.RevisitMax || c.OnCompletion != want.OnCompletion {
		t.Errorf("defaults read back as %+v", c)
	}
}

// TestNewCrawlSketchVersion checks that a crawl made with the form has the
// latest sketch version, also when the form was filled from the settings
// of a crawl made with version 1 ("reuse settings"): only that crawl's
// own runs keep its version.
func TestNewCrawlSketchVersion(t *testing.T) {
	old := crawl.DefaultConfig()
	old.Seeds, old.SketchVersion = []string{"http://example.org/"}, neardup.Version1
	for name, f := range map[string]Fields{"defaults": Defaults(), "reused": FromConfig(old, "again")} {
		f.Seeds = "example.org"
		if r := Check(f); !r.OK() || r.Config.SketchVersion != neardup.LatestVersion {
			t.Errorf("%s: sketch version %d (%v); want %d", name, r.Config.SketchVersion, r.Errors, neardup.LatestVersion)
		}
	}
}
