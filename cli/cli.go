// Package cli is Trawler's command-line face: each subcommand is a small
// function over the crawl engine and the store. main.go hands it the
// arguments; it returns the process exit code.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/trawler/trawler/crawl"
)

// Exit codes, documented in `trawler help`.
const (
	ExitOK          = 0   // the command did what was asked
	ExitFailure     = 1   // a runtime failure (network, unexpected error)
	ExitUsage       = 2   // bad usage or bad input
	ExitStorage     = 3   // the database could not be opened, read or written
	ExitInterrupted = 130 // stopped by Ctrl-C or SIGTERM
)

// Version is Trawler's version, shown by `trawler version`.
var Version = crawl.Version

// IO is where a command reads and writes; tests pass buffers.
type IO struct {
	In  io.Reader
	Out io.Writer
	Err io.Writer
}

// Std returns the process's standard streams.
func Std() IO { return IO{In: os.Stdin, Out: os.Stdout, Err: os.Stderr} }

// command is one subcommand: its one-line summary and its entry point.
type command struct {
	summary string
	run     func(args []string, s IO) int
}

// commands is filled by each subcommand's file in its init function, so
// adding a mode touches only its own file.
var commands = map[string]command{}

func register(name, summary string, run func([]string, IO) int) {
	commands[name] = command{summary: summary, run: run}
}

// OpenWindow is set by main when the binary includes the GUI: it opens the
// window on the database at path (the default one when empty). With it
// nil, running trawler without arguments prints the help.
var OpenWindow func(path string) int

// Main runs the subcommand named by args[0] and returns the exit code.
func Main(args []string, s IO) int {
	if len(args) == 0 {
		if OpenWindow != nil {
			return OpenWindow("")
		}
		fmt.Fprintln(s.Err, "This trawler has no window (a headless build, -tags nogui): it runs the commands below.")
		printHelp(s.Out)
		return ExitOK
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
			if c, ok := commands[args[1]]; ok {
				return c.run([]string{"--help"}, s)
			}
		}
		printHelp(s.Out)
		return ExitOK
	case "version", "--version":
		fmt.Fprintln(s.Out, versionText())
		return ExitOK
	}
	c, ok := commands[name]
	if !ok {
		fmt.Fprintf(s.Err, "trawler: unknown command %q; run `trawler help` for the list\n", name)
		return ExitUsage
	}
	stop, err := startProfiles(os.Getenv("TRAWLER_CPU_PROFILE"), os.Getenv("TRAWLER_MEM_PROFILE"))
	if err != nil {
		return fail(s, name, err)
	}
	defer stop()
	defer watchMemory(os.Getenv(peakProfileEnv))()
	return c.run(args[1:], s)
}

func printHelp(w io.Writer) {
	fmt.Fprintf(w, "Trawler %s — a web crawler.\n\nUsage:\n  trawler                 open the window\n  trawler COMMAND [flags]\n\nCommands:\n", Version)
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-12s %s\n", n, commands[n].summary)
	}
	fmt.Fprint(w, `  help         show this help, or "help COMMAND" for a command's flags

Exit codes:
  0    done
  1    runtime failure
  2    bad usage or input
  3    storage problem (database cannot be opened, read or written)
  130  interrupted (Ctrl-C); the crawl can be resumed
`)
}

// usageError marks an error as the user's input, so it maps to ExitUsage.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return &usageError{fmt.Sprintf(format, a...)} }

// fail prints err as one line and returns the matching exit code.
func fail(s IO, cmd string, err error) int {
	msg := strings.TrimSpace(err.Error())
	fmt.Fprintf(s.Err, "trawler %s: %s\n", cmd, msg)
	var ue *usageError
	if errors.As(err, &ue) {
		return ExitUsage
	}
	var se *storageError
	if errors.As(err, &se) {
		return ExitStorage
	}
	return ExitFailure
}

// storageError marks an error as a database problem, so it maps to ExitStorage.
type storageError struct{ err error }

func (e *storageError) Error() string { return e.err.Error() }
func (e *storageError) Unwrap() error { return e.err }
