// Package neardup finds near-duplicate pages while the crawl runs: each
// page's body text gets a MinHash sketch, and an LSH index over the
// sketches finds, for every new page, the most similar page crawled
// before it. Exact duplicates are the content fingerprint's business;
// this package finds pages that differ in a date, an ad or a paragraph.
//
// # Similarity
//
// A page is the set of its shingles: every run of Shingle (5) consecutive
// words of its normalized text. The similarity of two pages is the share
// of shingles they have in common, 2|A∩B|/(|A|+|B|) (the Dice
// coefficient): for pages of equal length, the fraction of either page the
// other contains. It is computed from the Jaccard index J = |A∩B|/|A∪B|,
// which MinHash estimates, as 2J/(1+J). Jaccard itself is not used as the
// threshold because it halves small differences twice: rewriting one
// paragraph of twenty touches 54 of 996 shingles, J = 0.897 but
// similarity 0.946, so near-copies at "90%" would be missed half the time.
// With half of the paragraphs rewritten the similarity is about 0.46.
//
// # Sketches
//
// Each shingle is fingerprinted with crawl/rabin, once, and the
// fingerprint is mixed with the seed (SplitMix64) into one 64-bit hash.
// Instead of k hash functions, the sketch uses one permutation hashing
// (Li, Owen and Zhang, 2012): the low bits of the hash choose one of k
// bins and each bin keeps the least hash that falls into it, so a page
// costs one fingerprint and one mix per shingle whatever k is. Bins no
// shingle fell into (about k·e^(-n/k) of them for n shingles) borrow
// the minimum of another bin chosen by a fixed permutation of the bins per
// empty bin (optimal densification, Shrivastava 2017), which keeps the
// estimate unbiased for short pages. Each bin's minimum is then hashed with
// the bin's number and cut to 16 bits (b-bit minwise hashing, Li and
// König 2010): two different minima agree by chance once in 65,536,
// which biases estimates by less than 0.00002, and a sketch is 2k bytes
// (512 at the default k = 256).
//
// The estimate of J from k bins has a standard deviation of about
// sqrt(J(1-J)/k), a little less when pages have not many more shingles
// than bins: at k = 256, 0.031 at J = 0.5 and 0.019 at J = 0.9. On 1,000
// pairs of varied overlap, 96% of estimates fall within ±0.05 of the exact
// Jaccard index and the worst misses by 0.097, 3.5 standard deviations
// (TestEstimateAccuracy; at k = 512, 99% and 0.066).
//
// # Banding
//
// The index cuts each sketch into Bands bands of r = Hashes/Bands bins and
// compares a new page only with pages that agree with it on every bin of
// at least one band; the candidates' similarity is then estimated from
// their whole sketches, and the best at or above Threshold is the match.
// Two pages of similarity s (Jaccard J) share a band with probability
// 1-(1-J^r)^b, which for the defaults (k = 256, b = 28, r = 9) is:
//
//	similarity  0.50    0.60   0.70  0.75  0.80  0.85  0.88  0.90   0.92   0.95
//	compared    0.0014  0.014  0.10  0.25  0.52  0.85  0.97  0.993  0.9995 1.0000
//
// so pairs at the threshold are compared 993 times in 1,000 and unrelated
// pages almost never. Whether a compared pair then counts as a match
// depends on its estimate: pairs right at the threshold are matched about
// half the time, pairs 0.03 above it nearly always (TestRecall: of 500
// pairs spread over [0.9, 1], 100% compared and 95% matched).
//
// # Cost
//
// Sketching costs about 4 ns per byte of text (40 µs for a 10 KB text),
// two allocations of 2.5 KB in all; Index.Add about 3 µs per page and
// 1.1 KB of memory per stored page at the defaults. On sites where every
// page is mostly one template, bands fill with keys that hundreds of pages
// share; Add then compares at most MaxChain pages per band, which bounds
// its cost near 15 µs without losing the near-copies, whose own text
// decides other bands (TestTemplateSite). See BenchmarkSketch,
// BenchmarkParseVsSketch and BenchmarkIndexAdd.
package neardup
