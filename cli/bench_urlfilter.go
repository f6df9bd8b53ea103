package cli

import (
	"fmt"
	"io"
	"strconv"

	"github.com/dustin/go-humanize"

	"github.com/trawler/trawler/urlfilter"
)

// runBenchURLFilter is `trawler bench urlfilter`: paper 002's experiment,
// measured by urlfilter.Experiment and printed here as a table.
func runBenchURLFilter(args []string, s IO) int {
	fs := newFlagSet("bench urlfilter", s, `Usage: trawler bench urlfilter [flags]

Re-runs paper 002's experiment (a high-speed URL filter): a black and a
white list of generated URLs, kept as MD5 digests in hash tables of the
same number of buckets, then a stream of URLs (10 % listed) filtered
through each table, black list first. For the chained hash table (the
paper's baseline), the improved bitmap table, the bitmap table behind a
Bloom filter and Go's map it prints digest comparisons per URL, time per
URL and memory per listed entry. Without --entries it runs the paper's
10,000 URLs per list, then 1,000,000.`)
	entries := fs.Int("entries", 0, "URLs per list (0: 10,000, then 1,000,000)")
	buckets := fs.Int("buckets", 100, "buckets per hash table (the paper's: 100)")
	lookups := fs.Int("lookups", 1_000_000, "URLs to filter, 10 % of them listed")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	if fs.NArg() > 0 {
		return fail(s, "bench urlfilter", usagef("unexpected argument %q", fs.Arg(0)))
	}
	if *entries < 0 || *buckets < 1 || *lookups < 1 {
		return fail(s, "bench urlfilter", usagef("bad flags: entries ≥ 0, buckets ≥ 1, lookups ≥ 1"))
	}
	sizes := []int{10_000, 1_000_000}
	if *entries > 0 {
		sizes = []int{*entries}
	}
	for i, n := range sizes {
		if i > 0 {
			fmt.Fprintln(s.Out)
		}
		cfg := urlfilter.ExperimentConfig{Entries: n, Buckets: *buckets, Lookups: *lookups}
		rows, err := urlfilter.Experiment(cfg)
		if err != nil {
			return fail(s, "bench urlfilter", err)
		}
		printExperiment(s.Out, cfg, rows)
	}
	return ExitOK
}

func printExperiment(w io.Writer, cfg urlfilter.ExperimentConfig, rows []urlfilter.ExperimentRow) {
	fmt.Fprintf(w, "paper 002: black and white lists of %s URLs each, %s buckets per hash table\n",
		humanize.Comma(int64(cfg.Entries)), humanize.Comma(int64(cfg.Buckets)))
	fmt.Fprintf(w, "%s URLs filtered, 10 %% listed; MD5 digests computed beforehand; black list, then white\n",
		humanize.Comma(int64(cfg.Lookups)))
	const row = "%-22s %12s %10s %12s %9s  %s\n"
	fmt.Fprintf(w, row, "structure", "comparisons", "ns/URL", "bytes/entry", "URLs", "shape")
	for _, r := range rows {
		comps := "n/a"
		if r.Comparisons >= 0 {
			comps = strconv.FormatFloat(r.Comparisons, 'f', 2, 64)
		}
		fmt.Fprintf(w, row, r.Structure, comps, strconv.FormatFloat(r.NsPerLookup, 'f', 1, 64),
			strconv.FormatFloat(r.BytesPerEntry, 'f', 1, 64), strconv.Itoa(r.Lookups), r.Params)
	}
}
