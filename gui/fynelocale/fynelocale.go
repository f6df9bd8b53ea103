// Package fynelocale gives Fyne a language it can read before Fyne reads the
// environment. Import it for its side effect, from package main:
//
//	import _ "github.com/trawler/trawler/gui/fynelocale"
//
// Fyne's lang package, while it initialises, takes the user's language from
// LC_ALL, LC_MESSAGES or LANG. Under C.UTF-8 (the default of containers and
// CI) it reads the language "C", cannot parse it, and prints three lines of
// "Fyne error: Error parsing user locale C" on standard error for every
// command. The C and POSIX locales mean "no preference", and Trawler's text
// is English, so when the locale is C-like and LANGUAGE is unset this
// package sets LANGUAGE=en, which Fyne reads first. GNU gettext ignores
// LANGUAGE under the C locale, so programs Trawler starts see no change.
//
// The package imports only syscall: Go initialises packages whose imports
// are ready in import-path order, and "github.com/trawler/…" sorts before
// "os", which Fyne's lang package depends on, so this init runs first.
package fynelocale

import "syscall"

func init() {
	if _, set := syscall.Getenv("LANGUAGE"); set {
		return
	}
	if cLike(effective()) {
		_ = syscall.Setenv("LANGUAGE", "en")
	}
}

// effective is the locale that names the language of messages: the first
// of LC_ALL, LC_MESSAGES and LANG that is set and not empty.
func effective() string {
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v, _ := syscall.Getenv(k); v != "" {
			return v
		}
	}
	return ""
}

// cLike reports whether a locale is C or POSIX, with or without a
// codeset or modifier (C.UTF-8, POSIX@euro).
func cLike(loc string) bool {
	for i := 0; i < len(loc); i++ {
		if loc[i] == '.' || loc[i] == '@' {
			loc = loc[:i]
			break
		}
	}
	return loc == "C" || loc == "POSIX"
}
