// Package wordscan is paper 002's sensitive-word filter: it checks a
// page's title, text and the anchor texts of links pointing at it against
// word lists and says whether the page's URL belongs on the black list,
// the white list, or neither yet (grey). The crawl engine and the
// background scorer call it for every page; `trawler verdicts` re-scores
// stored crawls with it. It knows no SQL, HTTP or window.
//
// # Word-list files
//
// A list is UTF-8 text (a leading byte-order mark is accepted), one entry
// a line:
//
//	term
//	term, weight
//	term, weight, category
//
// Fields are separated by commas and trimmed of surrounding spaces; a term
// may hold spaces ("online casino, 2, gambling") but no comma. An empty
// weight or category field means the default. A line whose first
// non-space character is '#' is a comment (there are no comments at the
// end of an entry: "casino # x" is the term "casino # x"); blank lines are
// ignored. Two directives change what follows in the same file:
//
//	@category NAME          default category of the entries below
//	@threshold [CATEGORY] N  threshold of CATEGORY (default: the current category)
//
// Before any @category line the default category is the file's base name
// without extension (gambling.txt → "gambling"), or "default" for a reader
// without a name. Categories are compared exactly (case matters).
// The default weight is 1 (DefaultWeight) and the default threshold 3
// (DefaultThreshold). Weights and thresholds must be positive finite
// numbers.
//
// Refused lines — empty term, bad number, weight or threshold ≤ 0, NaN or
// infinite, unknown directive, invalid UTF-8, a term that normalizes to
// nothing, more than three fields — are reported together (about ten at
// most) as *Errors, each naming file and line: `gambling.txt:12: weight
// "x" is not a number`. The same term twice in one category (equal once
// normalized, so "Casino" repeats "casino") is refused too, also across
// the files given to Load or Merge, and so is one category given two
// different thresholds: a silent merge would hide which weight applies.
//
// # Normalization
//
// Terms and text are brought to one form before matching (see Normalize):
// NFKC, so that full-width letters and digits become ASCII and
// compatibility forms (ligatures, circled or half-width characters) fold
// to their plain letters; then Unicode case folding, so that "CASINO",
// "Casino", "ｃａｓｉｎｏ" and "casino" are one word; then format
// characters (soft hyphen, zero-width space, byte-order mark) are dropped
// and every run of white space becomes one space, so that "online\n
// casino" and "casi\u00ADno" cannot slip past. ASCII text takes a fast path
// that gives exactly the same result; only non-ASCII stretches go through
// golang.org/x/text.
//
// # Matching
//
// A term holding Han, Hiragana, Katakana or Hangul characters matches as
// a substring: Chinese has no spaces between words, so 赌博 is found in
// 网上赌博网站. Other terms match whole words only: the rune before and the
// rune after a match, in the normalized text, must not be a letter, digit
// or combining mark outside those scripts. So "casinos" does not contain
// "casino", while "casino.", "(casino)" and "赌场casino" do. A mixed term
// is checked only at its Latin ends: "casino赌场" needs a non-letter
// before "c" but nothing after 场. Overlapping matches all count: in
// 网上赌博 both 赌博 and 网上赌博 are found.
//
// # Scoring
//
// Scan counts each term's occurrences in the title, the text and the
// anchors (Hit). A category's score is the sum of the weights of its
// distinct terms found anywhere: a term found ten times counts once, so a
// page cannot turn black by repeating one word. A category whose score
// reaches its threshold makes the page Black (the reported category is the
// one with the highest score/threshold ratio among those); a page where
// nothing matched is White; anything else is Grey, reported with its
// category of highest ratio. Sums are compared with a relative tolerance
// of 1e-9, so ten terms of weight 0.1 reach a threshold of 1.
//
// # Aho-Corasick library
//
// All terms are found in one pass over the normalized bytes by
// github.com/coregx/ahocorasick (MIT), a fully compiled DFA with byte
// classes; Scan then applies the whole-word test on runes itself. It was
// chosen by a benchmark of the Go modules the proxy serves, with 10,000
// mixed Latin and Chinese terms over 1 MB of text, all overlapping
// matches, checked against strings.Index at every offset (all six were
// correct, on Chinese too):
//
//	library               build   heap     scan MB/s   allocs   scan MB/s
//	                                       (dense)     per MB   (sparse)
//	coregx v0.3.1         0.15 s   31 MB    34–43         36    133–167
//	BobuSumisu v1.0.3     0.13 s  123 MB    19–24         19     66–85
//	petar-dambovaliev DFA 0.80 s   50 MB    18–19      31354     67–109
//	petar-dambovaliev NFA 0.06 s    6 MB    15–23      10538     31–38
//	anknown               0.05 s    4 MB    24–27      10558     29–42
//	cloudflare            0.44 s  365 MB     9–12         28     51
//
// With 100,000 terms: coregx 3.0 s and 278 MB, BobuSumisu 2.4 s and
// 1.1 GB, petar's DFA 10.9 s and 437 MB, petar's NFA 0.9 s and 56 MB.
// cloudflare reports no positions (so no whole-word test) and its Match
// is not goroutine-safe; anknown works on []rune and has an open report
// of wrong matches on Chinese; petar's own whole-word and case options
// look at single bytes, wrong beside multi-byte text. coregx is the
// fastest and allocates least; its price is memory, a dense table that
// grows with the total length of the terms (about 34 MB for 10,000
// terms, 300 MB for 100,000).
//
// # Performance
//
// Measured with `go test -run XXX -bench . ./crawl/wordscan/` on the
// project's shared 2-core machine (ranges over runs; MB/cpu-s counts only
// the CPU time the benchmark got): with 10,000 terms, Scan reads 70–92
// MB/s of English text, 47–53 MB/s of Chinese, 43–53 MB/s of mixed text,
// and a typical 20 kB page in about 0.2 ms with 6 allocations (the match
// list and the Hits).
// Matching takes most of that; normalizing alone runs at 310–400 MB/s on
// ASCII, 340–680 MB/s on Chinese and 300–450 MB/s on mixed text, without
// allocating, where x/text on the whole string manages 24–33 MB/s.
// Compile takes 0.15 s for 10,000 terms and 2.3–2.9 s for 100,000.
package wordscan
