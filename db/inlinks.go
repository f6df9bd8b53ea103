package db

import (
	"context"

	"github.com/trawler/trawler/crawl"
)

// InlinkCount is how many links of a crawl point at a URL, and from how
// many pages: "1,455 links from 21 pages".
type InlinkCount struct {
	Links, Pages int64
}

// CountInlinks counts the links to url stored in the crawl.
func (d *DB) CountInlinks(ctx context.Context, crawlID int64, url string) (InlinkCount, error) {
	links, pages, err := d.countLinksTo(ctx, crawlID, url)
	return InlinkCount{Links: links, Pages: pages}, err
}

// Anchor is one link from a page: its text, kind and rel=nofollow.
type Anchor struct {
	Text     string
	Kind     crawl.LinkKind
	NoFollow bool
}

// InlinkSource is a page that links to a URL, with each of its links there.
type InlinkSource struct {
	PageID  int64 // pass the last one as after to read on
	URL     string
	Anchors []Anchor
}

// InlinkSources returns up to limit pages linking to url, in the order
// they were stored, starting after page id after (0 from the start), each
// with all its links to url, so a page that links five times is one row.
func (d *DB) InlinkSources(ctx context.Context, crawlID int64, url string, after int64, limit int) ([]InlinkSource, error) {
	pages, err := d.linkingPages(ctx, crawlID, url, after, limit)
	if err != nil {
		return nil, err
	}
	out := make([]InlinkSource, 0, len(pages))
	for _, p := range pages {
		src := InlinkSource{PageID: p.id, URL: p.url}
		for _, l := range p.links {
			if l.URL == url {
				src.Anchors = append(src.Anchors, Anchor{Text: l.Text, Kind: l.Kind, NoFollow: l.NoFollow})
			}
		}
		if len(src.Anchors) > 0 { // none: a page whose link has url's fingerprint and another URL
			out = append(out, src)
		}
	}
	return out, nil
}
