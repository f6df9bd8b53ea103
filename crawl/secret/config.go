package secret

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/trawler/trawler/crawl"
)

// Need is one password a Config lacks: for an auth entry, or for the proxy.
// Host and User are what the keychain files it under.
type Need struct {
	Host  string // a HostAuth's host, or ProxyHost of the proxy
	User  string
	Proxy bool // the proxy's password, not a site's
}

// String names the need for a prompt: "password for me@intranet:8080".
func (n Need) String() string {
	if n.Proxy {
		return "proxy password for " + n.User + "@" + strings.TrimPrefix(n.Host, proxyPrefix)
	}
	return "password for " + n.User + "@" + n.Host
}

const proxyPrefix = "proxy/"

// ProxyHost is the keychain host of a proxy URL's password: "proxy/" and
// the proxy's host:port, so it never collides with a site's entry.
func ProxyHost(proxy string) string {
	u, err := url.Parse(proxy)
	if err != nil {
		return proxyPrefix + proxy
	}
	return proxyPrefix + strings.ToLower(u.Host)
}

// SplitProxy takes the password out of a proxy URL. clean keeps the scheme,
// user name and host, so a stored crawl still knows whose password to ask
// for; user and pass are the credentials, empty when absent.
func SplitProxy(proxy string) (clean, user, pass string) {
	u, err := url.Parse(proxy)
	if err != nil {
		// Not a URL: drop anything that could be credentials.
		if i := strings.LastIndex(proxy, "@"); i >= 0 {
			scheme, _, found := strings.Cut(proxy, "://")
			if found {
				return scheme + "://" + proxy[i+1:], "", ""
			}
			return proxy[i+1:], "", ""
		}
		return proxy, "", ""
	}
	if u.User == nil {
		return proxy, "", ""
	}
	user = u.User.Username()
	pass, _ = u.User.Password()
	u.User = url.User(user)
	if user == "" {
		u.User = nil
	}
	return u.String(), user, pass
}

// JoinProxy puts a password back into a proxy URL that names its user.
func JoinProxy(clean, pass string) string {
	u, err := url.Parse(clean)
	if err != nil || u.User == nil {
		return clean
	}
	u.User = url.UserPassword(u.User.Username(), pass)
	return u.String()
}

// Strip returns c with every password removed, for the database, profiles
// and exports. c itself is not changed.
func Strip(c crawl.Config) crawl.Config {
	if len(c.Auth) > 0 {
		auth := make([]crawl.HostAuth, len(c.Auth))
		for i, a := range c.Auth {
			auth[i] = crawl.HostAuth{Host: a.Host, User: a.User}
		}
		c.Auth = auth
	}
	c.Proxy, _, _ = SplitProxy(c.Proxy)
	return c
}

// Passwords lists the non-empty passwords in c, so a log writer can make
// sure none of them ever reaches the file.
func Passwords(c crawl.Config) []string {
	var list []string
	for _, a := range c.Auth {
		if a.Password != "" {
			list = append(list, a.Password)
		}
	}
	if _, _, pw := SplitProxy(c.Proxy); pw != "" {
		list = append(list, pw)
	}
	return list
}

// Needs lists the passwords c lacks: auth entries without one, and a proxy
// URL that names a user but carries no password. A password set to the
// empty string in a proxy URL ("user:@host") counts as given.
func Needs(c crawl.Config) []Need {
	var list []Need
	seen := map[Need]bool{}
	for _, a := range c.Auth {
		n := Need{Host: a.Host, User: a.User}
		if a.Password == "" && !seen[n] {
			seen[n] = true
			list = append(list, n)
		}
	}
	if u, err := url.Parse(c.Proxy); err == nil && u.User != nil && u.User.Username() != "" {
		if _, set := u.User.Password(); !set {
			list = append(list, Need{Host: ProxyHost(c.Proxy), User: u.User.Username(), Proxy: true})
		}
	}
	return list
}

// Fill gives c every password it lacks, in the order of Needs, from get:
// typically the keychain first, then a prompt.
func Fill(c *crawl.Config, get func(Need) (string, error)) error {
	needs := Needs(*c)
	if len(needs) == 0 {
		return nil
	}
	auth := append([]crawl.HostAuth(nil), c.Auth...)
	for _, n := range needs {
		pw, err := get(n)
		if err != nil {
			return fmt.Errorf("%s: %w", n, err)
		}
		if n.Proxy {
			c.Proxy = JoinProxy(c.Proxy, pw)
			continue
		}
		for i := range auth {
			if auth[i].Host == n.Host && auth[i].User == n.User && auth[i].Password == "" {
				auth[i].Password = pw
			}
		}
	}
	c.Auth = auth
	return nil
}

// RememberAll stores every password c carries in the keychain.
func RememberAll(c crawl.Config) error {
	for _, a := range c.Auth {
		if a.Password != "" {
			if err := Remember(a.Host, a.User, a.Password); err != nil {
				return err
			}
		}
	}
	if clean, user, pw := SplitProxy(c.Proxy); user != "" && pw != "" {
		return Remember(ProxyHost(clean), user, pw)
	}
	return nil
}
