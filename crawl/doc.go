// Package crawl is Trawler's engine: it takes a Config, walks the web from
// the seeds through a pool of per-host URL queues and a pool of workers
// (paper 000 §1.1), in breadth-first, depth-first or mixed order (paper 004),
// and hands every fetched page to a Store. It knows nothing of windows or
// SQL: the db package implements Store, and the gui and cli packages are
// two faces over Engine.
//
// A URL moves through the four queues of paper 004: waiting → processing →
// done | error. It counts as done only once the Store has committed its page,
// so a crash never loses a page that counted as visited.
//
// # Re-crawls
//
// Paper 000's gatherer is incremental: pages are visited again and only
// what changed is gathered. A crawl runs in cycles: cycle 0 is the first
// crawl, and each re-crawl is a new cycle of the same crawl in the same
// store (db.BeginRecrawl sets the visited URLs waiting again; New and Run
// then work as for a crawl, so Stop, a crash and a resume behave alike).
//
//   - A revisited URL comes back from Store.Claim with the stored page's
//     Validators; the fetch sends them as If-None-Match and
//     If-Modified-Since, and a 304 answer costs no body.
//   - The store compares each visit with the URL's previous one (Change):
//     new, changed or unchanged by the Rabin fingerprint of the body text,
//     gone (404, 410), or error. Every visit is kept in the page's history,
//     with the latest KeepVersions texts. New links found on changed pages
//     are crawled as usual.
//   - When a run ends with nothing waiting, Store.FinishCycle marks gone
//     the pages that vanished from every link.
//   - The revisit schedule (NextVisit) gives each page a next-due time
//     from its estimated change rate, so a re-crawl may visit only what is
//     due.
//
// # Near-duplicates
//
// With Config.NearThreshold above 0 (0.9 by default), every page's text is
// sketched in the worker (crawl/neardup: MinHash over hashed five-word
// shingles) and looked up in an LSH index of the pages before it, during
// the crawl: a page gets its best match (NearOf, with its NearSimilarity)
// and a near-duplicate group (NearGroup). The store keeps the sketches,
// so a resumed crawl or a re-crawl rebuilds the index (Store.Sketches),
// and an unchanged page answered 304 takes its stored sketch
// (Store.Sketch). Sketches compare only with sketches of their version,
// so a crawl keeps its Config.SketchVersion for good: version 1 (Rabin
// fingerprints of each shingle) for crawls stored before version 2 (each
// word hashed once), which new crawls use. The index costs about 1.6 KB of memory per page
// and holds the latest Config.NearWindow pages (10,000 by default, about
// 16 MB), so that a crawl of millions of pages stays within a desktop's
// memory: a page is compared with the pages fetched shortly before it,
// which is where a site's near-copies (print versions, sort orders,
// session variants of one listing) usually are.
package crawl

// Version is Trawler's version; it appears in the default user agent.
const Version = "0.1.0"
