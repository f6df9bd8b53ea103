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
// Each shingle gets one 64-bit hash, mixed with the seed (SplitMix64).
// How it is made is the sketch's Version; sketches of different versions
// never match, so a crawl keeps its version for as long as its stored
// sketches are compared with new ones:
//
//   - Version 1 fingerprints the shingle's bytes with crawl/rabin, so each
//     byte of text is hashed Shingle times.
//   - Version 2 (the default) hashes each word once, eight bytes a step
//     with a 64×64→128-bit multiplication, and makes a shingle's hash from
//     its words' hashes h₁…h_w as the polynomial Σ hᵢ·B^(w-i) mod 2^64 (B
//     odd), kept rolling as the text is read. The polynomial makes the
//     order of the words count; unlike in version 1, a run of spaces
//     between them counts as one. It does about a fifth of version 1's
//     work.
//
// Both give the same estimates, in distribution (TestUnbiased,
// TestEstimateAccuracy). Instead of k hash functions, the sketch uses
// one permutation hashing (Li, Owen and Zhang, 2012): the low bits of the
// hash choose one of k bins and each bin keeps the least hash that falls
// into it, so a page costs one hash per shingle whatever k is. Each bin's
// minimum is then hashed with the bin's number and cut to a byte in
// 1..255 (b-bit minwise hashing, Li and König 2010); 0 marks a bin no
// shingle fell into, so a sketch is k bytes (1 KB at the default k =
// 1,024).
//
// The Resemblance of two pages is the share of agreeing bins among the n
// bins not empty in both, corrected for the bytes of two different minima
// agreeing by chance (1 in 255): J = (p - 1/255)/(1 - 1/255). Leaving out
// bins empty in both, rather than filling them from other bins, makes
// short pages' estimates nearly exact: with fewer shingles than bins,
// almost every shingle has a bin of its own.
//
// The estimate has a standard deviation of at most about sqrt(J(1-J)/k):
// at k = 1,024, 0.016 at J = 0.5 and 0.009 at J = 0.9. On 1,000 pairs of
// varied overlap and size every estimate falls within ±0.05 of the exact
// Jaccard index and the worst misses by 0.044 under either version
// (TestEstimateAccuracy; at k = 256, 98.8% and 0.066 under version 1,
// 97.8% and 0.082 under version 2; at k = 512, 99.9% and 0.060, 99.7% and
// 0.057).
//
// # Banding
//
// The index cuts the first Bands·Rows bins of each sketch into Bands bands
// of r = Rows bins and compares a new page only with pages that agree with
// it on every bin of at least one band. For banding, an empty bin takes
// the value of another bin, the first non-empty one in a sequence of
// bins fixed per bin (optimal densification, Shrivastava 2017), so that
// short pages still fall into the bands of pages sharing their text and
// not into those of every short page. The candidates' similarity is then
// estimated from their whole sketches, and the best at or above Threshold
// is the match.
// Two pages of similarity s (Jaccard J) share a band with probability
// 1-(1-J^r)^b, which for the defaults (b = 28, r = 9) is:
//
//	similarity  0.50    0.60   0.70  0.75  0.80  0.85  0.88  0.90   0.92   0.95
//	compared    0.0014  0.014  0.10  0.25  0.52  0.85  0.97  0.993  0.9995 1.0000
//
// so pairs at the threshold are compared 993 times in 1,000 and unrelated
// pages almost never. Whether a compared pair then counts as a match
// depends on its estimate: pairs right at the threshold are matched about
// half the time, pairs 0.03 above it nearly always (TestRecall: of 500
// pairs spread over [0.9, 1], 100% compared and 99% matched).
//
// # Cost
//
// Sketching a page of 3.6 KB of text and adding it to an index costs
// about 100k instructions under version 2 and 250k under version 1
// (BenchmarkSketchAdd; the text of a typical 10 KB page takes about 5 ns a
// byte under version 1), and one allocation, the sketch's; Index.Add
// keeps 1.6 KB of memory per stored page at the defaults, and an Index
// about 130 KB besides. On sites
// where every page is mostly one template, bands fill with keys that
// hundreds of pages share; Add then compares at most MaxChain pages per
// band, which bounds its cost near 35 µs without losing the near-copies,
// whose own text decides other bands (TestTemplateSite). With
// Config.Window set, the index forgets the oldest pages, 1,024 at a time,
// and so holds about Window pages however many are added (TestWindow).
// See BenchmarkSketch, BenchmarkParseVsSketch and BenchmarkIndexAdd.
package neardup
