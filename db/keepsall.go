package db

import (
	"bytes"
	"context"
	"sync"
)

// keepsAll keeps the latest answers of searchKeepsAll, so that the
// screens after a listing's first do not count a search's million
// matches again (0.1–0.2 s each). An answer is kept, like a ranking (see
// rankings), while the full-text index is unchanged: a page stored,
// rewritten or deleted changes it.
type keepsAll struct {
	mu   sync.Mutex
	list []keptAll // the most recently used last
}

// keptAll is one answer: whether match matched all n pages of crawl when
// the full-text index's structure record was version.
type keptAll struct {
	crawl   int64
	match   string
	n       float64
	version []byte
	all     bool
}

// keptAnswers is how many answers are kept.
const keptAnswers = 8

// get returns the kept answer for k's crawl, match, page count and
// version.
func (c *keepsAll) get(k keptAll) (all, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, o := range c.list {
		if o.crawl == k.crawl && o.match == k.match && o.n == k.n && bytes.Equal(o.version, k.version) {
			return o.all, true
		}
	}
	return false, false
}

// put keeps k in place of any other answer for its crawl and match,
// dropping the oldest beyond keptAnswers.
func (c *keepsAll) put(k keptAll) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, o := range c.list {
		if o.crawl == k.crawl && o.match == k.match {
			c.list = append(c.list[:i], c.list[i+1:]...)
			break
		}
	}
	c.list = append(c.list, k)
	if len(c.list) > keptAnswers {
		c.list = c.list[len(c.list)-keptAnswers:]
	}
}

// searchKeepsAll reports whether an FTS5 query matches every one of the
// crawl's pages (n of them): whether it matches n pages between the
// crawl's first id and its last, no other crawl having pages there. The
// answer is kept while the full-text index is unchanged (see keepsAll).
func (d *DB) searchKeepsAll(ctx context.Context, crawlID int64, match string, n float64) (bool, error) {
	k := keptAll{crawl: crawlID, match: match, n: n}
	// FTS5 rewrites its structure record (id 10 of the _data table) with
	// every change to the index.
	if err := d.r.QueryRowContext(ctx, `SELECT block FROM pages_fts_data WHERE id = 10`).Scan(&k.version); err != nil {
		return false, wrap(err, "count the matches of a search")
	}
	if all, ok := d.keepsAll.get(k); ok {
		return all, nil
	}
	query, args, shared, err := d.searchCountQuery(ctx, crawlID, match)
	if err != nil || shared {
		return false, err
	}
	var m int
	if err = d.r.QueryRowContext(ctx, query, args...).Scan(&m); err != nil {
		return false, wrap(err, "count the matches of a search")
	}
	k.all = float64(m) == n
	d.keepsAll.put(k)
	return k.all, nil
}
