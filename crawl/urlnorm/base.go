package urlnorm

import "net/url"

// Base is a page's base URL made ready to resolve the page's links: the
// canonical form of its scheme and authority is worked out once, not for
// every link, and a link that is a path from the root already in canonical
// form is joined to it without further work. Its Resolve gives exactly
// what Options.Resolve gives for the same base and ref.
type Base struct {
	opts   Options
	url    *url.URL
	prefix string // "scheme://authority" of url in canonical form; "" when links take the general way
}

// Base returns base (the page URL, or its <base href> already resolved)
// ready to resolve links against. base must not be changed while the Base
// is in use.
func (o Options) Base(base *url.URL) Base {
	b := Base{opts: o, url: base}
	if base == nil || base.Host == "" {
		return b
	}
	sc := schemeOf(base.Scheme)
	if sc == schemeNone {
		return b
	}
	var stack [256]byte
	p := append(append(stack[:0], schemeNames[sc]...), "://"...)
	if p, detail := appendAuthority(p, base.Host, defaultPorts[sc]); detail == "" {
		b.prefix = string(p)
	}
	return b
}

// Resolve is Options.Resolve(base, ref) for the Base's base and options.
func (b Base) Resolve(ref string) (string, error) {
	if b.prefix != "" {
		if s := clean(ref); len(s) > 0 && s[0] == '/' && (len(s) == 1 || s[1] != '/') &&
			len(b.prefix)+len(s) <= b.opts.limit() && canonicalPathQuery(s) {
			return b.prefix + s, nil
		}
	}
	return b.opts.resolve(b.url, b.prefix, ref)
}
