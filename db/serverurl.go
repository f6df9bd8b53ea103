package db

import (
	"net"
	"net/url"
	"os"
	"strings"
)

// ServerAccount names the keychain entry of a PostgreSQL URL's password:
// host is "postgres://HOST:PORT" (port 5432 unless given), user the URL's
// user. ok is false for a URL that names no user, already carries a
// password, or is not a server URL: then there is nothing to recall.
func ServerAccount(rawURL string) (host, user string, ok bool) {
	if !IsServerURL(rawURL) {
		return "", "", false
	}
	u, err := url.Parse(rawURL)
	if err != nil || u.User == nil || u.User.Username() == "" {
		return "", "", false
	}
	if _, has := u.User.Password(); has {
		return "", "", false
	}
	h, port := u.Hostname(), u.Port()
	if h == "" {
		h = "localhost"
	}
	if port == "" {
		port = "5432"
	}
	return "postgres://" + strings.ToLower(net.JoinHostPort(h, port)), u.User.Username(), true
}

// WithPassword returns the URL with password set (escaped as URLs need).
func WithPassword(rawURL, password string) string {
	u, err := url.Parse(rawURL)
	if err != nil || u.User == nil || password == "" {
		return rawURL
	}
	u.User = url.UserPassword(u.User.Username(), password)
	return u.String()
}

// NeedsPassword reports whether a server URL should get its password from
// the keychain: it names a user, has no password, and PGPASSWORD is not
// set (the driver reads that, and ~/.pgpass, itself).
func NeedsPassword(rawURL string) bool {
	_, _, ok := ServerAccount(rawURL)
	return ok && os.Getenv("PGPASSWORD") == ""
}
