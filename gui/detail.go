package gui

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/trawler/trawler/db"
	"github.com/trawler/trawler/gui/browse"
)

// previewChars is how much of a page's text the detail pane shows.
const previewChars = 3000

// listCap is how many links of each kind the pane lists.
const listCap = 200

// detailPane shows everything stored about the selected page: a header
// (title, URL, actions) above tabs, each scrolling on its own, so the text
// is one click away however many links the page has. Hidden while no row
// is selected, so the table has the width.
type detailPane struct {
	ui      *UI
	content fyne.CanvasObject
	empty   fyne.CanvasObject
	body    *fyne.Container // the page shown: header and tabs
	tabs    *container.AppTabs
	want    int64 // page asked for last
	shown   *browse.Detail
}

// The detail pane's tabs, in order.
const (
	tabOverview   = "Overview"
	tabLinks      = "Links"
	tabText       = "Text"
	tabHistory    = "History"
	tabDuplicates = "Duplicates"
	tabWhy        = "Why"
)

func newDetailPane(ui *UI) *detailPane {
	p := &detailPane{ui: ui, body: container.NewStack()}
	p.empty = emptyState("No page selected", "Select a row to see everything Trawler stored about the page.")
	p.body.Hide()
	p.content = container.NewStack(p.empty, p.body)
	p.content.Hide()
	return p
}

// page lays out a header above tabs of the given contents, keeping the
// tab the user had chosen.
func (p *detailPane) page(header fyne.CanvasObject, tabs ...*container.TabItem) {
	chosen := tabOverview
	if p.tabs != nil && p.tabs.Selected() != nil {
		chosen = p.tabs.Selected().Text
	}
	p.tabs = container.NewAppTabs(tabs...)
	for _, t := range tabs {
		if t.Text == chosen {
			p.tabs.Select(t)
		}
	}
	p.body.RemoveAll()
	p.body.Add(container.NewBorder(header, nil, nil, nil, p.tabs))
	p.empty.Hide()
	p.body.Show()
	p.content.Show()
	p.ui.results.layoutSplit()
}

// tab is one tab of the pane: its sections one under the other, scrolling.
func tab(name string, sections ...fyne.CanvasObject) *container.TabItem {
	return container.NewTabItem(name, container.NewVScroll(container.NewVBox(sections...)))
}

// section is a titled part of a tab.
func section(name string, content fyne.CanvasObject) fyne.CanvasObject {
	h := widget.NewLabel(name)
	h.TextStyle.Bold = true
	return container.NewVBox(h, content, widget.NewSeparator())
}

// showSkipped shows a URL the crawl found and did not fetch: why, and
// where it was found.
func (p *detailPane) showSkipped(r db.PageRow) {
	p.want, p.shown = r.ID, nil
	t := heading("Skipped: " + r.SkipReason.Label())
	t.Wrapping = fyne.TextWrapWord
	cp := widget.NewButtonWithIcon("Copy URL", theme.ContentCopyIcon(), func() { p.ui.app.Clipboard().SetContent(r.URL) })
	header := container.NewVBox(t, wrapped(r.URL), container.NewHBox(cp))
	p.page(header, tab(tabWhy, section("Found, not fetched", fieldGrid([]browse.Field{
		{Label: "Reason", Value: r.SkipReason.Label()},
		{Label: "Depth", Value: strconv.Itoa(r.Depth)},
		{Label: "Found on", Value: r.Parent},
		{Label: "Found at", Value: p.ui.opts.TimeText(r.FetchedAt)},
	}))))
}

// chainLines lists the redirect chain through the page, marking the page.
func chainLines(det *browse.Detail) []string {
	pg := det.Page
	var out []string
	if len(pg.Redirects) > 0 { // stored before redirects had rows of their own
		for _, h := range pg.Redirects {
			out = append(out, fmt.Sprintf("%d  %s", h.Status, h.URL))
		}
		return append(out, "→  "+pg.FinalURL)
	}
	if len(det.Chain) < 2 {
		return nil
	}
	for _, h := range det.Chain {
		status := strconv.Itoa(h.Status)
		if h.Status == 0 {
			status = "—"
		}
		line := status + "  " + h.URL
		if h.URL == pg.URL {
			line += "   ← this page"
		}
		out = append(out, line)
	}
	return out
}

func (p *detailPane) clear() {
	p.want, p.shown = 0, nil
	p.body.RemoveAll()
	p.body.Hide()
	p.empty.Show()
	p.content.Hide()
	p.ui.results.layoutSplit()
}

// load reads page id of crawl and shows it.
func (p *detailPane) load(crawl, id int64) {
	p.want = id
	d := p.ui.d
	background(p.ui, func() (*browse.Detail, error) {
		return browse.LoadDetail(context.Background(), d, crawl, id)
	}, func(det *browse.Detail, err error) {
		if p.want != id {
			return
		}
		if err != nil {
			p.ui.showError(err)
			return
		}
		p.show(det)
	})
}

func (p *detailPane) show(det *browse.Detail) {
	p.shown = det
	pg := det.Page
	title := pg.Title
	if title == "" {
		title = "(no title)"
	}
	t := heading(title)
	t.Wrapping = fyne.TextWrapWord
	open := widget.NewButtonWithIcon("Open in browser", theme.ComputerIcon(), func() { p.openInBrowser(pg.URL) })
	cp := widget.NewButtonWithIcon("Copy URL", theme.ContentCopyIcon(), func() { p.ui.app.Clipboard().SetContent(pg.URL) })
	header := container.NewVBox(t, wrapped(pg.URL), container.NewHBox(open, cp))
	var outs []string
	for _, l := range pg.Links {
		outs = append(outs, linkText(l.URL, l.Text, string(l.Kind), l.NoFollow))
	}
	var dups []string
	for _, r := range det.Duplicates {
		dups = append(dups, r.URL)
	}
	var near []string
	if m := det.NearSelf; m.Match != "" {
		near = append(near, fmt.Sprintf("this page: %.0f%% like %s", m.Similarity*100, m.Match))
	}
	for _, r := range det.Near {
		near = append(near, nearText(r))
	}
	text := pg.Text
	if r := []rune(text); len(r) > previewChars {
		text = string(r[:previewChars]) + "…"
	}
	if text == "" {
		text = "no text"
	}
	p.page(header,
		tab(tabOverview, section("Before the download", fieldGrid(det.Before)),
			section("What the download told", fieldGrid(det.After))),
		tab(tabLinks, section(inlinksTitle(det.Inlinks), p.inlinks(det)),
			section(fmt.Sprintf("Outlinks (%d)", len(pg.Links)), lines(outs, "no links on this page"))),
		tab(tabText, wrapped(text)),
		tab(tabHistory, section("Visits", lines(historyLines(det), "no visit recorded"))),
		tab(tabDuplicates, section(fmt.Sprintf("Same text as this page (%d)", len(dups)), lines(dups, "no other page has the same text")),
			section(fmt.Sprintf("Near-duplicates (%d)", len(det.Near)), lines(near, "no near-duplicate of this page"))),
		tab(tabWhy, section("How the crawl reached it", fieldGrid(whyFields(det))),
			section("Redirect chain", lines(chainLines(det), "no redirects")),
			section("Verdict of the word lists", lines(browse.VerdictLines(det.Verdict),
				"not judged: the crawl has no word lists (Advanced › Word lists, or trawler verdicts)"))),
	)
}

// whyFields say why the page was crawled: where it was found, how deep.
func whyFields(det *browse.Detail) []browse.Field {
	pg := det.Page
	found := pg.Parent
	if found == "" {
		found = "a seed of the crawl"
	}
	return []browse.Field{
		{Label: "Found on", Value: found},
		{Label: "Depth", Value: strconv.Itoa(pg.Depth) + " link hops from a seed"},
		{Label: "Fetched as", Value: map[bool]string{true: "a resource (status, type and size only)", false: "a page"}[pg.Resource]},
	}
}

// historyLines are the page's visits, first first: when, status, change.
func historyLines(det *browse.Detail) []string {
	var out []string
	for _, v := range det.History {
		line := fmt.Sprintf("cycle %d  %s  %d  %s", v.Cycle, v.At.Local().Format("2006-01-02 15:04"), v.Status, v.Change)
		if v.WordsAdded+v.WordsRemoved > 0 {
			line += fmt.Sprintf("  (+%d −%d words)", v.WordsAdded, v.WordsRemoved)
		}
		out = append(out, line)
	}
	return out
}

func (p *detailPane) openInBrowser(raw string) {
	u, err := url.Parse(raw)
	if err == nil {
		err = p.ui.app.OpenURL(u)
	}
	if err != nil {
		p.noBrowser(raw, err)
	}
}

// noBrowser says plainly that no browser could be opened, and offers to
// copy the URL instead.
func (p *detailPane) noBrowser(raw string, err error) {
	msg := widget.NewLabel("Trawler could not open a web browser on this computer " +
		"(no program to open links with was found).\nCopy the address and paste it into your browser.")
	msg.Wrapping = fyne.TextWrapWord
	detail := widget.NewLabel(raw)
	detail.Wrapping = fyne.TextWrapBreak
	why := caption("Details: " + err.Error())
	content := container.NewVBox(msg, detail, why)
	d := dialog.NewCustomConfirm("No browser found", "Copy URL", "Close", content, func(copyIt bool) {
		if copyIt {
			p.ui.app.Clipboard().SetContent(raw)
		}
	}, p.ui.win)
	d.Resize(fyne.NewSize(520, 0))
	d.Show()
}

func linkText(u, text, kind string, nofollow bool) string {
	var b strings.Builder
	b.WriteString(u)
	if text != "" {
		fmt.Fprintf(&b, "  “%s”", text)
	}
	if kind != "" && kind != "a" {
		fmt.Fprintf(&b, "  (%s)", kind)
	}
	if nofollow {
		b.WriteString("  nofollow")
	}
	return b.String()
}

// fieldGrid lays labelled values out in two columns; empty values show as
// a dash, so every field is listed.
func fieldGrid(fields []browse.Field) fyne.CanvasObject {
	var objs []fyne.CanvasObject
	for _, f := range fields {
		l := dim(f.Label, theme.SizeNameText)
		l.Wrapping = fyne.TextWrapOff
		v := f.Value
		if v == "" {
			v = "—"
		}
		objs = append(objs, l, wrapped(v))
	}
	return container.New(layout.NewFormLayout(), objs...)
}

// lines lists texts one per line, at most listCap of them.
func lines(texts []string, none string) fyne.CanvasObject {
	if len(texts) == 0 {
		return dim(none, theme.SizeNameText)
	}
	more := len(texts) - listCap
	if more > 0 {
		texts = texts[:listCap]
	}
	box := container.NewVBox()
	for _, t := range texts {
		box.Add(wrapped(t))
	}
	if more > 0 {
		box.Add(caption(fmt.Sprintf("and %d more", more)))
	}
	return box
}

// wrapped is a selectable label that breaks long lines anywhere.
func wrapped(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord // at word boundaries; a word longer than the line is broken
	l.Selectable = true
	return l
}

// nearText is one near-duplicate line: how similar the page is to the one
// it matched, or "first" for the group's first page, and its URL.
func nearText(r db.NearRow) string {
	if r.Match == "" {
		return "first  " + r.URL
	}
	return fmt.Sprintf("%.0f%%  %s", r.Similarity*100, r.URL)
}
