package urlnorm

import "strings"

// scheme is one of the crawlable schemes; schemeNone marks any other.
type scheme uint8

const (
	schemeNone scheme = iota
	schemeHTTP
	schemeHTTPS
	schemeFTP
)

var schemeNames = [...]string{schemeHTTP: "http", schemeHTTPS: "https", schemeFTP: "ftp"}

var defaultPorts = [...]uint16{schemeHTTP: 80, schemeHTTPS: 443, schemeFTP: 21}

func schemeOf(s string) scheme {
	switch {
	case strings.EqualFold(s, "http"):
		return schemeHTTP
	case strings.EqualFold(s, "https"):
		return schemeHTTPS
	case strings.EqualFold(s, "ftp"):
		return schemeFTP
	}
	return schemeNone
}

// reference is a URI reference split as in RFC 3986 Appendix B, with the
// fragment dropped: a crawler never fetches fragments.
type reference struct {
	scheme       string
	authority    string
	path         string
	query        string
	hasScheme    bool
	hasAuthority bool
	hasQuery     bool
}

func split(s string) reference {
	var r reference
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ':' {
			if i > 0 {
				r.scheme, r.hasScheme, s = s[:i], true, s[i+1:]
			}
			break
		}
		if !isAlpha(c) && (i == 0 || !isDigit(c) && c != '+' && c != '-' && c != '.') {
			break
		}
	}
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s = s[:i]
	}
	if len(s) >= 2 && s[0] == '/' && s[1] == '/' {
		s = s[2:]
		i := strings.IndexAny(s, "/?")
		if i < 0 {
			i = len(s)
		}
		r.authority, r.hasAuthority, s = s[:i], true, s[i:]
	}
	if i := strings.IndexByte(s, '?'); i >= 0 {
		r.query, r.hasQuery, s = s[i+1:], true, s[:i]
	}
	r.path = s
	return r
}

// clean does to an href what browsers do before parsing it (WHATWG URL
// standard, basic URL parser): strip leading and trailing C0 controls and
// spaces, remove tabs and newlines anywhere, and read '\' as '/' before the
// query, as for the special schemes (the only ones we accept). It copies
// only when something inside must change.
func clean(s string) string {
	i, j := 0, len(s)
	for i < j && s[i] <= ' ' {
		i++
	}
	for j > i && s[j-1] <= ' ' {
		j--
	}
	s = s[i:j]
	if !needsCleaning(s) {
		return s
	}
	b := make([]byte, 0, len(s))
	hier := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\t', '\n', '\r':
			continue
		case '\\':
			if hier {
				c = '/'
			}
		case '?', '#':
			hier = false
		}
		b = append(b, c)
	}
	return string(b)
}

// cleanBytes marks the bytes needsCleaning must look at.
var cleanBytes = [256]bool{'\t': true, '\n': true, '\r': true, '\\': true, '?': true, '#': true}

func needsCleaning(s string) bool {
	for i := 0; i < len(s); i++ {
		if !cleanBytes[s[i]] {
			continue
		}
		switch s[i] {
		case '?', '#':
			return strings.ContainsAny(s[i:], "\t\n\r")
		}
		return true
	}
	return false
}

func isAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }
