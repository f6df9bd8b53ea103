package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/wordscan"
	"github.com/trawler/trawler/db"
)

func init() {
	register("verdicts", "judge a stored crawl's pages by sensitive-word lists again, fetching nothing", runVerdicts)
}

// wordListHelp explains the word-list format, for verdicts --help.
const wordListHelp = `Word lists are UTF-8 text files, one entry per line:

  term[, weight[, category]]     # weight defaults to 1, category to the file's name
  @category NAME                 # default category of the lines below
  @threshold [CATEGORY] N        # a category's threshold (default 3)
  # a comment

Terms and text are compared after NFKC normalization and case folding (so
full-width letters match), Latin terms as whole words, Chinese, Japanese and
Korean terms anywhere inside the text. A page is black when the weights of
the distinct terms of one category that it contains, in its title, its text
or the anchor texts of links to it, reach that category's threshold; white
when it contains none; grey otherwise.`

func runVerdicts(args []string, s IO) int {
	fs := newFlagSet("verdicts", s, `Usage: trawler verdicts [--db F] [--crawl ID] [--lists FILE]...

Judges the stored pages of a crawl (the most recent by default) again by
sensitive-word lists, from their stored text, without fetching anything:
paper 002's filter, run over the stored pages as over its file buffer.
With --lists the crawl takes these lists from now on (resuming it,
re-crawling it and the gateway use them); without, it is judged again by
the lists it has. Prints how many pages are black, white and grey before
and after.

`+wordListHelp)
	dbPath := dbFlag(fs)
	id := fs.Int64("crawl", 0, "crawl ID (default: the most recent)")
	var lists listFlag
	fs.Var(&lists, "lists", "a word-list file (repeatable)")
	fs.Var(&lists, "word-lists", "the same as --lists")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	if fs.NArg() > 0 {
		return fail(s, "verdicts", usagef("unexpected argument %q (word lists are given with --lists)", fs.Arg(0)))
	}
	paths, err := absPaths(lists)
	if err != nil {
		return fail(s, "verdicts", err)
	}
	var sc *wordscan.Scanner
	if len(paths) > 0 {
		if sc, err = crawl.LoadWordLists(paths); err != nil {
			return fail(s, "verdicts", usagef("%v", err))
		}
	}
	d, err := openDB(*dbPath)
	if err != nil {
		return fail(s, "verdicts", err)
	}
	defer d.Close()
	crawlID, err := pickCrawl(d, *id)
	if err != nil {
		return fail(s, "verdicts", err)
	}
	ctx := context.Background()
	if sc == nil {
		cfg, err := d.Settings(ctx, crawlID)
		if err != nil {
			return fail(s, "verdicts", &storageError{err})
		}
		if len(cfg.WordLists) == 0 {
			return fail(s, "verdicts", usagef("crawl %d has no word lists: give them with --lists FILE", crawlID))
		}
		paths = cfg.WordLists
		if sc, err = crawl.LoadWordLists(paths); err != nil {
			return fail(s, "verdicts", usagef("the lists of crawl %d: %v", crawlID, err))
		}
	}
	return rescore(ctx, s, d, crawlID, paths, sc)
}

// rescore judges every page of a crawl again and prints the counts.
func rescore(ctx context.Context, s IO, d *db.DB, id int64, paths []string, sc *wordscan.Scanner) int {
	before, err := d.VerdictCounts(ctx, id)
	if err != nil {
		return fail(s, "verdicts", &storageError{err})
	}
	if err := d.SetWordLists(ctx, id, paths); err != nil {
		return fail(s, "verdicts", &storageError{err})
	}
	if _, err := d.Rescore(ctx, id); err != nil {
		return fail(s, "verdicts", &storageError{err})
	}
	judged, err := crawl.Score(ctx, d.Crawl(id), sc, nil)
	if err != nil {
		return fail(s, "verdicts", &storageError{err})
	}
	after, err := d.VerdictCounts(ctx, id)
	if err != nil {
		return fail(s, "verdicts", &storageError{err})
	}
	fmt.Fprintf(s.Out, "crawl %d: %s judged by %s (%s, lists %.12s)\n", id, countNoun(judged.Total(), "page"),
		countNoun(int64(len(paths)), "word list"), countNoun(int64(sc.NumTerms()), "term"), sc.Hash())
	tw := tabwriter.NewWriter(s.Out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "\tbefore\tafter\t")
	for _, v := range []wordscan.Verdict{wordscan.Black, wordscan.Grey, wordscan.White} {
		fmt.Fprintf(tw, "%s\t%d\t%d\t\n", v, before[v], after[v])
	}
	tw.Flush()
	return ExitOK
}

// checkWordLists makes a crawl's word lists absolute and refuses lists
// that cannot be read or have bad lines, before the crawl is created.
func checkWordLists(c *crawl.Config) error {
	if len(c.WordLists) == 0 {
		return nil
	}
	paths, err := absPaths(c.WordLists)
	if err != nil {
		return err
	}
	if _, err := crawl.LoadWordLists(paths); err != nil {
		return usagef("%v", err)
	}
	c.WordLists = paths
	return nil
}

// absPaths makes word-list paths absolute, so a crawl that stores them
// finds them again from any folder, and checks that each can be read.
func absPaths(paths []string) ([]string, error) {
	out := make([]string, len(paths))
	for i, p := range paths {
		a, err := filepath.Abs(p)
		if err != nil {
			return nil, usagef("word list %s: %v", p, err)
		}
		out[i] = a
	}
	return out, nil
}

// countNoun writes "1 page", "12 pages", "2 entries".
func countNoun(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "y") {
		return fmt.Sprintf("%d %sies", n, strings.TrimSuffix(noun, "y"))
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
