package gui

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/trawler/trawler/db"
	"github.com/trawler/trawler/gui/browse"
	"github.com/trawler/trawler/gui/format"
)

// inlinksTitle gives the true totals: "Inlinks: 1,455 links from 21 pages".
func inlinksTitle(c db.InlinkCount) string {
	return fmt.Sprintf("Inlinks: %s from %s", format.Count(c.Links, "link", "links"), format.Count(c.Pages, "page", "pages"))
}

// inlinks lists the pages that link to the shown page, one line each with
// its anchors, and reads the next browse.InlinkPage of them on request.
func (p *detailPane) inlinks(det *browse.Detail) fyne.CanvasObject {
	if det.Inlinks.Links == 0 {
		return dim("no stored page links here", theme.SizeNameText)
	}
	box := container.NewVBox()
	shown, last := 0, int64(0)
	add := func(srcs []db.InlinkSource) {
		for _, s := range srcs {
			box.Add(wrapped(sourceText(s)))
		}
		shown += len(srcs)
		if len(srcs) > 0 {
			last = srcs[len(srcs)-1].PageID
		}
	}
	add(det.Sources)
	d, crawl, url := p.ui.d, p.ui.crawl, det.Page.URL
	var more *widget.Button
	label := func() string {
		return fmt.Sprintf("Show more (%s of %s shown)", format.Count(int64(shown), "page", "pages"),
			format.Count(det.Inlinks.Pages, "page", "pages"))
	}
	more = widget.NewButton(label(), func() {
		more.Disable()
		from := last
		background(p.ui, func() ([]db.InlinkSource, error) {
			return d.InlinkSources(context.Background(), crawl, url, from, browse.InlinkPage)
		}, func(srcs []db.InlinkSource, err error) {
			if p.shown != det {
				return // another page is shown now
			}
			if err != nil {
				p.ui.showError(fmt.Errorf("read the links to %s: %w", url, err))
				more.Enable()
				return
			}
			box.Remove(more)
			add(srcs)
			if int64(shown) < det.Inlinks.Pages && len(srcs) > 0 {
				more.SetText(label())
				more.Enable()
				box.Add(more)
			}
		})
	})
	if int64(shown) < det.Inlinks.Pages {
		box.Add(more)
	}
	return box
}

// sourceText is one linking page with its anchors: the URL, then each
// distinct anchor text once, and how many links it holds when more than one.
func sourceText(s db.InlinkSource) string {
	var b strings.Builder
	b.WriteString(s.URL)
	seen := map[string]bool{}
	var anchors []string
	nofollow := false
	for _, a := range s.Anchors {
		nofollow = nofollow || a.NoFollow
		t := strings.TrimSpace(a.Text)
		if t == "" && a.Kind != "" && a.Kind != "a" {
			t = "(" + string(a.Kind) + ")"
		}
		if t != "" && !seen[t] {
			seen[t] = true
			anchors = append(anchors, "“"+t+"”")
		}
	}
	if len(anchors) > 0 {
		b.WriteString("  " + strings.Join(anchors, ", "))
	}
	if n := len(s.Anchors); n > 1 {
		fmt.Fprintf(&b, "  (%d links)", n)
	}
	if nofollow {
		b.WriteString("  nofollow")
	}
	return b.String()
}
