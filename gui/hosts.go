package gui

import (
	"strconv"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/gui/format"
)

// hostsPanel is the Live view's per-host table: each host's queue, its
// fetches in flight, when it may be asked next, its delay and its errors.
// The monitor hands it the engine's Hosts in the same batched update as
// everything else.
type hostsPanel struct {
	content fyne.CanvasObject
	table   *widget.Table
	title   *widget.Label
	list    []crawl.HostStatus
	now     func() time.Time
}

var hostColumns = []textColumn{
	{"Host", 150}, {"Queued", 68}, {"Fetching", 78}, {"Next", 70}, {"Delay", 70}, {"Errors", 56},
}

func newHostsPanel() *hostsPanel {
	p := &hostsPanel{now: time.Now}
	p.title = heading("Hosts")
	note := caption("Queued: URLs in memory for the host (Waiting also counts those stored for later). Fetching: requests under way.")
	p.table = textTable(hostColumns, fyne.TextTruncateClip, func() int { return len(p.list) },
		func(row, col int) string { return p.cell(p.list[row], col) })
	p.content = container.NewBorder(p.title, note, nil, nil, p.table)
	return p
}

func (p *hostsPanel) cell(h crawl.HostStatus, col int) string {
	switch col {
	case 0:
		return h.Host
	case 1:
		return strconv.Itoa(h.Waiting)
	case 2:
		return strconv.Itoa(h.InFlight)
	case 3: // how long until it may be asked again
		wait := h.NextAllowed.Sub(p.now())
		if h.NextAllowed.IsZero() || wait <= 0 {
			return "now"
		}
		return format.Duration(wait)
	case 4:
		if h.Delay == 0 {
			return "—"
		}
		return format.Duration(h.Delay)
	case 5:
		return strconv.Itoa(h.Errors)
	}
	return ""
}

// set shows list, as the monitor sorted it.
func (p *hostsPanel) set(list []crawl.HostStatus) {
	p.list = list
	text := "Hosts"
	if len(list) > 0 {
		text += " (" + strconv.Itoa(len(list)) + ")"
	}
	if p.title.Text != text {
		p.title.SetText(text)
	}
	p.table.Refresh()
}
