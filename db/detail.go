package db

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/trawler/trawler/crawl"
)

const pageColumns = `url, fp, host, ip, depth, parent, status, final_url, content_type, charset,
    content_encoding, content_length, length, last_modified, expires, etag, title, description,
    keywords, author, robots, text, content_fp, duplicate_of, fetched_at, duration, redirects,
    resource, err, near_group, near_of, near_similarity, redirect_to, truncated`

// Page returns everything stored about one page, its redirect chain and
// its links included, or ErrNotFound. Its sketch is not read; NearOf is
// the URL fingerprint of its best near-duplicate match (NearDuplicates
// lists the group with URLs).
func (d *DB) Page(ctx context.Context, crawlID, id int64) (*crawl.Page, error) {
	p := new(crawl.Page)
	var fp, contentFP, fetched, duration, group, nearOf int64
	var lastMod, expires sql.NullInt64
	var redirects sql.NullString
	var links string
	err := d.r.QueryRowContext(ctx, `SELECT `+pageColumns+`, coalesce(links, '') FROM pages WHERE crawl_id = ? AND id = ?`,
		crawlID, id).Scan(
		&p.URL, &fp, &p.Host, &p.IP, &p.Depth, &p.Parent, &p.Status, &p.FinalURL, &p.ContentType,
		&p.Charset, &p.ContentEncoding, &p.ContentLength, &p.Length, &lastMod, &expires, &p.ETag,
		&p.Title, &p.Description, &p.Keywords, &p.Author, &p.Robots, &p.Text, &contentFP,
		&p.DuplicateOf, &fetched, &duration, &redirects, &p.Resource, &p.Err, &group, &nearOf, &p.NearSimilarity,
		&p.RedirectTo, &p.Truncated, &links)
	if err == sql.ErrNoRows {
		return nil, fmt.Errorf("page %d of crawl %d: %w", id, crawlID, ErrNotFound)
	}
	if err != nil {
		return nil, wrap(err, "read page %d", id)
	}
	p.FP, p.ContentFP = uint64(fp), uint64(contentFP)
	p.NearGroup, p.NearOf = uint64(group), uint64(nearOf)
	p.LastModified, p.Expires = fromSeconds(lastMod), fromSeconds(expires)
	p.FetchedAt, p.Duration = time.Unix(0, fetched).UTC(), time.Duration(duration)
	if redirects.Valid {
		if err := json.Unmarshal([]byte(redirects.String), &p.Redirects); err != nil {
			return nil, wrap(err, "decode redirects of page %d", id)
		}
	}
	p.Links, err = decodeLinks(links)
	return p, wrap(err, "read links of page %d", id)
}

// PageID returns the id of the page stored for url, or ErrNotFound.
func (d *DB) PageID(ctx context.Context, crawlID int64, url string) (int64, error) {
	var id int64
	err := d.r.QueryRowContext(ctx, `SELECT id FROM pages WHERE crawl_id = ? AND url = ?`, crawlID, url).Scan(&id)
	if err == sql.ErrNoRows {
		return 0, fmt.Errorf("page %s: %w", url, ErrNotFound)
	}
	return id, wrap(err, "find page %s", url)
}

// LinkRow is one reference between two URLs of a crawl, as the detail
// pane lists it.
type LinkRow struct {
	From     string // URL of the page the link is on
	To       string
	Kind     crawl.LinkKind
	Text     string
	NoFollow bool // rel="nofollow" on the link
}

// Inlinks returns up to limit links to url from pages of the crawl, in
// the order those pages were stored.
func (d *DB) Inlinks(ctx context.Context, crawlID int64, url string, limit int) ([]LinkRow, error) {
	var list []LinkRow
	for after := int64(0); ; {
		pages, err := d.linkingPages(ctx, crawlID, url, after, inlinkPages)
		if err != nil {
			return nil, err
		}
		for _, p := range pages {
			for _, l := range p.links {
				if l.URL != url {
					continue
				}
				if limit > 0 && len(list) == limit {
					return list, nil
				}
				list = append(list, LinkRow{From: p.url, To: l.URL, Kind: l.Kind, Text: l.Text, NoFollow: l.NoFollow})
			}
			after = p.id
		}
		if len(pages) < inlinkPages {
			return list, nil
		}
	}
}

// inlinkPages is how many linking pages Inlinks reads at a time.
const inlinkPages = 256

// Outlinks returns up to limit links found on the page stored for url, in
// page order.
func (d *DB) Outlinks(ctx context.Context, crawlID int64, url string, limit int) ([]LinkRow, error) {
	var stored string
	err := d.r.QueryRowContext(ctx, `SELECT coalesce(links, '') FROM pages WHERE crawl_id = ? AND url = ?`,
		crawlID, url).Scan(&stored)
	if err == sql.ErrNoRows {
		return nil, nil
	}
	if err != nil {
		return nil, wrap(err, "read outlinks")
	}
	links, err := decodeLinks(stored)
	if err != nil {
		return nil, wrap(err, "read outlinks of %s", url)
	}
	if limit > 0 && len(links) > limit {
		links = links[:limit]
	}
	list := make([]LinkRow, len(links))
	for i, l := range links {
		list[i] = LinkRow{From: url, To: l.URL, Kind: l.Kind, Text: l.Text, NoFollow: l.NoFollow}
	}
	return list, nil
}

func limitOr(n int) int {
	if n <= 0 {
		return math.MaxInt64 // no limit, in both SQL dialects
	}
	return n
}

// Duplicates returns up to limit pages of the crawl whose body text has the
// fingerprint contentFP, the first stored first.
func (d *DB) Duplicates(ctx context.Context, crawlID int64, contentFP uint64, limit int) ([]PageRow, error) {
	rows, err := d.r.QueryContext(ctx, `SELECT `+rowColumns+` FROM pages p
WHERE p.crawl_id = ? AND p.content_fp = ? AND p.content_fp <> 0 ORDER BY p.id LIMIT ?`,
		crawlID, int64(contentFP), limitOr(limit))
	if err != nil {
		return nil, wrap(err, "find duplicates")
	}
	return collectRows(rows, "find duplicates")
}

func collectRows(rows *sql.Rows, what string) ([]PageRow, error) {
	defer rows.Close()
	var list []PageRow
	for rows.Next() {
		r, err := scanRow(rows)
		if err != nil {
			return nil, wrap(err, "%s", what)
		}
		list = append(list, r)
	}
	return list, wrap(rows.Err(), "%s", what)
}

// Facet is one value of a filter drop-down with how many pages have it.
type Facet struct {
	Value string
	Count int64
}

// Hosts lists the hosts of a crawl's pages with their page counts.
func (d *DB) Hosts(ctx context.Context, crawlID int64) ([]Facet, error) {
	return d.facets(ctx, "host", crawlID)
}

// ContentTypes lists the media types of a crawl's pages with their counts.
func (d *DB) ContentTypes(ctx context.Context, crawlID int64) ([]Facet, error) {
	return d.facets(ctx, "content_type", crawlID)
}

// facets lists the values of a column of page_counts (host or
// content_type) with their pages, from the kept counts.
func (d *DB) facets(ctx context.Context, col string, crawlID int64) ([]Facet, error) {
	rows, err := d.r.QueryContext(ctx, `SELECT `+col+`, sum(pages) FROM page_counts WHERE crawl_id = ?
GROUP BY `+col+` HAVING sum(pages) > 0 ORDER BY `+col, crawlID)
	if err != nil {
		return nil, wrap(err, "list %s values", col)
	}
	defer rows.Close()
	var list []Facet
	for rows.Next() {
		var f Facet
		if err := rows.Scan(&f.Value, &f.Count); err != nil {
			return nil, wrap(err, "list %s values", col)
		}
		list = append(list, f)
	}
	return list, wrap(rows.Err(), "list %s values", col)
}

// ErrorRow is one entry of a crawl's error log.
type ErrorRow struct {
	URL     string
	Status  int // 0 when no HTTP answer came
	Message string
	At      time.Time
}

// Errors returns up to limit entries of a crawl's error log, newest first.
func (d *DB) Errors(ctx context.Context, crawlID int64, limit int) ([]ErrorRow, error) {
	rows, err := d.r.QueryContext(ctx,
		`SELECT url, status, message, at FROM errors WHERE crawl_id = ? ORDER BY id DESC LIMIT ?`, crawlID, limitOr(limit))
	if err != nil {
		return nil, wrap(err, "read errors")
	}
	defer rows.Close()
	var list []ErrorRow
	for rows.Next() {
		var e ErrorRow
		var at int64
		if err := rows.Scan(&e.URL, &e.Status, &e.Message, &at); err != nil {
			return nil, wrap(err, "read errors")
		}
		e.At = time.Unix(0, at).UTC()
		list = append(list, e)
	}
	return list, wrap(rows.Err(), "read errors")
}
