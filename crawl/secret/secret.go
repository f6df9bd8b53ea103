// Package secret keeps Trawler's passwords (per-host basic auth, proxy) out
// of everything it writes: settings in the database, profiles, exports and
// logs hold user names only. When the user asks to remember a password it
// goes to the operating system's keychain (Secret Service over D-Bus on
// Linux, Keychain on macOS, Credential Manager on Windows) through
// github.com/zalando/go-keyring, under the service name "trawler" and the
// account "user@host"; a crawl that lacks one recalls it from there or asks.
//
// The crawl package does not import this one: the cli and gui fill a
// Config's passwords with Fill before handing it to the engine, and strip
// them with Strip before storing or exporting it.
package secret

import (
	"errors"
	"fmt"
	"strings"

	"github.com/zalando/go-keyring"
)

// Service is the keychain service name Trawler's passwords are filed under.
const Service = "trawler"

// service is Service except in tests, which use their own name so that
// they never touch a user's real entries.
var service = Service

// ErrNotFound means the keychain holds no password for that host and user.
var ErrNotFound = errors.New("no password remembered")

// account names one password in the keychain. Host names are not case
// sensitive; user names are.
func account(host, user string) string {
	return user + "@" + strings.ToLower(host)
}

// Remember stores password for user at host in the keychain, replacing any
// earlier one.
func Remember(host, user, password string) error {
	if host == "" || user == "" {
		return fmt.Errorf("remember password: need a host and a user")
	}
	if err := keyring.Set(service, account(host, user), password); err != nil {
		return fmt.Errorf("remember password for %s in the keychain: %w", account(host, user), err)
	}
	return nil
}

// Recall returns the password remembered for user at host; the error wraps
// ErrNotFound when there is none, or says why the keychain could not be read.
func Recall(host, user string) (string, error) {
	pw, err := keyring.Get(service, account(host, user))
	if errors.Is(err, keyring.ErrNotFound) {
		return "", fmt.Errorf("recall password for %s: %w", account(host, user), ErrNotFound)
	}
	if err != nil {
		return "", fmt.Errorf("recall password for %s from the keychain: %w", account(host, user), err)
	}
	return pw, nil
}

// Forget removes the password remembered for user at host. Forgetting one
// that is not there is not an error.
func Forget(host, user string) error {
	err := keyring.Delete(service, account(host, user))
	if err != nil && !errors.Is(err, keyring.ErrNotFound) {
		return fmt.Errorf("forget password for %s in the keychain: %w", account(host, user), err)
	}
	return nil
}
