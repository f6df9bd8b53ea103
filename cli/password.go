package cli

import (
	"bufio"
	"fmt"
	"net/url"
	"strings"

	"github.com/trawler/trawler/crawl/secret"
	"github.com/trawler/trawler/db"
)

func init() {
	register("password", "remember or forget a password in the keychain", runPassword)
}

const passwordUsage = `Usage:
  trawler password remember [--proxy] [--password-stdin] HOST USER
  trawler password forget [--proxy] HOST USER

Keeps the password of USER at HOST (as given to --auth, e.g. intranet:8080)
in the operating system's keychain under the service "trawler", or removes
it. With --proxy, HOST is a proxy's host:port. A PostgreSQL server's HOST is
postgres://HOST:PORT (e.g. postgres://db.example:5432): --db URLs without a
password then get it from the keychain. remember asks for the password on
the terminal, or reads one line from standard input with --password-stdin.`

func runPassword(args []string, s IO) int {
	if len(args) == 0 || (args[0] != "remember" && args[0] != "forget") {
		if len(args) > 0 && (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
			fmt.Fprintln(s.Out, passwordUsage)
			return ExitOK
		}
		fmt.Fprintln(s.Err, passwordUsage)
		return ExitUsage
	}
	sub := args[0]
	fs := newFlagSet("password "+sub, s, passwordUsage)
	proxy := fs.Bool("proxy", false, "HOST is a proxy's host:port")
	var pf passwordFlags
	if sub == "remember" {
		pf = addPasswordFlags(fs)
	}
	if code, done := parseFlags(fs, args[1:]); done {
		return code
	}
	if fs.NArg() != 2 {
		return fail(s, "password", usagef("give HOST and USER"))
	}
	host, user := fs.Arg(0), fs.Arg(1)
	if *proxy {
		host = secret.ProxyHost("http://" + host)
	}
	if db.IsServerURL(host) { // postgres://db.example is postgres://db.example:5432
		if h, _, ok := db.ServerAccount(strings.Replace(host, "://", "://"+url.PathEscape(user)+"@", 1)); ok {
			host = h
		}
	}
	if sub == "forget" {
		if err := secret.Forget(host, user); err != nil {
			return fail(s, "password", err)
		}
		return ExitOK
	}
	need := secret.Need{Host: host, User: user, Proxy: *proxy}
	var pw string
	var err error
	if *pf.stdin {
		pw, err = readLine(bufio.NewReader(s.In))
	} else {
		pw, err = askTerminal(s, need)
	}
	if err != nil {
		return fail(s, "password", usagef("%s: %v", need, err))
	}
	if err := secret.Remember(host, user, pw); err != nil {
		return fail(s, "password", err)
	}
	return ExitOK
}
