package cli

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/trawler/trawler/crawl/rabin"
)

func init() {
	register("fingerprint", "print Rabin fingerprints of arguments or of standard input lines", runFingerprint)
}

func runFingerprint(args []string, s IO) int {
	fs := newFlagSet("fingerprint", s, `Usage: trawler fingerprint [--poly] [STRING...]

Prints each STRING's 64-bit Rabin fingerprint as 16 lower-case hex digits, a tab
and the string. With no STRING, reads standard input and prints one fingerprint
per line (the line without its newline), in order, without echoing the line.`)
	poly := fs.Bool("poly", false, "print the irreducible polynomial P(t) (its 64 low coefficients) and exit")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	w := bufio.NewWriterSize(s.Out, 64<<10)
	defer w.Flush()
	if *poly {
		fmt.Fprintln(w, rabin.Hex(rabin.Poly))
		return ExitOK
	}
	if fs.NArg() > 0 {
		for _, a := range fs.Args() {
			fmt.Fprintf(w, "%s\t%s\n", rabin.Hex(rabin.FingerprintString(a)), a)
		}
		return ExitOK
	}
	if err := fingerprintLines(s.In, w); err != nil {
		w.Flush()
		return fail(s, "fingerprint", fmt.Errorf("read standard input: %w", err))
	}
	return ExitOK
}

// fingerprintLines writes one fingerprint per input line. Lines may be of
// any length; a final line without a newline still counts. The line is
// exactly what lies before "\n", so a "\r" of Windows line ends is part of it.
func fingerprintLines(r io.Reader, w *bufio.Writer) error {
	br := bufio.NewReaderSize(r, 256<<10)
	h := rabin.New()
	var out [17]byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(chunk) > 0 {
			line := chunk
			if line[len(line)-1] == '\n' {
				line = line[:len(line)-1]
			}
			h.Write(line)
			if err != bufio.ErrBufferFull {
				if _, werr := w.Write(fmt.Appendf(out[:0], "%016x\n", h.Sum64())); werr != nil {
					return werr
				}
				h.Reset()
			}
		}
		switch err {
		case nil, bufio.ErrBufferFull:
		case io.EOF:
			return nil
		default:
			return err
		}
	}
}

// newFlagSet returns a flag set that prints usage to the command's stderr.
func newFlagSet(name string, s IO, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(s.Err)
	fs.Usage = func() {
		fmt.Fprintln(s.Err, usage)
		fmt.Fprintln(s.Err, "\nFlags:")
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args, whose flags may come before, between or after
// the positional arguments (as with wget or git); "--" ends the flags.
// done is true when the command should return code at once (help asked
// for, or a usage error already reported).
func parseFlags(fs *flag.FlagSet, args []string) (code int, done bool) {
	ordered, bare := flagsFirst(fs, args)
	if bare != "" {
		fmt.Fprintf(fs.Output(), "flag needs an argument: %s\n", bare)
		fs.Usage()
		return ExitUsage, true
	}
	if err := fs.Parse(ordered); err != nil {
		if err == flag.ErrHelp {
			return ExitOK, true
		}
		return ExitUsage, true
	}
	return 0, false
}

// flagsFirst moves the flags of args, with their values, before the
// positional arguments, which follow a "--" so that none of them is read
// as a flag. A flag's value is the next argument unless the flag is a
// boolean or written -name=value. Unknown flags stay flags, for Parse to
// refuse; bare names a last flag that lacks its value.
func flagsFirst(fs *flag.FlagSet, args []string) (ordered []string, bare string) {
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			pos = append(pos, args[i+1:]...)
			i = len(args)
			continue
		case len(a) < 2 || a[0] != '-':
			pos = append(pos, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if strings.Contains(name, "=") {
			continue
		}
		f := fs.Lookup(name)
		if f == nil || isBool(f) {
			continue
		}
		if i+1 == len(args) {
			return nil, a
		}
		flags = append(flags, args[i+1])
		i++
	}
	return append(append(flags, "--"), pos...), ""
}

func isBool(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}
