package cli

func init() {
	register("window", "open the window on a database: a file, or postgres://… to watch and steer robots", runWindow)
}

const windowUsage = `Usage: trawler window [--db PATH|postgres://…]

Opens the window, as trawler without arguments does, on the database named
(the default one otherwise). A PostgreSQL URL without a password gets it
from the keychain (trawler password remember postgres://HOST:PORT USER),
PGPASSWORD or ~/.pgpass.`

func runWindow(args []string, s IO) int {
	fs := newFlagSet("window", s, windowUsage)
	dbPath := dbFlag(fs)
	if code, done := parseFlags(fs, args); done {
		return code
	}
	if fs.NArg() > 0 {
		return fail(s, "window", usagef("unexpected argument %q", fs.Arg(0)))
	}
	if OpenWindow == nil {
		return fail(s, "window", usagef("this trawler has no window (a headless build, -tags nogui); run the window from a desktop build"))
	}
	return OpenWindow(*dbPath)
}
