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
package crawl

// Version is Trawler's version; it appears in the default user agent.
const Version = "0.1.0"
