package logfile

import (
	"bytes"
	"encoding/base64"
	"log/slog"
	"net/url"
	"strings"
	"testing"

	"github.com/trawler/trawler/crawl"
)

func TestLogPath(t *testing.T) {
	for in, want := range map[string]string{
		"/data/trawler.db": "/data/trawler.log",
		"crawls.sqlite":    "crawls.log",
		"/data/x":          "/data/x.log",
		"/a.b/x":           "/a.b/x.log",
		"x.log":            "x.log.log",
	} {
		if got := Path(in); got != want {
			t.Errorf("Path(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRedactor(t *testing.T) {
	c := crawl.DefaultConfig()
	c.Auth = []crawl.HostAuth{{Host: "a:80", User: "me", Password: "p@ss w/rd"}}
	c.Proxy = "http://px:pr0xy-pw@proxy:3128"
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(newRedactor(&buf, c), nil))
	log.Info("tried p@ss w/rd", "url", "http://me:"+url.PathEscape("p@ss w/rd")+"@a/", "q", url.QueryEscape("p@ss w/rd"),
		"header", "Basic "+base64.StdEncoding.EncodeToString([]byte("me:p@ss w/rd")), "proxy", c.Proxy, "auth", c.Auth[0])
	got := buf.String()
	for _, s := range []string{"p@ss", "ss w", "p%40ss", "pr0xy-pw", base64.StdEncoding.EncodeToString([]byte("me:p@ss w/rd"))} {
		if strings.Contains(got, s) {
			t.Errorf("log holds %q: %s", s, got)
		}
	}
	if strings.Count(got, "***") < 5 || !strings.Contains(got, "auth.host=a:80") {
		t.Errorf("log line %s", got)
	}
}

// TestLogBesideDatabase checks the log lands beside the database and
// follows --log-level: 0 keeps errors only, 3 adds a line per fetch.
