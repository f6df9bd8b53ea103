package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"text/tabwriter"
	"time"

	"github.com/trawler/trawler/db"
	"github.com/trawler/trawler/urlfilter"
)

func init() {
	register("lists", "show and edit the URL filter's black and white lists (add, remove, import, export, show)", runLists)
}

const listsUsage = `Usage: trawler lists COMMAND [flags] ...

The black and white lists of paper 002's URL filter, kept in the database
and used by trawler gateway. An entry is a URL (http://example.org/page,
that page exactly), a host (example.org, which covers its subdomains) or a
path prefix (example.org/forum, every URL of that host under /forum), with
an optional category after a space. A crawl's verdicts are lists too: its
black pages are on the black list and its white and grey pages on the
white one, without being copied here (trawler verdicts, trawler search
--verdict).

Commands:
  show    [--list black|white] [--crawl ID]        the entries, and the crawl's verdict counts
  add     --list black|white [--category C] [--note N] ENTRY...
  remove  ENTRY...                                 from whichever list holds it
  import  --list black|white [--category C] FILE   one entry per line, # comments; - reads standard input
  export  [--list black|white] [--verdicts] [--crawl ID] [--out FILE]
          one entry per line, as import reads them; --verdicts adds the crawl's
          judged pages as URL entries`

func runLists(args []string, s IO) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprintln(s.Err, listsUsage)
		if len(args) == 0 {
			return ExitUsage
		}
		return ExitOK
	}
	sub, rest := args[0], args[1:]
	run, ok := map[string]func([]string, IO) int{
		"show": listsShow, "add": listsAdd, "remove": listsRemove, "import": listsImport, "export": listsExport,
	}[sub]
	if !ok {
		return fail(s, "lists", usagef("unknown command %q: want show, add, remove, import or export", sub))
	}
	return run(rest, s)
}

// listFlagValue reads --list; required says whether it must be given.
func listFlagValue(v string, required bool) (urlfilter.List, error) {
	if v == "" {
		if required {
			return urlfilter.None, usagef("say which list with --list black or --list white")
		}
		return urlfilter.None, nil
	}
	l, err := urlfilter.ParseList(v)
	if err != nil {
		return urlfilter.None, usagef("--list: %v", err)
	}
	return l, nil
}

func listsAdd(args []string, s IO) int {
	fs := newFlagSet("lists add", s, listsUsage)
	dbPath := dbFlag(fs)
	list := fs.String("list", "", "black or white")
	category := fs.String("category", "", "category of the entries (what a gateway policy decides by)")
	note := fs.String("note", "", "why they are listed, for the people who read the lists")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	l, err := listFlagValue(*list, true)
	if err != nil {
		return fail(s, "lists add", err)
	}
	if fs.NArg() == 0 {
		return fail(s, "lists add", usagef("give the entries to add"))
	}
	var es []urlfilter.Entry
	for _, a := range fs.Args() {
		e, err := urlfilter.ParseEntry(l, a)
		if err != nil {
			return fail(s, "lists add", usagef("%q: %v", a, err))
		}
		if *category != "" {
			e.Category = *category
		}
		es = append(es, e)
	}
	return withDB(s, "lists add", *dbPath, func(d *db.DB) error {
		n, err := d.AddListEntries(context.Background(), db.SourceManual, *note, es)
		if err == nil {
			fmt.Fprintf(s.Out, "%s list: %s added or changed\n", l, countNoun(n, "entry"))
		}
		return err
	})
}

func listsRemove(args []string, s IO) int {
	fs := newFlagSet("lists remove", s, listsUsage)
	dbPath := dbFlag(fs)
	if code, done := parseFlags(fs, args); done {
		return code
	}
	if fs.NArg() == 0 {
		return fail(s, "lists remove", usagef("give the entries to remove"))
	}
	var es []urlfilter.Entry
	for _, a := range fs.Args() {
		e, err := urlfilter.ParseEntry(urlfilter.Black, a)
		if err != nil {
			return fail(s, "lists remove", usagef("%q: %v", a, err))
		}
		es = append(es, e)
	}
	return withDB(s, "lists remove", *dbPath, func(d *db.DB) error {
		n, err := d.RemoveListEntries(context.Background(), es)
		if err == nil {
			fmt.Fprintf(s.Out, "%s removed\n", countNoun(n, "entry"))
			if n < int64(len(es)) {
				fmt.Fprintf(s.Err, "trawler lists remove: %d of them were on no list\n", int64(len(es))-n)
			}
		}
		return err
	})
}

func listsImport(args []string, s IO) int {
	fs := newFlagSet("lists import", s, listsUsage)
	dbPath := dbFlag(fs)
	list := fs.String("list", "", "black or white")
	category := fs.String("category", "", "category of entries that name none")
	note := fs.String("note", "", "why they are listed")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	l, err := listFlagValue(*list, true)
	if err != nil {
		return fail(s, "lists import", err)
	}
	if fs.NArg() != 1 {
		return fail(s, "lists import", usagef("give one file to import (- for standard input)"))
	}
	name := fs.Arg(0)
	var r io.Reader = s.In
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return fail(s, "lists import", usagef("cannot read %s: %v", name, err))
		}
		defer f.Close()
		r = f
	} else {
		name = "standard input"
	}
	es, err := urlfilter.ReadEntries(name, r, l, *category)
	if err != nil {
		return fail(s, "lists import", usagef("nothing imported: %v", err))
	}
	return withDB(s, "lists import", *dbPath, func(d *db.DB) error {
		n, err := d.AddListEntries(context.Background(), db.SourceImport, *note, es)
		if err == nil {
			fmt.Fprintf(s.Out, "%s list: %s read from %s, %d new or changed\n", l, countNoun(int64(len(es)), "entry"), name, n)
		}
		return err
	})
}

func listsExport(args []string, s IO) int {
	fs := newFlagSet("lists export", s, listsUsage)
	dbPath := dbFlag(fs)
	list := fs.String("list", "", "black or white (default: both, each under a heading comment)")
	verdicts := fs.Bool("verdicts", false, "also the crawl's judged pages, as URL entries")
	id := fs.Int64("crawl", 0, "the crawl whose verdicts --verdicts adds (default: the most recent)")
	out := fs.String("out", "-", "output file, - for standard output")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	l, err := listFlagValue(*list, false)
	if err != nil {
		return fail(s, "lists export", err)
	}
	if fs.NArg() > 0 {
		return fail(s, "lists export", usagef("unexpected argument %q", fs.Arg(0)))
	}
	return withDB(s, "lists export", *dbPath, func(d *db.DB) error {
		var crawlID int64
		if *verdicts {
			if crawlID, err = pickCrawl(d, *id); err != nil {
				return err
			}
		}
		return writeFile(s, *out, func(w io.Writer) error { return d.ExportLists(context.Background(), w, l, crawlID) })
	})
}

func listsShow(args []string, s IO) int {
	fs := newFlagSet("lists show", s, listsUsage)
	dbPath := dbFlag(fs)
	list := fs.String("list", "", "black or white (default: both)")
	id := fs.Int64("crawl", 0, "the crawl whose verdict counts are shown (default: the most recent)")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	l, err := listFlagValue(*list, false)
	if err != nil {
		return fail(s, "lists show", err)
	}
	if fs.NArg() > 0 {
		return fail(s, "lists show", usagef("unexpected argument %q", fs.Arg(0)))
	}
	return withDB(s, "lists show", *dbPath, func(d *db.DB) error {
		ctx := context.Background()
		tw := tabwriter.NewWriter(s.Out, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "LIST\tKIND\tENTRY\tCATEGORY\tSOURCE\tADDED\tNOTE")
		n := 0
		err := d.ListEntries(ctx, l, func(e db.ListEntry) error {
			n++
			_, err := fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", e.List, e.Kind, e.Value, e.Category, e.Source,
				e.AddedAt.Local().Format(time.DateTime), e.Note)
			return err
		})
		if err != nil {
			return err
		}
		tw.Flush()
		fmt.Fprintf(s.Out, "%s\n", countNoun(int64(n), "entry"))
		crawlID, err := pickCrawl(d, *id)
		if err != nil {
			if *id == 0 && errors.As(err, new(*usageError)) {
				return nil // no crawl yet: the lists alone
			}
			return err
		}
		counts, err := d.VerdictCounts(ctx, crawlID)
		if err != nil {
			return err
		}
		fmt.Fprintf(s.Out, "crawl %d's verdicts: %d black, %d white, %d grey pages (trawler search --verdict black QUERY)\n",
			crawlID, counts["black"], counts["white"], counts["grey"])
		return nil
	})
}

// withDB opens the database, runs fn and maps its error to an exit code:
// usage errors stay usage errors, everything else is a storage problem.
func withDB(s IO, cmd, path string, fn func(*db.DB) error) int {
	d, err := openDB(path)
	if err != nil {
		return fail(s, cmd, err)
	}
	defer d.Close()
	if err := fn(d); err != nil {
		var ue *usageError
		if errors.As(err, &ue) || errors.Is(err, db.ErrInput) {
			return fail(s, cmd, usagef("%v", err))
		}
		return fail(s, cmd, &storageError{err})
	}
	return ExitOK
}

// writeFile runs write on standard output or on a new file.
func writeFile(s IO, path string, write func(io.Writer) error) error {
	if path == "-" {
		return write(s.Out)
	}
	f, err := os.Create(path)
	if err != nil {
		return usagef("cannot write %s: %v", path, err)
	}
	bw := bufio.NewWriter(f)
	err = write(bw)
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
