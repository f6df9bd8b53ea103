package db

import (
	"bytes"
	"slices"
	"sync"
)

// rankings keeps the latest rankings of searches (see ranking), so that
// the screens after a listing's first page through the ranking it was
// listed with rather than rank again: a ranking costs a broad search a
// hundred milliseconds or more, a screen read from one a few. A ranking
// is kept while the full-text index is unchanged; it holds no filter, so
// it serves the same search whatever the filters.
type rankings struct {
	mu   sync.Mutex
	list []*ranking // the most recently used last
}

// keptRankings is how many rankings are kept: at most rankWindow ids and
// ranks each, 160 kB for ten thousand.
const keptRankings = 4

// get returns the kept ranking of key made at version, or nil.
func (c *rankings) get(key rankingKey, version []byte) *ranking {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, r := range c.list {
		if r.key == key && bytes.Equal(r.version, version) {
			c.list = append(slices.Delete(c.list, i, i+1), r)
			return r
		}
	}
	return nil
}

// put keeps r in place of any other ranking of its key, dropping the
// least recently used beyond keptRankings.
func (c *rankings) put(r *ranking) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.list = slices.DeleteFunc(c.list, func(o *ranking) bool { return o.key == r.key })
	c.list = append(c.list, r)
	if len(c.list) > keptRankings {
		c.list = slices.Delete(c.list, 0, len(c.list)-keptRankings)
	}
}
