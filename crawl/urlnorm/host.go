package urlnorm

import (
	"bytes"
	"net/netip"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// idnaProfile maps and validates host names like browsers do (UTS #46,
// non-transitional), but without the STD3 and hyphen rules, which would
// refuse real hosts such as "my_host.example.com" or "r3---sn-x.example".
// The ASCII result is checked by appendHostname afterwards.
var idnaProfile = idna.New(
	idna.MapForLookup(),
	idna.BidiRule(),
	idna.Transitional(false),
	idna.StrictDomainName(false),
	idna.CheckHyphens(false),
)

const (
	maxLabel    = 63
	maxHostname = 253
)

// appendAuthority appends the host and, unless it is the scheme's default,
// the port. Userinfo is dropped. On failure it returns a non-empty detail.
func appendAuthority(b []byte, auth string, defPort uint16) ([]byte, string) {
	if i := strings.LastIndexByte(auth, '@'); i >= 0 {
		auth = auth[i+1:]
	}
	host, port := auth, ""
	if strings.HasPrefix(auth, "[") {
		i := strings.IndexByte(auth, ']')
		if i < 0 {
			return b, "unclosed IPv6 literal"
		}
		host, port = auth[:i+1], auth[i+1:]
		if port != "" && port[0] != ':' {
			return b, "text after IPv6 literal"
		}
	} else if i := strings.IndexByte(auth, ':'); i >= 0 {
		host, port = auth[:i], auth[i:]
	}
	b, detail := appendHostname(b, host)
	if detail != "" {
		return b, detail
	}
	if port == "" || port == ":" {
		return b, ""
	}
	return appendPort(b, port[1:], defPort)
}

func appendPort(b []byte, port string, defPort uint16) ([]byte, string) {
	n := 0
	for i := 0; i < len(port); i++ {
		if !isDigit(port[i]) {
			return b, "non-numeric port"
		}
		n = n*10 + int(port[i]-'0')
		if n > 65535 {
			return b, "port out of range"
		}
	}
	switch {
	case n == 0:
		return b, "port out of range"
	case n == int(defPort):
		return b, ""
	}
	b = append(b, ':')
	return strconv.AppendInt(b, int64(n), 10), ""
}

// appendHostname appends host lower-cased and in ASCII (IDNA), after
// checking that it can name a machine: an IPv6 literal, a dotted-quad IPv4
// address, or a DNS name of letters, digits, '-' and '_'.
func appendHostname(b []byte, host string) ([]byte, string) {
	if host == "" {
		return b, "empty host"
	}
	if host[0] == '[' {
		if len(host) < 2 || host[len(host)-1] != ']' {
			return b, "invalid IPv6 literal"
		}
		return appendIPv6(b, host[1:len(host)-1])
	}
	if strings.IndexByte(host, '%') >= 0 {
		decoded, ok := percentDecode(host)
		if !ok {
			return b, "invalid percent-encoding in host"
		}
		host = decoded
	}
	if needsIDNA(host) {
		ascii, detail := toASCII(host)
		if detail != "" {
			return b, detail
		}
		host = ascii
	}
	h0 := len(b)
	for i := 0; i < len(host); i++ {
		c := host[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		} else if !isAlpha(c) && !isDigit(c) && c != '-' && c != '_' && c != '.' {
			return b, "invalid character in host"
		}
		b = append(b, c)
	}
	if detail := checkLabels(b[h0:]); detail != "" {
		return b, detail
	}
	return b, ""
}

// checkLabels refuses empty and over-long labels (a single trailing dot, the
// DNS root, is allowed) and a numeric top label that is not a valid IPv4
// address: no TLD is numeric, and odd forms like "0x7f.1" or "010.0.0.1"
// are aliases browsers resolve differently from each other.
func checkLabels(h []byte) string {
	name := bytes.TrimSuffix(h, []byte{'.'})
	if len(name) > maxHostname {
		return "host name too long"
	}
	start := 0
	for i := 0; i <= len(name); i++ {
		if i < len(name) && name[i] != '.' {
			continue
		}
		switch {
		case i == start:
			return "empty label in host"
		case i-start > maxLabel:
			return "host label too long"
		}
		start = i + 1
	}
	top := name[bytes.LastIndexByte(name, '.')+1:]
	for i := 0; i < len(top); i++ {
		if !isDigit(top[i]) {
			return ""
		}
	}
	if !isIPv4(h) {
		return "invalid IPv4 address"
	}
	return ""
}

// isIPv4 reports whether h is a dotted-decimal IPv4 address as
// netip.ParseAddr accepts one (four parts of 0–255, no leading zeros),
// without the string conversion that costs an allocation per link.
func isIPv4(h []byte) bool {
	parts, n, digits := 0, 0, 0
	for i := 0; i <= len(h); i++ {
		if i == len(h) || h[i] == '.' {
			if digits == 0 || parts == 4 {
				return false
			}
			parts, n, digits = parts+1, 0, 0
			continue
		}
		if !isDigit(h[i]) || (digits > 0 && n == 0) {
			return false
		}
		n, digits = n*10+int(h[i]-'0'), digits+1
		if n > 255 {
			return false
		}
	}
	return parts == 4
}

func appendIPv6(b []byte, lit string) ([]byte, string) {
	a, err := netip.ParseAddr(lit)
	switch {
	case err != nil || !a.Is6():
		return b, "invalid IPv6 address"
	case a.Zone() != "":
		return b, "IPv6 zone in host"
	}
	b = append(b, '[')
	b = a.AppendTo(b)
	return append(b, ']'), ""
}

// toASCII converts host with IDNA, and checks that the result converts to
// itself, so the host of a normalized URL stays as it is when normalized
// again.
func toASCII(host string) (string, string) {
	if !utf8.ValidString(host) {
		return "", "host is not UTF-8"
	}
	ascii, err := idnaProfile.ToASCII(host)
	if err != nil {
		return "", "IDNA: " + err.Error()
	}
	if ascii != host {
		if again, err := idnaProfile.ToASCII(ascii); err != nil || again != ascii {
			return "", "IDNA: result does not convert to itself"
		}
	}
	return ascii, ""
}

// needsIDNA reports whether host has non-ASCII bytes or an "xn--" label,
// whose Punycode must be checked.
func needsIDNA(host string) bool {
	for i := 0; i < len(host); i++ {
		if host[i] >= 0x80 {
			return true
		}
		if (i == 0 || host[i-1] == '.') && len(host)-i >= 4 &&
			host[i+2] == '-' && host[i+3] == '-' &&
			(host[i]|0x20) == 'x' && (host[i+1]|0x20) == 'n' {
			return true
		}
	}
	return false
}
