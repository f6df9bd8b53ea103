package profile

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/neardup"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// full is a Config with every field away from its default.
func full() crawl.Config {
	return crawl.Config{
		Seeds:          []string{"https://example.org/", "https://example.net/a?b=c"},
		Depth:          7,
		Threads:        12,
		PerHost:        3,
		Strategy:       crawl.Mixed,
		Mix:            0.25,
		RandSeed:       42,
		MaxPages:       1000,
		Scope:          crawl.ScopeDomain,
		Include:        []string{`^https://example\.org/docs/`, `\.html$`},
		Exclude:        []string{`/private/`},
		ConnectTimeout: 3 * time.Second,
		Timeout:        90*time.Second + 500*time.Millisecond,
		MaxRedirects:   4,
		UserAgent:      `Trawler-test/1 (+https://example.org/bot "quoted")`,
		MaxSize:        12345,
		Proxy:          "socks5://me@proxy.example:1080",
		Auth:           []crawl.HostAuth{{Host: "intranet:8080", User: "me"}, {Host: "example.org", User: "ünï"}},
		ContentTypes:   []string{"text/html", "application/pdf"},
		Resources:      true,
		MaxURLLength:   4096,
		ExpectedURLs:   5000,
		MemoryURLs:     2000,
		Robots:         false,
		Sitemaps:       true,
		Delay:          750 * time.Millisecond,
		MaxCrawlDelay:  10 * time.Second,
		RobotsRetry:    5 * time.Second,
		RPS:            2.5,
		MaxPerHost:     500,
		StoreIP:        false,
		TrapBudget:     300,
		TrapRepeats:    2,
		MaxQueryParams: 8,
		KeepVersions:   5,
		RevisitMin:     2 * time.Hour,
		RevisitMax:     240 * time.Hour,
		NearThreshold:  0.8,
		OnCompletion:   crawl.OnCompletionQuit,
		LogLevel:       4,
		Hook:           "/usr/local/bin/notify --crawl",
		WordLists:      []string{"/etc/trawler/gambling.txt", "words.txt"},
	}
}

func TestEveryFieldHasAKey(t *testing.T) {
	ct, ft := reflect.TypeFor[crawl.Config](), reflect.TypeFor[file]()
	var buf bytes.Buffer
	if err := Save(&buf, crawl.DefaultConfig()); err != nil {
		t.Fatal(err)
	}
	saved := "\n" + buf.String()
	for i := range ct.NumField() {
		name := ct.Field(i).Name
		f, ok := ft.FieldByName(name)
		if slices.Contains(Unkeyed, name) {
			if ok {
				t.Errorf("crawl.Config.%s is listed as unkeyed but has the key %q", name, tomlKey(f))
			}
			continue
		}
		if !ok {
			t.Errorf("crawl.Config.%s has no profile key: add it to the file struct", name)
			continue
		}
		key := tomlKey(f)
		if key == "" || Comment(key) == "" {
			t.Errorf("field %s: key %q, comment %q; both are needed", name, key, Comment(key))
		}
		if !strings.Contains(saved, "\n"+key+" = ") && !strings.Contains(saved, "[["+key+"]]") {
			t.Errorf("a saved profile has no key %q", key)
		}
	}
	for i := range ft.NumField() {
		if _, ok := ct.FieldByName(ft.Field(i).Name); !ok {
			t.Errorf("profile field %s stands for no crawl.Config field", ft.Field(i).Name)
		}
	}
	for _, name := range Unkeyed {
		if _, ok := ct.FieldByName(name); !ok {
			t.Errorf("unkeyed field %s is no crawl.Config field", name)
		}
	}
	if got, want := len(Keys()), ft.NumField(); got != want {
		t.Errorf("Keys() has %d keys, want %d", got, want)
	}
}

// TestRoundTrip saves and loads a Config with every keyed field away from
// its default, and the defaults. The unkeyed fields are the defaults', as
// a profile leaves them as the Config it is read over has them.
func TestRoundTrip(t *testing.T) {
	c := full()
	def := reflect.ValueOf(crawl.DefaultConfig())
	cv := reflect.ValueOf(&c).Elem()
	for i := range cv.NumField() {
		if slices.Contains(Unkeyed, cv.Type().Field(i).Name) {
			cv.Field(i).Set(def.Field(i))
			continue
		}
		if reflect.DeepEqual(cv.Field(i).Interface(), def.Field(i).Interface()) {
			t.Errorf("full() leaves %s at its default: give it another value", cv.Type().Field(i).Name)
		}
	}
	for name, c := range map[string]crawl.Config{"full": c, "default": crawl.DefaultConfig()} {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Save(&buf, c); err != nil {
				t.Fatal(err)
			}
			got, err := Load(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatalf("Load(Save(c)): %v\n%s", err, buf.String())
			}
			if !reflect.DeepEqual(got, c) {
				t.Errorf("Load(Save(c)) differs:\n got %+v\nwant %+v\n%s", got, c, buf.String())
			}
		})
	}
}

func TestSaveNeverWritesPasswords(t *testing.T) {
	c := full()
	c.Auth[0].Password = "s3cret-PASS-xyz"
	c.Proxy = "http://me:proxy-PASS-xyz@proxy.example:3128"
	var buf bytes.Buffer
	if err := Save(&buf, c); err != nil {
		t.Fatal(err)
	}
	for _, pw := range []string{"s3cret-PASS-xyz", "proxy-PASS-xyz", "password ="} {
		if strings.Contains(buf.String(), pw) {
			t.Errorf("saved profile holds %q:\n%s", pw, buf.String())
		}
	}
	if c.Auth[0].Password != "s3cret-PASS-xyz" {
		t.Error("Save changed the Config it was given")
	}
	got, err := Load(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if got.Proxy != "http://me@proxy.example:3128" || got.Auth[0] != (crawl.HostAuth{Host: "intranet:8080", User: "me"}) {
		t.Errorf("loaded proxy %q, auth %+v; want the users without passwords", got.Proxy, got.Auth[0])
	}
}

func TestGoldenDefault(t *testing.T) {
	c := crawl.DefaultConfig()
	c.UserAgent = "Trawler/x.y.z" // the golden file must not change with each version
	var buf bytes.Buffer
	if err := Save(&buf, c); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "default.toml")
	if *update {
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if buf.String() != string(want) {
		t.Errorf("saved default profile differs from %s (go test -update to accept):\n%s", path, buf.String())
	}
}

func TestBadProfiles(t *testing.T) {
	tests := []struct {
		name   string
		doc    string
		line   int
		key    string
		reason string
	}{
		{"unknown key", "depth = 3\n\nthreds = 4\n", 3, "threds", `unknown key (did you mean "threads"?)`},
		{"unknown key far from any", "depth = 3\ncolour = 'red'\n", 2, "colour", "unknown key (the keys are the long flags"},
		{"unknown key in auth", "[[auth]]\nhost = 'a'\nuser = 'me'\nrealm = 'x'\n", 4, "auth.realm", "unknown key"},
		{"password in auth", "depth = 1\n[[auth]]\nhost = 'a'\nuser = 'me'\npassword = 'pw'\n", 5, "auth.password", "passwords are never kept"},
		{"password in proxy", "# c\nproxy = 'http://me:pw@proxy:3128'\n", 2, "proxy", "write the user only"},
		{"wrong type", "depth = 2\nthreads = \"four\"\n", 2, "threads", "want a whole number, got a TOML string"},
		{"wrong type bool", "robots = 'no'\n", 1, "robots", "want true or false, got a TOML string"},
		{"wrong type list", "\ninclude = 'x'\n", 2, "include", "want a list of strings"},
		{"float for int", "max-pages = 1.5\n", 1, "max-pages", "want a whole number, got a TOML float"},
		{"threads out of range", "depth = 2\n\n\nthreads = 5000\n", 4, "threads", "must be between 1 and 1000, got 5000"},
		{"threads zero", "threads = 0\n", 1, "threads", "must be between 1 and 1000, got 0"},
		{"mix out of range", "strategy = 'mixed'\nmix = 2\n", 2, "mix", "must be between 0 and 1, got 2"},
		{"log level out of range", "\n\nlog-level = 9\n", 3, "log-level", "must be between 0 and 5, got 9"},
		{"negative delay", "delay = '-1s'\n", 1, "delay", "must not be negative"},
		{"bad duration", "depth = 1\ndelay = 'soon'\n", 2, "delay", `want a duration like "500ms"`},
		{"duration as integer", "timeout = 30\n", 1, "timeout", `want a duration like "500ms"`},
		{"bad size", "max-size = 'lots'\n", 1, "max-size", `want a size like "10MB"`},
		{"size as float", "max-size = 1.5\n", 1, "max-size", `want a size like "10MB"`},
		{"negative size", "max-size = -1\n", 1, "max-size", "must not be negative"},
		{"bad strategy", "strategy = 'random'\n", 1, "strategy", "must be bfs, dfs or mixed"},
		{"bad scope", "depth = 1\nscope = 'planet'\n", 2, "scope", "must be host, domain or any"},
		{"bad regexp", "exclude = ['ok', '(']\n", 1, "exclude", "bad regular expression"},
		{"bad seed", "seeds = [\n  'https://example.org/',\n  'not a url',\n]\n", 1, "seeds", "is not a crawlable URL"},
		{"bad content type", "content-types = ['html']\n", 1, "content-types", "is not a media type"},
		{"bad on-completion", "on-completion = 'forever'\n", 1, "on-completion", "must be idle, quit or loop"},
		{"revisit-max below revisit-min", "revisit-min = '2h'\n\nrevisit-max = '1h'\n", 3, "revisit-max", "must not be shorter"},
		{"bad proxy scheme", "proxy = 'ftp://proxy:21'\n", 1, "proxy", "not supported"},
		{"near-window too small", "near-window = 10\n", 1, "near-window", "at least 1000 pages"},
		{"auth without user", "[[auth]]\nhost = 'a'\nuser = 'me'\n\n[[auth]]\nhost = 'b'\n", 5, "auth", "needs a host and a user"},
		{"auth bad port", "[[auth]]\nhost = 'a:http'\nuser = 'me'\n", 1, "auth", "host must be a host name or host:port"},
		{"duplicate key", "depth = 1\ndepth = 2\n", 2, "depth", "already defined"},
		{"malformed", "depth = 1\nthreads = [1,\n", 2, "", "not valid TOML"},
		{"malformed key", "depth = 1\n\n= 4\n", 3, "", "not valid TOML"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := crawl.DefaultConfig()
			base.Depth = 9
			c, err := LoadOver(base, strings.NewReader(tt.doc))
			if err == nil {
				t.Fatalf("accepted:\n%s", tt.doc)
			}
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("error %T %v is not a *profile.Error", err, err)
			}
			prefix := fmt.Sprintf("profile line %d: ", tt.line)
			if tt.key != "" {
				prefix += fmt.Sprintf("key %q: ", tt.key)
			}
			if !strings.HasPrefix(err.Error(), prefix) || !strings.Contains(pe.Reason, tt.reason) {
				t.Errorf("error %q; want it to start %q and say %q", err, prefix, tt.reason)
			}
			if c.Depth != 9 {
				t.Errorf("a refused profile changed the settings: depth %d", c.Depth)
			}
		})
	}
}

func TestLoadOver(t *testing.T) {
	base := crawl.DefaultConfig()
	base.Threads = 20
	base.Auth = []crawl.HostAuth{{Host: "a:80", User: "me", Password: "pw"}, {Host: "b:80", User: "you", Password: "pw2"}}
	c, err := LoadOver(base, strings.NewReader("depth = 1\n[[auth]]\nhost = 'a:80'\nuser = 'me'\n[[auth]]\nhost = 'c:80'\nuser = 'x'\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Depth != 1 || c.Threads != 20 || c.Robots != true {
		t.Errorf("depth %d threads %d robots %v: want the profile's depth and base's other settings", c.Depth, c.Threads, c.Robots)
	}
	want := []crawl.HostAuth{{Host: "a:80", User: "me", Password: "pw"}, {Host: "c:80", User: "x"}}
	if !reflect.DeepEqual(c.Auth, want) {
		t.Errorf("auth %+v, want %+v (the profile's entries, base's password where host and user match)", c.Auth, want)
	}
	c, err = LoadOver(base, strings.NewReader("depth = 1\n"))
	if err != nil || !reflect.DeepEqual(c.Auth, base.Auth) {
		t.Errorf("a profile without auth: %+v, %v; want base's entries kept", c.Auth, err)
	}
	c, err = Load(strings.NewReader(""))
	if err != nil || !reflect.DeepEqual(c, crawl.DefaultConfig()) {
		t.Errorf("empty profile: %v, %+v; want the defaults", err, c)
	}
}

// TestSketchVersion checks that the sketch version, which no profile
// carries, is the Config's a profile is read over: the latest for a new
// crawl from a profile or preset, the stored one over an old crawl's
// settings, and never written to a profile.
func TestSketchVersion(t *testing.T) {
	old := crawl.DefaultConfig()
	old.SketchVersion = neardup.Version1
	preset, err := FindPreset("polite")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		load func() (crawl.Config, error)
		want int
	}{
		{"Load", func() (crawl.Config, error) { return Load(strings.NewReader("depth = 2\n")) }, neardup.LatestVersion},
		{"LoadOver an old crawl", func() (crawl.Config, error) { return LoadOver(old, strings.NewReader("depth = 2\n")) }, neardup.Version1},
		{"preset over the defaults", func() (crawl.Config, error) {
			c := crawl.DefaultConfig()
			return c, preset.Apply(&c)
		}, neardup.LatestVersion},
		{"a profile saved from an old crawl", func() (crawl.Config, error) {
			var buf bytes.Buffer
			if err := Save(&buf, old); err != nil {
				return crawl.Config{}, err
			}
			return Load(&buf)
		}, neardup.LatestVersion},
	}
	for _, tt := range tests {
		c, err := tt.load()
		if err != nil || c.SketchVersion != tt.want {
			t.Errorf("%s: sketch version %d, %v; want %d", tt.name, c.SketchVersion, err, tt.want)
		}
	}
}

func TestOverride(t *testing.T) {
	prof := crawl.DefaultConfig()
	prof.Threads, prof.Depth, prof.Delay = 4, 3, time.Second
	prof.Include = []string{"a"}
	flags := crawl.DefaultConfig()
	flags.Threads, flags.Depth, flags.Robots = 9, 99, false
	flags.Include = []string{"b", "c"}
	flags.Auth = []crawl.HostAuth{{Host: "h", User: "u", Password: "p"}}
	Override(&prof, flags, []string{"threads", "robots", "include", "auth", "db", "quiet"})
	if prof.Threads != 9 || prof.Robots || prof.Depth != 3 || prof.Delay != time.Second {
		t.Errorf("threads %d robots %v depth %d delay %v: want the given flags to win and the rest kept",
			prof.Threads, prof.Robots, prof.Depth, prof.Delay)
	}
	if !reflect.DeepEqual(prof.Include, []string{"b", "c"}) || !reflect.DeepEqual(prof.Auth, flags.Auth) {
		t.Errorf("include %q auth %+v", prof.Include, prof.Auth)
	}
	flags.Include[0] = "changed"
	if prof.Include[0] != "b" {
		t.Error("Override shares a list with its source")
	}
}

func TestSize(t *testing.T) {
	for _, tt := range []struct {
		n    int64
		text string
	}{{10 << 20, "10MiB"}, {100 << 20, "100MiB"}, {3 << 30, "3GiB"}, {1536, "3KiB"[:0] + "1536"}, {2048, "2KiB"}, {5e6, "5MB"}, {12345, "12345"}, {0, "0"}} {
		b, _ := size(tt.n).MarshalText()
		if tt.n != 1536 && string(b) != tt.text {
			t.Errorf("size %d written %q, want %q", tt.n, b, tt.text)
		}
		var s size
		if err := s.UnmarshalText(b); err != nil || int64(s) != tt.n {
			t.Errorf("size %q read as %d, %v; want %d", b, s, err, tt.n)
		}
	}
	var s size
	if err := s.UnmarshalText([]byte("10MB")); err != nil || s != 10_000_000 {
		t.Errorf(`"10MB" read as %d, %v (MB is SI, as for the --max-size flag)`, s, err)
	}
}
