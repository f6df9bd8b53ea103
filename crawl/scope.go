package crawl

import (
	"net"
	"regexp"
	"strings"

	"golang.org/x/net/publicsuffix"
)

// scope decides which discovered URLs join the crawl: the Scope setting
// against the seeds' hosts, then the include and exclude rules.
type scope struct {
	kind    Scope
	hosts   map[string]bool // seed hostnames
	domains map[string]bool // seed registrable domains
	include []*regexp.Regexp
	exclude []*regexp.Regexp
}

func newScope(c *Config, seeds []string) *scope {
	s := &scope{kind: c.Scope, hosts: map[string]bool{}, domains: map[string]bool{}}
	for _, u := range seeds {
		name := hostName(u)
		s.hosts[name] = true
		s.domains[registrable(name)] = true
	}
	for _, re := range c.Include {
		s.include = append(s.include, regexp.MustCompile(re)) // Validate compiled them
	}
	for _, re := range c.Exclude {
		s.exclude = append(s.exclude, regexp.MustCompile(re))
	}
	return s
}

// allows reports why the normalized URL u is outside the crawl, or ""
// when it is in: SkipScope for another host or domain, SkipExcluded for
// the include and exclude rules.
func (s *scope) allows(u string) SkipReason {
	name := hostName(u)
	switch s.kind {
	case ScopeHost:
		if !s.hosts[name] {
			return SkipScope
		}
	case ScopeDomain:
		if !s.domains[registrable(name)] {
			return SkipScope
		}
	}
	for _, re := range s.exclude {
		if re.MatchString(u) {
			return SkipExcluded
		}
	}
	if len(s.include) == 0 {
		return ""
	}
	for _, re := range s.include {
		if re.MatchString(u) {
			return ""
		}
	}
	return SkipExcluded
}

// registrable returns the registrable domain (eTLD+1) of a hostname, or the
// hostname itself for IP addresses, single labels and public suffixes.
func registrable(name string) string {
	if net.ParseIP(name) != nil {
		return name
	}
	d, err := publicsuffix.EffectiveTLDPlusOne(name)
	if err != nil {
		return name
	}
	return d
}

// splitHost returns the hostname of a normalized absolute URL and its host
// key "hostname:port" with the scheme's default port made explicit. It is
// on the per-link path, so it slices the string rather than parsing it,
// and builds the key only when the port is not in the URL.
func splitHost(u string) (name, hostport string) {
	scheme, authority, host, port, ok := authorityOf(u)
	name = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	switch {
	case !ok:
		return "", ""
	case port != "":
		return name, authority // host + ":" + port as it stands
	}
	return name, host + ":" + defaultPort(scheme)
}

// hostName is the name splitHost returns, without the host key.
func hostName(u string) string {
	_, _, host, _, _ := authorityOf(u)
	return strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
}

// authorityOf slices an absolute URL's scheme, its authority without user
// information, and the host and port in it; ok is false without "://".
func authorityOf(u string) (scheme, authority, host, port string, ok bool) {
	scheme, rest, ok := strings.Cut(u, "://")
	if !ok {
		return "", "", "", "", false
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.LastIndexByte(rest, '@'); i >= 0 {
		rest = rest[i+1:]
	}
	host = rest
	if i := strings.LastIndexByte(rest, ':'); i >= 0 && !strings.Contains(rest[i:], "]") {
		host, port = rest[:i], rest[i+1:]
	}
	return scheme, rest, host, port, true
}

func defaultPort(scheme string) string {
	switch scheme {
	case "https":
		return "443"
	case "ftp":
		return "21"
	}
	return "80"
}
