package form

import (
	"errors"
	"fmt"
	"mime"
	"strconv"
	"strings"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/trawler/trawler/crawl"
)

// parser reads typed text into values, recording the first problem of each
// field in errs.
type parser struct {
	errs map[string]string
}

func (p parser) fail(field, format string, a ...any) {
	if _, ok := p.errs[field]; !ok {
		p.errs[field] = fmt.Sprintf(format, a...)
	}
}

// intIn reads a whole number between lo and hi.
func (p parser) intIn(field, s string, lo, hi int) int {
	s = strings.ReplaceAll(strings.TrimSpace(s), ",", "")
	if s == "" {
		p.fail(field, "type a number")
		return 0
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		p.fail(field, "%q is not a whole number", s)
		return 0
	}
	if n < lo || n > hi {
		p.fail(field, "must be between %d and %d", lo, hi)
	}
	return n
}

func (p parser) int64(field, s string) int64 {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		p.fail(field, "%q is not a whole number", s)
	}
	return n
}

// duration reads a duration of more than 0 (see parseDuration).
func (p parser) duration(field, s string) time.Duration {
	d, ok := p.parseDuration(field, s)
	if ok && d <= 0 {
		p.fail(field, "must be more than 0")
	}
	return d
}

// durationOrZero reads a duration that may be 0 (off).
func (p parser) durationOrZero(field, s string) time.Duration {
	d, ok := p.parseDuration(field, s)
	if ok && d < 0 {
		p.fail(field, "must not be negative")
	}
	return d
}

// parseDuration reads a Go duration ("10s", "1m30s"), with days allowed in
// front ("30d", "1d12h"); a bare number is seconds.
func (p parser) parseDuration(field, s string) (time.Duration, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		p.fail(field, "type a duration like 10s, 1m30s or 30d")
		return 0, false
	}
	if n, err := strconv.ParseFloat(s, 64); err == nil {
		return time.Duration(n * float64(time.Second)), true
	}
	var days time.Duration
	if i := strings.IndexByte(s, 'd'); i > 0 {
		n, err := strconv.Atoi(s[:i])
		if err == nil {
			days, s = time.Duration(n)*24*time.Hour, s[i+1:]
		}
	}
	d := time.Duration(0)
	var err error
	if s != "" {
		d, err = time.ParseDuration(s)
	}
	if err != nil {
		p.fail(field, "%q is not a duration like 10s, 1m30s or 30d", s)
		return 0, false
	}
	return days + d, true
}

// floatIn reads a number between lo and hi.
func (p parser) floatIn(field, s string, lo, hi float64) float64 {
	s = strings.TrimSpace(s)
	n, err := strconv.ParseFloat(s, 64)
	if err != nil {
		p.fail(field, "%q is not a number", s)
		return 0
	}
	if !(n >= lo && n <= hi) {
		p.fail(field, "must be between %g and %g", lo, hi)
	}
	return n
}

// size reads a byte count with optional units: 10 MiB, 500kB, 2000000.
func (p parser) size(field, s string) int64 {
	s = strings.TrimSpace(s)
	n, err := humanize.ParseBytes(s)
	if err != nil || s == "" {
		p.fail(field, "%q is not a size like 10 MiB or 500 kB", s)
		return 0
	}
	if n == 0 || n > 1<<40 {
		p.fail(field, "must be between 1 byte and 1 TiB")
	}
	return int64(n)
}

// mediaTypes reads a comma- or line-separated list of media types.
func (p parser) mediaTypes(field, s string) []string {
	var out []string
	for _, t := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == '\n' || r == ' ' }) {
		mt, _, err := mime.ParseMediaType(t)
		if err != nil || !strings.Contains(mt, "/") {
			p.fail(field, "%q is not a media type like text/html", t)
			continue
		}
		out = append(out, mt)
	}
	if len(out) == 0 {
		p.fail(field, "name at least one media type, e.g. text/html")
	}
	return out
}

// auth keeps the complete credential rows; a row with only some of its
// parts filled in is an error, an empty row is ignored.
func (p parser) auth(rows []Auth) []crawl.HostAuth {
	var out []crawl.HostAuth
	for i, a := range rows {
		host, user := strings.TrimSpace(a.Host), strings.TrimSpace(a.User)
		switch {
		case host == "" && user == "" && a.Password == "":
			continue
		case host == "" || user == "":
			p.fail(FieldAuth, "row %d needs a host and a user name", i+1)
			continue
		case strings.Contains(host, "/"):
			p.fail(FieldAuth, "row %d: host is a name like example.com or example.com:8080, not a URL", i+1)
			continue
		}
		out = append(out, crawl.HostAuth{Host: strings.ToLower(host), User: user, Password: a.Password})
	}
	return out
}

// ParseDuration reads a duration as the form's fields do: "10s", "1m30s",
// "30d", "1d12h", or a bare number of seconds; it must be above 0.
func ParseDuration(s string) (time.Duration, error) {
	errs := map[string]string{}
	d, ok := parser{errs: errs}.parseDuration("d", s)
	if ok && d <= 0 {
		return 0, fmt.Errorf("must be more than 0")
	}
	if !ok {
		return 0, errors.New(errs["d"])
	}
	return d, nil
}
