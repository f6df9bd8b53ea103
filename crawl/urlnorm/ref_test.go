package urlnorm

// Normalization as it was at commit 259d8fa, before the fast paths for
// text already in canonical form and the Base that normalizes a page's
// authority once: the reference TestMatchesReference and
// FuzzMatchesReference hold the current code to. The helpers it calls
// (clean, split, appendAuthority, appendEscaped, removeDotSegments) are
// unchanged.

import (
	"net/url"
	"strconv"
	"strings"
)

// refRun is Options.run as it was.
func refRun(o Options, base *url.URL, input string) (string, error) {
	s := clean(input)
	if s == "" {
		return "", reject(input, ReasonEmpty, "empty reference")
	}
	t, reason, detail := refResolve(base, split(s))
	if reason != 0 {
		return "", reject(input, reason, detail)
	}
	var stack [512]byte
	b, detail := t.refAppendTo(stack[:0])
	if detail != "" {
		return "", reject(input, ReasonHost, detail)
	}
	limit := o.MaxLength
	if limit <= 0 {
		limit = DefaultMaxLength
	}
	if len(b) > limit {
		return "", reject(input, ReasonTooLong,
			strconv.Itoa(len(b))+" bytes, limit "+strconv.Itoa(limit))
	}
	if string(b) == input {
		return input, nil
	}
	return string(b), nil
}

// refResolve is resolve as it was: it applies RFC 3986 §5.2.2 to r and base (nil when r must be
// absolute). A ref with the base's scheme and no authority is relative, as
// the RFC allows for backward compatibility and browsers do.
func refResolve(base *url.URL, r reference) (target, Reason, string) {
	var t target
	if r.hasScheme {
		t.scheme = schemeOf(r.scheme)
		if t.scheme == schemeNone {
			return t, ReasonScheme, "only http, https and ftp are crawled"
		}
		if base == nil || r.hasAuthority || !strings.EqualFold(r.scheme, base.Scheme) {
			t.authority, t.hasAuth, t.path = r.authority, r.hasAuthority, r.path
			t.query = r.query
			return t, 0, ""
		}
	}
	if base == nil {
		return t, ReasonSyntax, "relative reference without a base URL"
	}
	if base.Scheme == "" {
		return t, ReasonSyntax, "base URL is not absolute"
	}
	t.scheme = schemeOf(base.Scheme)
	if t.scheme == schemeNone {
		return t, ReasonScheme, "only http, https and ftp are crawled"
	}
	t.query = r.query
	if r.hasAuthority {
		t.authority, t.hasAuth, t.path = r.authority, true, r.path
		return t, 0, ""
	}
	t.authority, t.hasAuth = base.Host, base.Host != ""
	bpath := base.Opaque
	if bpath == "" {
		bpath = base.EscapedPath()
	}
	switch {
	case r.path == "":
		t.path = bpath
		if !r.hasQuery {
			t.query = base.RawQuery
		}
	case r.path[0] == '/':
		t.path = r.path
	case t.hasAuth && bpath == "":
		t.dir, t.path = "/", r.path
	default:
		t.dir, t.path = bpath[:strings.LastIndexByte(bpath, '/')+1], r.path
	}
	return t, 0, ""
}

// refAppendTo is appendTo as it was: it appends the canonical text of t; a non-empty detail says why its
// authority is invalid.
func (t *target) refAppendTo(b []byte) ([]byte, string) {
	b = append(b, schemeNames[t.scheme]...)
	b = append(b, "://"...)
	if !t.hasAuth {
		return b, "missing host"
	}
	b, detail := appendAuthority(b, t.authority, defaultPorts[t.scheme])
	if detail != "" {
		return b, detail
	}
	p0 := len(b)
	lead := t.dir
	if lead == "" {
		lead = t.path
	}
	if lead == "" || lead[0] != '/' {
		b = append(b, '/')
	}
	b = appendEscaped(b, t.dir, clsPath)
	b = appendEscaped(b, t.path, clsPath)
	b = b[:p0+len(removeDotSegments(b[p0:]))]
	if t.query != "" {
		b = append(b, '?')
		b = appendEscaped(b, t.query, clsQuery)
	}
	return b, ""
}
