package fetch

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Defaults taken by zero Config fields.
const (
	DefaultConnectTimeout = 10 * time.Second
	DefaultTimeout        = 30 * time.Second
	DefaultMaxRedirects   = 20
	DefaultMaxSize        = 10 << 20 // 10 MiB
	// DefaultIdleConnsPerHost is Config.IdleConnsPerHost's default.
	DefaultIdleConnsPerHost = 8
	DefaultDNSCacheTTL      = 5 * time.Minute
)

// NoRedirects, as Config.MaxRedirects, makes Fetch return a redirect response
// as it is (status 3xx, Location in Header) instead of following it, so the
// caller can treat the target as a new URL of its own.
const NoRedirects = -1

// DefaultContentTypes are the media types whose bodies are read when
// Config.ContentTypes is empty: the ones the parser understands.
var DefaultContentTypes = []string{"text/html", "application/xhtml+xml", "text/plain"}

// Config holds a Fetcher's settings. Zero fields take the documented defaults;
// New rejects values out of range.
type Config struct {
	// ConnectTimeout bounds dialling: DNS, TCP connect, SOCKS and TLS
	// handshakes. 0 = 10s.
	ConnectTimeout time.Duration
	// Timeout bounds the whole Fetch: every redirect hop and the body. 0 = 30s.
	Timeout time.Duration
	// MaxRedirects is how many redirects are followed; one more is a
	// KindTooManyRedirects error. 0 = 20; NoRedirects follows none.
	MaxRedirects int
	// UserAgent is sent on every request; required.
	UserAgent string
	// MaxSize caps a body after decompression, in bytes. 0 = 10 MiB.
	MaxSize int64
	// Proxy for HTTP and HTTPS: "" (direct), http://host:port,
	// https://host:port or socks5://[user:pass@]host:port. FTP always
	// connects directly.
	Proxy string
	// Auth holds credentials per "hostname:port", the default port written
	// out ("a.com:80", "a.com:443", "a.com:21"): HTTP basic auth, or the FTP
	// login instead of anonymous.
	Auth map[string]Credentials
	// ContentTypes are the media types whose bodies are read; responses of
	// other types give headers only. Empty = DefaultContentTypes.
	ContentTypes []string
	// Resolver looks up host names; nil = net.DefaultResolver.
	Resolver Resolver
	// DNSCacheTTL is how long a successful lookup is reused (failures at
	// most 10s). 0 = 5 minutes.
	DNSCacheTTL time.Duration
	// IdleConnsPerHost is how many open connections to one host are kept
	// for reuse between requests. A crawler with more requests at once to a
	// host than this closes the extra connections after each answer and
	// dials again, which costs both sides a TCP handshake per page: set it
	// to the most requests one host sees at once. 0 = 8.
	IdleConnsPerHost int
	// Header holds extra request headers for every host, such as
	// If-None-Match or Accept-Language. It may replace Accept, not
	// User-Agent or Accept-Encoding. Not for credentials: use Auth.
	Header http.Header
}

// Credentials are a user name and password for HTTP basic auth or FTP login.
type Credentials struct{ User, Password string }

// Resolver looks up the addresses of a host name. *net.Resolver satisfies it;
// tests and special setups supply their own.
type Resolver interface {
	LookupIPAddr(ctx context.Context, host string) ([]net.IPAddr, error)
}

// normalize validates c and returns it with defaults filled in, Auth keys
// lower-cased and ContentTypes as a set.
func (c Config) normalize() (Config, map[string]bool, error) {
	if strings.TrimSpace(c.UserAgent) == "" || strings.ContainsAny(c.UserAgent, "\r\n") {
		return c, nil, errors.New("fetch config: user agent is required and must be one line")
	}
	if c.ConnectTimeout < 0 || c.Timeout < 0 || c.DNSCacheTTL < 0 {
		return c, nil, errors.New("fetch config: timeouts and TTL must not be negative")
	}
	if c.MaxRedirects < NoRedirects {
		return c, nil, fmt.Errorf("fetch config: max redirects %d: want -1 (none), 0 (default) or more", c.MaxRedirects)
	}
	if c.MaxSize < 0 {
		return c, nil, fmt.Errorf("fetch config: max size %d is negative", c.MaxSize)
	}
	if c.IdleConnsPerHost < 0 {
		return c, nil, fmt.Errorf("fetch config: idle connections per host %d is negative", c.IdleConnsPerHost)
	}
	c.ConnectTimeout = orDefault(c.ConnectTimeout, DefaultConnectTimeout)
	c.Timeout = orDefault(c.Timeout, DefaultTimeout)
	c.DNSCacheTTL = orDefault(c.DNSCacheTTL, DefaultDNSCacheTTL)
	if c.MaxRedirects == 0 {
		c.MaxRedirects = DefaultMaxRedirects
	}
	if c.MaxSize == 0 {
		c.MaxSize = DefaultMaxSize
	}
	if c.IdleConnsPerHost == 0 {
		c.IdleConnsPerHost = DefaultIdleConnsPerHost
	}
	if c.Resolver == nil {
		c.Resolver = net.DefaultResolver
	}
	if _, err := parseProxy(c.Proxy); err != nil {
		return c, nil, err
	}
	auth, err := normalizeAuth(c.Auth)
	if err != nil {
		return c, nil, err
	}
	c.Auth = auth
	types, err := typeSet(c.ContentTypes)
	if err != nil {
		return c, nil, err
	}
	c.Header = c.Header.Clone()
	return c, types, nil
}

func orDefault(d, def time.Duration) time.Duration {
	if d == 0 {
		return def
	}
	return d
}

// parseProxy checks a proxy setting; it returns nil for "".
func parseProxy(s string) (*url.URL, error) {
	if s == "" {
		return nil, nil
	}
	u, err := url.Parse(s)
	if err != nil {
		return nil, fmt.Errorf("fetch config: proxy %q: %w", s, err)
	}
	switch u.Scheme {
	case "http", "https", "socks5", "socks5h":
	default:
		return nil, fmt.Errorf("fetch config: proxy %q: scheme must be http, https or socks5", s)
	}
	if u.Hostname() == "" {
		return nil, fmt.Errorf("fetch config: proxy %q has no host", s)
	}
	return u, nil
}

func normalizeAuth(in map[string]Credentials) (map[string]Credentials, error) {
	if len(in) == 0 {
		return nil, nil
	}
	out := make(map[string]Credentials, len(in))
	for k, v := range in {
		host, port, err := net.SplitHostPort(k)
		if err != nil || host == "" {
			return nil, fmt.Errorf("fetch config: auth key %q: want hostname:port", k)
		}
		if n, err := strconv.Atoi(port); err != nil || n <= 0 || n > 65535 {
			return nil, fmt.Errorf("fetch config: auth key %q: bad port", k)
		}
		out[net.JoinHostPort(strings.ToLower(host), port)] = v
	}
	return out, nil
}

func typeSet(list []string) (map[string]bool, error) {
	if len(list) == 0 {
		list = DefaultContentTypes
	}
	set := make(map[string]bool, len(list))
	for _, t := range list {
		mt, _, err := mime.ParseMediaType(t)
		if err != nil || !strings.Contains(mt, "/") {
			return nil, fmt.Errorf("fetch config: content type %q is not a media type", t)
		}
		set[mt] = true
	}
	return set, nil
}

// hostKey is the Auth key of a URL: lower-case hostname and port, with the
// scheme's default port made explicit.
func hostKey(u *url.URL) string {
	port := u.Port()
	if port == "" {
		switch u.Scheme {
		case "https":
			port = "443"
		case "ftp":
			port = "21"
		default:
			port = "80"
		}
	}
	return net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}

// AnyType in Config.ContentTypes accepts every media type, for fetching
// robots.txt files and sitemaps whatever they are served as.
const AnyType = "*/*"

// accepts reports whether bodies of media type ct are read.
func (f *Fetcher) accepts(ct string) bool { return f.types[ct] || f.types[AnyType] }
