// Package urlnorm turns the links a crawler finds into one canonical text
// per resource, and rejects what cannot be crawled.
//
// Every link of every page passes through here before the seen-set, so two
// spellings of one URL must give the same string, and that string must be
// what the fetcher sends. Resolution follows RFC 3986 §5.2 (with the
// "non-strict" reading of §5.2.2 that browsers use: "http:g" on an http
// page is relative). The canonical form is:
//
//   - scheme http, https or ftp, lower-case; anything else is rejected;
//   - host lower-case, internationalized names in ASCII (IDNA, UTS #46
//     non-transitional), IPv6 literals in RFC 5952 form;
//   - no userinfo: credentials are per-host settings of the crawl and must
//     never be stored in, or leak through, a URL;
//   - no port when it is the scheme's default (80, 443, 21);
//   - path with "." and ".." segments resolved, "/" when empty;
//   - percent-encoding canonical: escapes in upper-case hex, escaped
//     unreserved characters (ALPHA DIGIT - . _ ~) decoded, spaces, controls,
//     non-ASCII bytes (as UTF-8) and other characters a URI cannot hold
//     escaped; reserved characters ("/?:@[]!$&'()*+,;=") keep their form,
//     so "%2F" stays "%2F";
//   - the query kept in order and content, only its escapes canonicalized;
//     an empty query ("?") dropped;
//   - no fragment.
//
// As browsers do, leading and trailing spaces and controls are stripped,
// tabs and newlines inside are removed, and '\' before the query is read as
// '/'. Normalizing a normalized URL returns it unchanged, and the result is
// accepted by net/url.Parse, whose String gives it back unchanged.
package urlnorm

import (
	"net/url"
	"strconv"
	"strings"
)

// DefaultMaxLength is the longest normalized URL accepted by default, in
// bytes: longer links are almost always session or trap URLs, and many
// servers refuse them.
const DefaultMaxLength = 2048

// Options tune normalization; the zero value means defaults.
type Options struct {
	// MaxLength is the longest URL accepted after normalization, in bytes;
	// 0 (or less) means DefaultMaxLength.
	MaxLength int
}

// Normalize returns the canonical form of an absolute URL, or a *Rejection
// saying why it is not crawlable.
func (o Options) Normalize(raw string) (string, error) {
	return o.run(nil, raw)
}

// Resolve resolves ref (as found in an href or src attribute) against base
// (the page URL, or the document's <base href> already resolved against the
// page URL), then normalizes the result. An empty ref is rejected with
// ReasonEmpty; a ref of only a fragment gives the page URL itself. With a
// nil base, ref must be absolute.
func (o Options) Resolve(base *url.URL, ref string) (string, error) {
	return o.run(base, ref)
}

// Normalize is Options{}.Normalize: canonical form with default options.
func Normalize(raw string) (string, error) { return Options{}.Normalize(raw) }

// Resolve is Options{}.Resolve: resolution and normalization with default
// options.
func Resolve(base *url.URL, ref string) (string, error) { return Options{}.Resolve(base, ref) }

// Host returns "hostname:port" of a normalized URL with the scheme's
// default port made explicit (http 80, https 443, ftp 21), e.g. "a.com:80"
// for "http://a.com/x": the crawler's unit of politeness, so that
// "http://a.com/" and "http://a.com:80/" share one queue. IPv6 hosts keep
// their brackets ("[::1]:8080"). For other schemes the host is returned as
// it is.
func Host(u *url.URL) string {
	h := u.Host
	if u.Port() != "" {
		return h
	}
	h = strings.TrimSuffix(h, ":")
	if s := schemeOf(u.Scheme); s != schemeNone {
		return h + ":" + strconv.Itoa(int(defaultPorts[s]))
	}
	return h
}

// target is a resolved URL before normalization; its path is dir+path,
// where dir is the base directory of a merge (RFC 3986 §5.2.3).
type target struct {
	scheme    scheme
	authority string
	dir, path string
	query     string
	hasAuth   bool
	fromBase  bool // scheme and authority are the base's
}

func (o Options) run(base *url.URL, input string) (string, error) {
	return o.resolve(base, "", input)
}

// limit returns the longest URL accepted.
func (o Options) limit() int {
	if o.MaxLength <= 0 {
		return DefaultMaxLength
	}
	return o.MaxLength
}

// resolve is Resolve with prefix, if not empty, the canonical scheme and
// authority of base (see Base), written for a target that takes them from
// the base instead of normalizing base.Host again.
func (o Options) resolve(base *url.URL, prefix, input string) (string, error) {
	s := clean(input)
	if s == "" {
		return "", reject(input, ReasonEmpty, "empty reference")
	}
	limit := o.limit()
	if len(s) <= limit && canonical(s) {
		return s, nil // what the rest would build, byte for byte
	}
	t, reason, detail := resolve(base, split(s))
	if reason != 0 {
		return "", reject(input, reason, detail)
	}
	var stack [512]byte
	b, detail := t.appendTo(stack[:0], prefix)
	if detail != "" {
		return "", reject(input, ReasonHost, detail)
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

// resolve applies RFC 3986 §5.2.2 to r and base (nil when r must be
// absolute). A ref with the base's scheme and no authority is relative, as
// the RFC allows for backward compatibility and browsers do.
func resolve(base *url.URL, r reference) (target, Reason, string) {
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
	t.authority, t.hasAuth, t.fromBase = base.Host, base.Host != "", true
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

// appendTo appends the canonical text of t; a non-empty detail says why its
// authority is invalid. prefix, if not empty, is the canonical scheme and
// authority of the base, for a t that takes them from it.
func (t *target) appendTo(b []byte, prefix string) ([]byte, string) {
	if t.fromBase && prefix != "" {
		b = append(b, prefix...)
	} else {
		b = append(b, schemeNames[t.scheme]...)
		b = append(b, "://"...)
		if !t.hasAuth {
			return b, "missing host"
		}
		var detail string
		if b, detail = appendAuthority(b, t.authority, defaultPorts[t.scheme]); detail != "" {
			return b, detail
		}
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
