package urlfilter

import (
	"strings"

	"github.com/trawler/trawler/crawl/urlnorm"
)

// Most URLs a gateway sees are already in urlnorm's canonical form, and
// urlnorm.Normalize costs about as much as two MD5 digests to find that
// out. canonical recognizes, in one pass, a subset of canonical URLs for
// which Normalize is certain to return its input unchanged; anything it is
// unsure of (IP literals, IDNA, escapes of unreserved bytes, dot segments,
// default ports, upper case, fragments…) goes to Normalize. A test checks
// canonical(s) ⇒ Normalize(s) == s on generated and fuzzed URLs.

// normalize is urlnorm.Normalize with the fast path in front.
func normalize(raw string) (string, bool) {
	if canonical(raw) {
		return raw, true
	}
	u, err := urlnorm.Normalize(raw)
	return u, err == nil
}

// Byte classes of canonical text.
const (
	cHost  = 1 << iota // a-z 0-9 - _
	cPath              // may stand literally in a canonical path
	cQuery             // … in a canonical query
	cUnres             // unreserved: an escape of it is not canonical
	cHex               // upper-case hex digit
	cPlain             // in a path, needs no closer look: cPath but '/'
)

var classTable = func() (t [256]uint8) {
	set := func(chars string, c uint8) {
		for i := 0; i < len(chars); i++ {
			t[chars[i]] |= c
		}
	}
	const lower, upper, digits = "abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "0123456789"
	set(lower+digits+"-_", cHost)
	set(lower+upper+digits+"-._~", cPath|cQuery|cUnres)
	set("!$&'()*+,;=:@/[]", cPath|cQuery)
	set("?", cQuery)
	set(digits+"ABCDEF", cHex)
	for c := range t {
		if t[c]&cPath != 0 && c != '/' {
			t[c] |= cPlain
		}
	}
	return t
}()

// canonical reports whether s is surely a canonical URL (see above).
func canonical(s string) bool {
	if len(s) > urlnorm.DefaultMaxLength {
		return false
	}
	var rest, defPort string
	switch {
	case strings.HasPrefix(s, "http://"):
		rest, defPort = s[7:], "80"
	case strings.HasPrefix(s, "https://"):
		rest, defPort = s[8:], "443"
	case strings.HasPrefix(s, "ftp://"):
		rest, defPort = s[6:], "21"
	default:
		return false
	}
	i := 0
	label := 0 // start of the current label
	digitsOnly := true
	for ; i < len(rest); i++ {
		c := rest[i]
		if c == '.' || c == ':' || c == '/' {
			if i == label || i-label > 63 || strings.HasPrefix(rest[label:i], "xn--") {
				return false
			}
			if c != '.' {
				break
			}
			label, digitsOnly = i+1, true
			continue
		}
		if classTable[c]&cHost == 0 {
			return false
		}
		if c < '0' || c > '9' {
			digitsOnly = false
		}
	}
	// A numeric top label must be checked as an IPv4 address: leave it to
	// urlnorm, like a host with no path after it.
	if i == len(rest) || i > 253 || digitsOnly {
		return false
	}
	if rest[i] == ':' {
		j := i + 1
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		port := rest[i+1 : j]
		if port == "" || port[0] == '0' || len(port) > 5 || len(port) == 5 && port > "65535" || port == defPort {
			return false
		}
		i = j
	}
	if i == len(rest) || rest[i] != '/' {
		return false
	}
	return canonicalTail(rest[i:])
}

// canonicalTail checks a path (from its first '/') and query. It skips
// runs of ordinary bytes in a tight loop and looks closer only at '/',
// '?', '%' and bytes that would need escaping.
func canonicalTail(t string) bool {
	i, seg := 1, 1 // t[0] is '/'; seg starts the current path segment
	for {
		for i < len(t) && classTable[t[i]]&cPlain != 0 {
			i++
		}
		if i == len(t) {
			return !dotSegment(t[seg:])
		}
		switch t[i] {
		case '/', '?':
			if dotSegment(t[seg:i]) {
				return false
			}
			if t[i] == '?' {
				return i < len(t)-1 && canonicalQuery(t[i+1:]) // an empty query is dropped
			}
			i++
			seg = i
		case '%':
			if !canonicalEscape(t, i) {
				return false
			}
			i += 3
		default:
			return false
		}
	}
}

func canonicalQuery(q string) bool {
	for i := 0; i < len(q); {
		if classTable[q[i]]&cQuery != 0 {
			i++
			continue
		}
		if q[i] != '%' || !canonicalEscape(q, i) {
			return false
		}
		i += 3
	}
	return true
}

// canonicalEscape reports whether s[i:] starts with an escape urlnorm
// keeps: upper-case hex, of a byte that is not unreserved.
func canonicalEscape(s string, i int) bool {
	return i+2 < len(s) && classTable[s[i+1]]&cHex != 0 && classTable[s[i+2]]&cHex != 0 &&
		classTable[unhex(s[i+1])<<4|unhex(s[i+2])]&cUnres == 0
}

func dotSegment(s string) bool { return s == "." || s == ".." }

func unhex(c byte) byte {
	if c <= '9' {
		return c - '0'
	}
	return c - 'A' + 10
}

// splitCanonical returns the host (without port, brackets or a final dot)
// and the escaped path of a canonical URL: what url.Parse's Hostname and
// EscapedPath give for it, without parsing it again.
func splitCanonical(u string) (host, path string) {
	i := strings.Index(u, "://")
	if i < 0 {
		return "", ""
	}
	rest := u[i+3:]
	auth := rest
	if j := strings.IndexByte(rest, '/'); j >= 0 {
		auth, path = rest[:j], rest[j:]
	}
	if j := strings.IndexByte(path, '?'); j >= 0 {
		path = path[:j]
	}
	if strings.HasPrefix(auth, "[") {
		if j := strings.IndexByte(auth, ']'); j >= 0 {
			return auth[1:j], path
		}
	}
	if j := strings.LastIndexByte(auth, ':'); j >= 0 {
		auth = auth[:j]
	}
	return strings.TrimSuffix(auth, "."), path
}
