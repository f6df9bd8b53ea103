package db

import (
	"context"
	"database/sql"
	"slices"
	"strconv"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/rabin"
)

// Which pages link to a URL (inlinks, a re-crawl's vanished pages, the
// anchor texts a verdict reads) comes from an inverted index of the
// targets of every page's links.
//
// SQLite keeps it in the FTS5 table link_targets (schema 8): a page is a
// document whose words name its links' targets, one word per link,
// "c<crawl id>x<URL fingerprint in 16 hex digits>", so a word is one URL
// of one crawl. An inverted index takes a batch's words as one sorted
// segment and merges segments as they grow; a b-tree index of (crawl,
// target) took a random insert per link, which was most of the writer's
// cost of links. link_target_uses (fts5vocab) lists every use of a word,
// which counts links and pages.
//
// PostgreSQL indexes the targets' URLs in pages.links itself, with GIN on
// trawler_link_urls(links) (pgmigrations/0005): its write path is the
// same as SQLite's without the words.

// targetWord is the word of link_targets naming the URL of fingerprint fp
// in crawl crawlID.
func targetWord(b []byte, crawlID int64, fp uint64) []byte {
	b = append(b, 'c')
	b = strconv.AppendInt(b, crawlID, 10)
	b = append(b, 'x')
	const hex = "0123456789abcdef"
	for shift := 60; shift >= 0; shift -= 4 {
		b = append(b, hex[fp>>uint(shift)&0xf])
	}
	return b
}

// targetWords returns the document of a page with these links: one word
// per link, in page order, separated by spaces.
func targetWords(crawlID int64, links []crawl.Link) string {
	b := make([]byte, 0, len(links)*24)
	for i, l := range links {
		if i > 0 {
			b = append(b, ' ')
		}
		b = targetWord(b, crawlID, rabin.FingerprintString(l.URL))
	}
	return string(b)
}

// pendingTargets are the documents of link_targets a batch adds, by page
// id, written in one statement at its end: FTS5 writes a segment at every
// statement's end, so one statement a page would make a segment a page.
type pendingTargets struct {
	ids  []int64
	docs []string
}

// add sets page id's document.
func (t *pendingTargets) add(id int64, doc string) {
	t.remove(id)
	t.ids = append(t.ids, id)
	t.docs = append(t.docs, doc)
}

// remove forgets page id's document and reports whether it had one.
func (t *pendingTargets) remove(id int64) bool {
	i := slices.Index(t.ids, id)
	if i < 0 {
		return false
	}
	t.ids = slices.Delete(t.ids, i, i+1)
	t.docs = slices.Delete(t.docs, i, i+1)
	return true
}

const (
	// addTargets adds documents given as a JSON array of [page id, words].
	addTargets = `INSERT INTO link_targets (rowid, targets) SELECT value ->> 0, value ->> 1 FROM json_each(?)`
	// removeTargets removes a page's document.
	removeTargets = `DELETE FROM link_targets WHERE rowid = ?`
)

// write adds the documents to link_targets.
func (t *pendingTargets) write(ctx context.Context, tx *sql.Tx) error {
	if len(t.ids) == 0 {
		return nil
	}
	n := 2
	for _, d := range t.docs {
		n += len(d) + 24
	}
	b := make([]byte, 0, n)
	b = append(b, '[')
	for i, id := range t.ids {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = strconv.AppendInt(b, id, 10)
		b = append(b, ',', '"')
		b = append(b, t.docs[i]...) // letters, digits and spaces: nothing to escape
		b = append(b, '"', ']')
	}
	b = append(b, ']')
	_, err := tx.ExecContext(ctx, addTargets, string(b))
	return wrap(err, "index the targets of links")
}

// linkingPage is a stored page with links to a URL, and its links.
type linkingPage struct {
	id    int64
	url   string
	links []crawl.Link
}

// linkingPages returns up to limit pages of the crawl that link to url,
// in the order they were stored, starting after page id after.
func (d *DB) linkingPages(ctx context.Context, crawlID int64, url string, after int64, limit int) ([]linkingPage, error) {
	query, args := `
SELECT p.id, p.url, coalesce(p.links, '') FROM link_targets t JOIN pages p ON p.id = t.rowid
WHERE t.link_targets MATCH ? AND t.rowid > ? AND p.crawl_id = ? ORDER BY t.rowid LIMIT ?`,
		[]any{targetQuery(crawlID, url), after, crawlID, limitOr(limit)}
	if d.pg {
		query, args = `
SELECT id, url, coalesce(links, '') FROM pages
WHERE crawl_id = ? AND trawler_link_urls(links) @> ARRAY[CAST(? AS TEXT)] AND id > ? ORDER BY id LIMIT ?`,
			[]any{crawlID, url, after, limitOr(limit)}
	}
	rows, err := d.r.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, wrap(err, "find the pages linking to %s", url)
	}
	defer rows.Close()
	var out []linkingPage
	for rows.Next() {
		var p linkingPage
		var links string
		if err := rows.Scan(&p.id, &p.url, &links); err != nil {
			return nil, wrap(err, "find the pages linking to %s", url)
		}
		if p.links, err = decodeLinks(links); err != nil {
			return nil, wrap(err, "read the links of %s", p.url)
		}
		out = append(out, p)
	}
	return out, wrap(rows.Err(), "find the pages linking to %s", url)
}

// targetQuery is the FTS5 query for the word of url in the crawl.
func targetQuery(crawlID int64, url string) string {
	return `"` + urlWord(crawlID, url) + `"`
}

// urlWord is the word of url in the crawl (see targetWord).
func urlWord(crawlID int64, url string) string {
	return string(targetWord(nil, crawlID, rabin.FingerprintString(url)))
}

// countLinksTo counts the links to url in the crawl, and the pages they
// are on.
func (d *DB) countLinksTo(ctx context.Context, crawlID int64, url string) (links, pages int64, err error) {
	query, args := `SELECT count(*), count(DISTINCT doc) FROM link_target_uses WHERE term = ?`,
		[]any{urlWord(crawlID, url)}
	if d.pg {
		query, args = `
SELECT coalesce(sum(cardinality(array_positions(trawler_link_urls(links), CAST(?1 AS TEXT)))), 0), count(*) FROM pages
WHERE crawl_id = ?2 AND trawler_link_urls(links) @> ARRAY[CAST(?1 AS TEXT)]`, []any{url, crawlID}
	}
	err = d.r.QueryRowContext(ctx, query, args...).Scan(&links, &pages)
	return links, pages, wrap(err, "count the links to %s", url)
}
