package cli

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/secret"
)

// passwordFlags say where a crawl's passwords come from and whether they
// are kept in the keychain.
type passwordFlags struct {
	stdin, remember *bool
}

func addPasswordFlags(fs *flag.FlagSet) passwordFlags {
	return passwordFlags{
		stdin:    fs.Bool("password-stdin", false, "read the passwords the crawl needs from standard input, one a line, in the order of the --auth flags, then the proxy's; the keychain is not asked"),
		remember: fs.Bool("remember-password", false, `keep the crawl's passwords in the operating system's keychain (service "trawler"), so later crawls and "trawler resume" find them`),
	}
}

// fillPasswords gives c the passwords it lacks: read from standard input
// with --password-stdin; otherwise recalled from the keychain or, failing
// that, asked for on the terminal. With --remember-password they are then
// stored in the keychain. A failure to store is a warning, not an error.
func fillPasswords(s IO, cmd string, c *crawl.Config, pf passwordFlags) error {
	var lines *bufio.Reader
	if *pf.stdin {
		lines = bufio.NewReader(s.In)
	}
	err := secret.Fill(c, func(n secret.Need) (string, error) {
		if lines != nil {
			return readLine(lines)
		}
		pw, err := secret.Recall(n.Host, n.User)
		if err == nil {
			return pw, nil
		}
		if pw, terr := askTerminal(s, n); terr != errNoTerminal {
			return pw, terr
		}
		if errors.Is(err, secret.ErrNotFound) {
			return "", errors.New("not in the keychain, and no terminal to ask on: type it on a terminal, or pipe it with --password-stdin")
		}
		return "", fmt.Errorf("%w; and no terminal to ask on: pipe it with --password-stdin", err)
	})
	if err != nil {
		return usagef("%v", err)
	}
	if *pf.remember {
		if err := secret.RememberAll(*c); err != nil {
			fmt.Fprintf(s.Err, "trawler %s: warning: %v\n", cmd, err)
		}
	}
	return nil
}

// readLine reads one password line, without its line ending.
func readLine(r *bufio.Reader) (string, error) {
	line, err := r.ReadString('\n')
	if err == io.EOF && line == "" {
		return "", errors.New("standard input ended before this password")
	}
	if err != nil && err != io.EOF {
		return "", fmt.Errorf("read standard input: %w", err)
	}
	return strings.TrimRight(line, "\r\n"), nil
}

var errNoTerminal = errors.New("standard input is not a terminal to ask on: pipe the password with --password-stdin")

// askTerminal asks for a password on the terminal without echoing it, or
// returns errNoTerminal.
func askTerminal(s IO, n secret.Need) (string, error) {
	f, ok := s.In.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return "", errNoTerminal
	}
	fmt.Fprintf(s.Err, "%s: ", n)
	b, err := term.ReadPassword(int(f.Fd()))
	fmt.Fprintln(s.Err)
	if err != nil {
		return "", fmt.Errorf("read the password: %w", err)
	}
	return string(b), nil
}
