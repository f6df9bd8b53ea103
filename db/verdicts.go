package db

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/wordscan"
)

// scorable is the condition a stored page meets to be judged by the word
// lists: fetched (2xx or 3xx, 304 included) as a page, not a resource.
const scorable = `status BETWEEN 200 AND 399 AND err = '' AND resource = 0`

// markPending queues a stored page for scoring, or again if it was
// scored: its mark counts up, so a verdict read before is not saved.
const markPending = `
INSERT INTO verdicts (page_id, crawl_id) SELECT id, crawl_id FROM pages
WHERE crawl_id = ?1 AND fp = ?2 AND ` + scorable + `
ON CONFLICT (page_id) DO UPDATE SET pending = verdicts.pending + 1`

const selectPending = `
SELECT v.page_id, v.pending, p.url, p.title, p.text FROM verdicts v JOIN pages p ON p.id = v.page_id
WHERE v.crawl_id = ? AND v.pending > 0 ORDER BY v.page_id LIMIT ?`

const saveVerdict = `
UPDATE verdicts SET pending = 0, verdict = ?, score = ?, category = ?, terms = ?, lists = ?, scored_at = ?
WHERE page_id = ? AND pending = ?`

var _ crawl.VerdictStore = (*CrawlStore)(nil)

// PendingVerdicts returns up to n pages of the crawl waiting for their
// verdict, with the anchor texts of the links that point at them.
func (s *CrawlStore) PendingVerdicts(ctx context.Context, n int) ([]crawl.ScoreDoc, error) {
	rows, err := s.d.r.QueryContext(ctx, selectPending, s.id, n)
	if err != nil {
		return nil, wrap(err, "read pages to score")
	}
	var docs []crawl.ScoreDoc
	for rows.Next() {
		var d crawl.ScoreDoc
		if err := rows.Scan(&d.PageID, &d.Mark, &d.URL, &d.Title, &d.Text); err != nil {
			rows.Close()
			return nil, wrap(err, "read pages to score")
		}
		docs = append(docs, d)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, wrap(err, "read pages to score")
	}
	for i := range docs {
		if docs[i].Anchors, err = s.anchors(ctx, docs[i].URL); err != nil {
			return nil, err
		}
	}
	return docs, nil
}

// Anchor texts a verdict reads: at most maxAnchors different ones, from
// the first anchorPages pages linking to the page, so that a page every
// other page links to costs no more to judge than any other.
const (
	maxAnchors  = 64
	anchorPages = 1024
)

// anchors returns the different anchor texts of the links to url.
func (s *CrawlStore) anchors(ctx context.Context, url string) ([]string, error) {
	pages, err := s.d.linkingPages(ctx, s.id, url, 0, anchorPages)
	if err != nil {
		return nil, err
	}
	var texts []string
	for _, p := range pages {
		for _, l := range p.links {
			if l.URL == url && l.Text != "" && !slices.Contains(texts, l.Text) {
				if texts = append(texts, l.Text); len(texts) == maxAnchors {
					return texts, nil
				}
			}
		}
	}
	return texts, nil
}

// SaveVerdicts stores verdicts in one transaction. A verdict whose page
// was marked again since it was read is dropped: the page waits for the
// scorer with its new text.
func (s *CrawlStore) SaveVerdicts(ctx context.Context, vs []crawl.Verdict) error {
	tx, err := s.d.w.BeginTx(ctx, nil)
	if err != nil {
		return wrap(err, "store verdicts")
	}
	defer tx.Rollback()
	st, err := tx.PrepareContext(ctx, saveVerdict)
	if err != nil {
		return wrap(err, "store verdicts")
	}
	defer st.Close()
	now := time.Now().UnixNano()
	for _, v := range vs {
		terms, err := hitsJSON(v.Hits)
		if err != nil {
			return fmt.Errorf("store verdicts: %w", err)
		}
		if _, err := st.ExecContext(ctx, string(v.Verdict), v.Score, v.Category, terms, v.Lists, now, v.PageID, v.Mark); err != nil {
			return wrap(err, "store the verdict of page %d", v.PageID)
		}
	}
	return wrap(tx.Commit(), "store verdicts")
}

// hit is a matched term as the verdicts table keeps it.
type hit struct {
	Term     string  `json:"term"`
	Category string  `json:"category,omitempty"`
	Weight   float64 `json:"weight"`
	Title    int     `json:"title,omitempty"`
	Text     int     `json:"text,omitempty"`
	Anchor   int     `json:"anchor,omitempty"`
}

func hitsJSON(hs []wordscan.Hit) (string, error) {
	if len(hs) == 0 {
		return "", nil
	}
	out := make([]hit, len(hs))
	for i, h := range hs {
		out[i] = hit{Term: h.Term, Category: h.Category, Weight: h.Weight, Title: h.Title, Text: h.Text, Anchor: h.Anchor}
	}
	b, err := json.Marshal(out)
	return string(b), err
}

func hitsFromJSON(s string) ([]wordscan.Hit, error) {
	if s == "" {
		return nil, nil
	}
	var in []hit
	if err := json.Unmarshal([]byte(s), &in); err != nil {
		return nil, err
	}
	out := make([]wordscan.Hit, len(in))
	for i, h := range in {
		out[i] = wordscan.Hit{Term: h.Term, Category: h.Category, Weight: h.Weight, Title: h.Title, Text: h.Text, Anchor: h.Anchor}
	}
	return out, nil
}

// HitsText writes matched terms for people, most weighty first, each
// with where it matched: "casino (title 1, text 2); poker (anchor 1)".
func HitsText(hs []wordscan.Hit) string {
	var b strings.Builder
	for i, h := range hs {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(h.Term)
		b.WriteString(" (")
		sep := ""
		for _, p := range []struct {
			name string
			n    int
		}{{"title", h.Title}, {"text", h.Text}, {"anchor", h.Anchor}} {
			if p.n > 0 {
				fmt.Fprintf(&b, "%s%s %d", sep, p.name, p.n)
				sep = ", "
			}
		}
		b.WriteString(")")
	}
	return b.String()
}

// Rescore marks every scorable page of a crawl for scoring again, those
// stored before it had word lists included, and returns how many. Their
// old verdicts stay until the scorer replaces them.
func (d *DB) Rescore(ctx context.Context, crawlID int64) (int64, error) {
	res, err := d.w.ExecContext(ctx, `
INSERT INTO verdicts (page_id, crawl_id) SELECT id, crawl_id FROM pages WHERE crawl_id = ? AND `+scorable+`
ON CONFLICT (page_id) DO UPDATE SET pending = verdicts.pending + 1`, crawlID)
	if err != nil {
		return 0, wrap(err, "mark the pages of crawl %d for scoring", crawlID)
	}
	n, err := res.RowsAffected()
	return n, wrap(err, "mark the pages of crawl %d for scoring", crawlID)
}

// SetWordLists records the word lists a crawl's pages are judged by, so
// that resuming it, re-crawling it and the gateway's crawler use them.
func (d *DB) SetWordLists(ctx context.Context, crawlID int64, paths []string) error {
	cfg, err := d.Settings(ctx, crawlID)
	if err != nil {
		return err
	}
	cfg.WordLists = paths
	b, err := json.Marshal(cfg)
	if err != nil {
		return fmt.Errorf("encode settings of crawl %d: %w", crawlID, err)
	}
	return d.update(ctx, crawlID, "set the word lists of crawl", `UPDATE crawls SET settings = ? WHERE id = ?`, string(b), crawlID)
}

// PageVerdict is a page's verdict as stored: what the word lists found.
type PageVerdict struct {
	Verdict  wordscan.Verdict // empty while the page was never scored
	Score    float64
	Category string
	Hits     []wordscan.Hit
	Lists    string    // hash of the lists that scored it
	ScoredAt time.Time // zero while never scored
	Pending  bool      // stored again (or lists changed) since: a new verdict is on its way
}

// Verdict returns the verdict of a stored page; ok is false when the page
// has none (its crawl has no word lists, or it is not scorable).
func (d *DB) Verdict(ctx context.Context, pageID int64) (v PageVerdict, ok bool, err error) {
	var verdict, terms string
	var pending int64
	var at sql.NullInt64
	err = d.r.QueryRowContext(ctx, `SELECT verdict, score, category, terms, lists, scored_at, pending
FROM verdicts WHERE page_id = ?`, pageID).Scan(&verdict, &v.Score, &v.Category, &terms, &v.Lists, &at, &pending)
	if err == sql.ErrNoRows {
		return v, false, nil
	}
	if err != nil {
		return v, false, wrap(err, "read the verdict of page %d", pageID)
	}
	v.Verdict, v.ScoredAt, v.Pending = wordscan.Verdict(verdict), fromNanos(at), pending > 0
	if v.Hits, err = hitsFromJSON(terms); err != nil {
		return v, false, wrap(err, "read the verdict of page %d", pageID)
	}
	return v, true, nil
}

// VerdictCounts returns how many of a crawl's pages have each verdict,
// pending ones under the empty verdict if never scored.
func (d *DB) VerdictCounts(ctx context.Context, crawlID int64) (map[wordscan.Verdict]int64, error) {
	rows, err := d.r.QueryContext(ctx, `SELECT verdict, count(*) FROM verdicts WHERE crawl_id = ? GROUP BY verdict`, crawlID)
	if err != nil {
		return nil, wrap(err, "count verdicts of crawl %d", crawlID)
	}
	defer rows.Close()
	out := map[wordscan.Verdict]int64{}
	for rows.Next() {
		var v string
		var n int64
		if err := rows.Scan(&v, &n); err != nil {
			return nil, wrap(err, "count verdicts of crawl %d", crawlID)
		}
		out[wordscan.Verdict(v)] = n
	}
	return out, wrap(rows.Err(), "count verdicts of crawl %d", crawlID)
}
