package browse

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/wordscan"
	"github.com/trawler/trawler/db"
	"github.com/trawler/trawler/gui/format"
)

// LinkLimit bounds the duplicates the detail pane lists.
const LinkLimit = 500

// InlinkPage is how many linking pages the detail pane reads at a time.
const InlinkPage = 50

// Field is one labelled value of the detail pane.
type Field struct {
	Label, Value string
}

// Detail is everything the detail pane shows about one page.
type Detail struct {
	ID         int64
	Page       *crawl.Page
	Before     []Field           // known before the download (paper 003 table 1)
	After      []Field           // learnt from it (paper 003 table 2)
	Inlinks    db.InlinkCount    // how many links, from how many pages
	Sources    []db.InlinkSource // the first InlinkPage pages linking here, with their anchors
	Duplicates []db.PageRow      // other pages with the same text
	Near       []db.NearRow      // the other pages of its near-duplicate group
	NearSelf   db.NearRow        // the page's own row in its group: what it matched, how closely
	Chain      []crawl.Hop       // the redirect chain through the page, first to last; one hop when none
	History    []db.Visit        // the page's visits, one per cycle, first first
	Verdict    db.PageVerdict    // what the crawl's word lists found; Verdict empty when never scored
}

// LoadDetail reads page id of a crawl with its inlinks and duplicates.
func LoadDetail(ctx context.Context, d *db.DB, crawlID, id int64) (*Detail, error) {
	p, err := d.Page(ctx, crawlID, id)
	if err != nil {
		return nil, fmt.Errorf("read page %d: %w", id, err)
	}
	det := &Detail{ID: id, Page: p, Before: beforeFields(p), After: afterFields(p)}
	if det.History, err = d.History(ctx, crawlID, p.URL); err != nil {
		return nil, fmt.Errorf("read the visits of %s: %w", p.URL, err)
	}
	if det.Verdict, _, err = d.Verdict(ctx, id); err != nil {
		return nil, fmt.Errorf("read the verdict of %s: %w", p.URL, err)
	}
	if det.Chain, err = d.RedirectChain(ctx, crawlID, p.URL); err != nil {
		return nil, fmt.Errorf("read the redirect chain of %s: %w", p.URL, err)
	}
	if det.Inlinks, err = d.CountInlinks(ctx, crawlID, p.URL); err != nil {
		return nil, fmt.Errorf("count links to %s: %w", p.URL, err)
	}
	if det.Sources, err = d.InlinkSources(ctx, crawlID, p.URL, 0, InlinkPage); err != nil {
		return nil, fmt.Errorf("read links to %s: %w", p.URL, err)
	}
	if p.ContentFP != 0 {
		dups, err := d.Duplicates(ctx, crawlID, p.ContentFP, LinkLimit)
		if err != nil {
			return nil, fmt.Errorf("find duplicates of %s: %w", p.URL, err)
		}
		for _, r := range dups {
			if r.ID != id {
				det.Duplicates = append(det.Duplicates, r)
			}
		}
	}
	near, err := d.NearDuplicates(ctx, crawlID, id, LinkLimit)
	if err != nil {
		return nil, fmt.Errorf("find near-duplicates of %s: %w", p.URL, err)
	}
	for _, r := range near {
		if r.ID == id {
			det.NearSelf = r
		} else {
			det.Near = append(det.Near, r)
		}
	}
	return det, nil
}

func beforeFields(p *crawl.Page) []Field {
	return []Field{
		{"URL", p.URL},
		{"Fingerprint", fmt.Sprintf("%016x", p.FP)},
		{"Host", p.Host},
		{"IP address", p.IP},
		{"Depth", strconv.Itoa(p.Depth)},
		{"Found on", p.Parent},
	}
}

func afterFields(p *crawl.Page) []Field {
	return []Field{
		{"Status", statusText(p.Status)},
		{"Error", p.Err},
		{"Redirects to", p.RedirectTo},
		{"Content type", p.ContentType},
		{"Charset", p.Charset},
		{"Content encoding", p.ContentEncoding},
		{"Content length", contentLength(p.ContentLength)},
		{"Body size", bodySize(p)},
		{"Last modified", timeText(p.LastModified)},
		{"Expires", timeText(p.Expires)},
		{"ETag", p.ETag},
		{"Title", p.Title},
		{"Description", p.Description},
		{"Keywords", p.Keywords},
		{"Author", p.Author},
		{"Robots", p.Robots},
		{"Text fingerprint", fingerprint(p.ContentFP)},
		{"Duplicate of", p.DuplicateOf},
		{"Fetched at", timeText(p.FetchedAt)},
		{"Download time", format.Duration(p.Duration)},
		{"Fetched as", fetchedAs(p.Resource)},
	}
}

// bodySize is the size of the body read, saying when the size cap cut it.
func bodySize(p *crawl.Page) string {
	s := humanize.IBytes(uint64(max(0, p.Length)))
	if p.Truncated {
		s += " (truncated at the size cap: text and links are from this part)"
	}
	return s
}

func statusText(s int) string {
	if s == 0 {
		return "no response"
	}
	return strconv.Itoa(s)
}

func contentLength(n int64) string {
	if n < 0 {
		return "not sent"
	}
	return humanize.Comma(n) + " bytes"
}

func timeText(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02 15:04:05 UTC")
}

func fingerprint(fp uint64) string {
	if fp == 0 {
		return ""
	}
	return fmt.Sprintf("%016x", fp)
}

func fetchedAs(resource bool) string {
	if resource {
		return "resource (status, type and size only)"
	}
	return "page"
}

// Facets are the values the filter drop-downs offer for a crawl.
type Facets struct {
	Hosts, Types []db.Facet
}

// LoadFacets reads the hosts and media types of a crawl's pages.
func LoadFacets(ctx context.Context, d *db.DB, crawlID int64) (Facets, error) {
	var f Facets
	var err error
	if f.Hosts, err = d.Hosts(ctx, crawlID); err != nil {
		return f, fmt.Errorf("list hosts: %w", err)
	}
	if f.Types, err = d.ContentTypes(ctx, crawlID); err != nil {
		return f, fmt.Errorf("list content types: %w", err)
	}
	return f, nil
}

// Export writes the pages q selects (all of them, in q's order) as CSV to
// w, with the command line's columns and escaping. progress, if not nil,
// gets the rows written and the rows to write as it goes.
func Export(ctx context.Context, d *db.DB, w io.Writer, q db.PageQuery, progress func(done, total int)) (int, error) {
	q.After, q.Limit = nil, 0
	total, err := d.CountPages(ctx, q)
	if err != nil {
		return 0, fmt.Errorf("count the pages to export: %w", err)
	}
	if progress != nil {
		progress(0, total)
	}
	n, err := d.ExportCSV(ctx, w, q, func(done int) {
		if progress != nil {
			progress(done, max(total, done))
		}
	})
	if err != nil {
		return n, fmt.Errorf("export %d pages: %w", total, err)
	}
	return n, nil
}

// VerdictLines say why the word lists judged the page as they did: the
// verdict with its score, then each matched term with where it matched.
func VerdictLines(v db.PageVerdict) []string {
	if v.Verdict == "" {
		if v.Pending {
			return []string{"not judged yet: the scorer has not read this page"}
		}
		return nil
	}
	head := string(v.Verdict)
	switch {
	case v.Category != "":
		head += fmt.Sprintf(": score %g in %s", v.Score, v.Category)
	case len(v.Hits) == 0:
		head += ": no listed word on the page"
	}
	if v.Pending {
		head += " (the page changed since: a new verdict is on its way)"
	}
	out := []string{head}
	for _, h := range v.Hits {
		out = append(out, fmt.Sprintf("%s  weight %g, %s  —  %s", h.Term, h.Weight, h.Category, placesText(h)))
	}
	if !v.ScoredAt.IsZero() {
		out = append(out, "judged "+v.ScoredAt.Local().Format("2006-01-02 15:04:05"))
	}
	return out
}

func placesText(h wordscan.Hit) string {
	var parts []string
	for _, p := range []struct {
		name string
		n    int
	}{{"title", h.Title}, {"text", h.Text}, {"anchors", h.Anchor}} {
		if p.n > 0 {
			parts = append(parts, fmt.Sprintf("%d× in the %s", p.n, p.name))
		}
	}
	return strings.Join(parts, ", ")
}
