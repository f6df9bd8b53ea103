package urlnorm

import "strings"

// canonical reports whether s, a cleaned absolute URL, is already in the
// canonical form normalization gives, so that it is its own result. It
// is conservative: it accepts only what it can check in one pass and
// says no to the rest (IPv4 and IPv6 hosts, "xn--" labels, a trailing dot,
// dot segments, anything escaped in the host), which then takes the full
// normalization.
func canonical(s string) bool {
	var def uint16
	switch {
	case strings.HasPrefix(s, "http://"):
		s, def = s[len("http://"):], 80
	case strings.HasPrefix(s, "https://"):
		s, def = s[len("https://"):], 443
	case strings.HasPrefix(s, "ftp://"):
		s, def = s[len("ftp://"):], 21
	default:
		return false
	}
	end := 0
	for end < len(s) && s[end] != '/' && s[end] != ':' {
		end++
	}
	if !canonicalHost(s[:end]) {
		return false
	}
	s = s[end:]
	if len(s) > 0 && s[0] == ':' {
		end = 1
		for end < len(s) && s[end] != '/' {
			end++
		}
		if !canonicalPort(s[1:end], def) {
			return false
		}
		s = s[end:]
	}
	return len(s) > 0 && s[0] == '/' && canonicalPathQuery(s)
}

// canonicalHost reports whether host is a lower-case DNS name that
// appendHostname copies unchanged: labels of 1 to 63 of a-z 0-9 - _, at
// most 253 bytes, no "xn--" label (Punycode must be checked) and a top
// label that is not all digits (it would have to be an IPv4 address).
func canonicalHost(host string) bool {
	if host == "" || len(host) > maxHostname {
		return false
	}
	start, digits := 0, true
	for i := 0; i <= len(host); i++ {
		if i < len(host) && host[i] != '.' {
			c := host[i]
			if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
				return false
			}
			digits = digits && isDigit(c)
			continue
		}
		if n := i - start; n == 0 || n > maxLabel || strings.HasPrefix(host[start:i], "xn--") {
			return false
		}
		if i < len(host) {
			start, digits = i+1, true
		}
	}
	return !digits
}

// canonicalPort reports whether port is how appendPort writes a port that
// is not the scheme's default: 1 to 65535 without leading zeros.
func canonicalPort(port string, def uint16) bool {
	if port == "" || len(port) > 5 || port[0] == '0' {
		return false
	}
	n := 0
	for i := 0; i < len(port); i++ {
		if !isDigit(port[i]) {
			return false
		}
		n = n*10 + int(port[i]-'0')
	}
	return n <= 65535 && n != int(def)
}

// canonicalPathQuery reports whether s, a path starting with '/' and an
// optional query, is as appendTo writes it: no dot segments (nor any "/."
// at all), no fragment, a query only if it is not empty, and in each part
// only bytes of its class and escapes that stay as they are.
func canonicalPathQuery(s string) bool {
	path, query, hasQuery := strings.Cut(s, "?")
	if strings.Contains(path, "/.") || hasQuery && query == "" {
		return false
	}
	return canonicalEscaped(path, clsPath) && canonicalEscaped(query, clsQuery)
}

// canonicalEscaped reports whether appendEscaped(s, cls) would be s: every
// byte of the class, or in an escape of upper-case hex of a byte that is
// not unreserved.
func canonicalEscaped(s string, cls uint8) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if classes[c]&cls != 0 {
			continue
		}
		if c != '%' || i+2 >= len(s) || !isUpperHex(s[i+1]) || !isUpperHex(s[i+2]) {
			return false
		}
		if classes[unhex(s[i+1])<<4|unhex(s[i+2])]&clsUnreserved != 0 {
			return false
		}
		i += 2
	}
	return true
}

func isUpperHex(c byte) bool { return isDigit(c) || 'A' <= c && c <= 'F' }
