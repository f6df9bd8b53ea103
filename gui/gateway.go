package gui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/dustin/go-humanize"

	"github.com/trawler/trawler/crawl/logfile"
	"github.com/trawler/trawler/gateway"
	"github.com/trawler/trawler/gateway/feed"
	"github.com/trawler/trawler/gui/form"
)

// gatewayEvery is how often the Gateway screen reads the running
// gateway's counts and latest decisions: a bounded rate, whatever the
// traffic.
const gatewayEvery = 250 * time.Millisecond

// gatewayScreen runs paper 002's filtering gateway over the open database
// and the crawl shown in Results: its settings, live counts and latest
// decisions, and the lists, reports and word lists it decides by.
type gatewayScreen struct {
	ui      *UI
	content fyne.CanvasObject

	listen, allowFrom, policy, maxAge *widget.Entry
	unknown                           *widget.Select
	crawlUnknown                      *widget.Check
	start, stop                       *widget.Button
	status, counts                    *widget.Label

	srv      *feed.Server
	endPoll  context.CancelFunc // stops reading the running gateway
	decided  []gateway.Decision
	decTable *widget.Table
	lists    *listsPane
}

var decisionColumns = []textColumn{{"Time", 75}, {"Client", 85}, {"Decision", 80}, {"Request", 250}, {"Entry", 300}}

func newGatewayScreen(ui *UI) *gatewayScreen {
	s := &gatewayScreen{ui: ui}
	s.listen = widget.NewEntry()
	s.listen.SetText(gateway.DefaultListen)
	s.allowFrom = widget.NewEntry()
	s.allowFrom.PlaceHolder = "networks beyond this machine, e.g. 192.168.1.0/24"
	s.policy = widget.NewEntry()
	s.policy.PlaceHolder = "a policy file (TOML): rules per client and time of day"
	s.maxAge = widget.NewEntry()
	s.maxAge.SetText(form.Duration(feed.DefaultMaxAge))
	s.unknown = widget.NewSelect([]string{"allow the first time", "block"}, nil)
	s.unknown.SetSelected("allow the first time")
	s.crawlUnknown = widget.NewCheck("crawl unknown URLs here", nil)
	s.crawlUnknown.SetChecked(true)
	s.start = widget.NewButtonWithIcon("Start", theme.MediaPlayIcon(), s.onStart)
	s.start.Importance = widget.HighImportance
	s.stop = widget.NewButtonWithIcon("Stop", theme.MediaStopIcon(), s.onStop)
	s.stop.Disable()
	s.status = widget.NewLabel("Stopped.")
	s.status.Wrapping = fyne.TextWrapWord
	s.counts = widget.NewLabel("")
	s.decTable = textTable(decisionColumns, fyne.TextTruncateEllipsis, func() int { return len(s.decided) },
		func(row, col int) string { return s.decisionCell(s.decided[row], col) })
	s.lists = newListsPane(ui)

	s.listen.PlaceHolder = "host:port; only this machine unless Allow from names more"
	s.maxAge.PlaceHolder = "then the page is crawled again, e.g. 30d"
	settings := container.NewGridWithColumns(2,
		formGrid(
			fieldRow("Listen on", s.listen),
			fieldRow("Allow from", s.allowFrom),
			fieldRow("Unknown URLs", s.unknown),
		),
		formGrid(
			fieldRow("Policy", container.NewBorder(nil, nil, nil, widget.NewButton("Choose…", s.choosePolicy), s.policy)),
			fieldRow("Verdicts count for", s.maxAge),
			fieldRow("", s.crawlUnknown),
		))
	hint := caption("Unknown URLs, on neither list, are pushed to the front of the crawl; a running crawl fetches and " +
		"judges them, and so does the gateway with \"crawl unknown URLs here\". A verdict counts for the time set, then " +
		"the page is crawled again. An open proxy is a hole: to serve other machines, name them in Allow from.")
	buttons := container.NewHBox(s.start, s.stop)
	top := container.NewVBox(container.NewBorder(nil, nil, heading("Gateway"), buttons), settings, hint, s.status, s.counts)
	left := container.NewBorder(widget.NewLabel("Latest decisions"), nil, nil, nil, s.decTable)
	split := container.NewHSplit(left, s.lists.content)
	split.Offset = 0.6
	s.content = container.NewPadded(container.NewBorder(top, nil, nil, nil, split))
	return s
}

// fieldRow is a labelled row of a settings form.
func fieldRow(label string, o fyne.CanvasObject) []fyne.CanvasObject {
	l := widget.NewLabel(label)
	l.TextStyle.Bold = true
	return []fyne.CanvasObject{l, o}
}

func (s *gatewayScreen) decisionCell(d gateway.Decision, col int) string {
	switch col {
	case 0:
		return d.At.Local().Format("15:04:05")
	case 1:
		return d.Client.String()
	case 2:
		if d.Status == 403 || d.Action == gateway.Block {
			return "blocked"
		}
		if d.Entry.List == 0 {
			return "unknown"
		}
		return "allowed"
	case 3:
		return d.Method + " " + d.Target
	case 4:
		if d.Entry.List == 0 {
			return ""
		}
		e := d.Entry.List.String() + " " + d.Entry.Kind.String() + " " + d.Entry.Value
		if d.Rule != "" {
			e += " (rule " + d.Rule + ")"
		}
		return e
	}
	return ""
}

// options reads the settings; a bad one is an error naming it.
func (s *gatewayScreen) options() (feed.Options, error) {
	o := feed.Options{Gateway: gateway.Config{Listen: strings.TrimSpace(s.listen.Text)}, Crawl: s.ui.crawl,
		CrawlUnknown: s.crawlUnknown.Checked && s.ui.crawl != 0}
	if s.unknown.Selected == "block" {
		o.Gateway.Unknown = gateway.Block
	}
	var err error
	if o.Gateway.AllowFrom, err = feed.ParseAllowFrom(strings.FieldsFunc(s.allowFrom.Text, func(r rune) bool {
		return r == ',' || r == ' '
	})); err != nil {
		return o, fmt.Errorf("Allow from: %w", err)
	}
	if p := strings.TrimSpace(s.policy.Text); p != "" {
		if o.Gateway.Policy, err = feed.ReadPolicy(p); err != nil {
			return o, fmt.Errorf("Policy: %w", err)
		}
	}
	if o.MaxAge, err = form.ParseDuration(s.maxAge.Text); err != nil {
		return o, fmt.Errorf("Verdicts count for: %w", err)
	}
	return o, nil
}

func (s *gatewayScreen) onStart() {
	if s.srv != nil || s.ui.d == nil {
		return
	}
	o, err := s.options()
	if err != nil {
		s.ui.showError(err)
		return
	}
	d := s.ui.d
	settings, _ := d.Settings(context.Background(), o.Crawl)
	log, closer, err := logfile.Open(d.Path(), settings)
	if err != nil {
		s.ui.showError(err)
		return
	}
	o.Log = log
	s.start.Disable()
	s.status.SetText("Starting…")
	background(s.ui, func() (*feed.Server, error) { return feed.Start(context.Background(), d, o) },
		func(srv *feed.Server, err error) {
			if err != nil {
				closer.Close()
				s.start.Enable()
				s.status.SetText("Stopped.")
				s.ui.showError(fmt.Errorf("start the gateway: %w", err))
				return
			}
			s.running(srv, o, closer)
		})
}

// running shows a started gateway and starts reading its counts.
func (s *gatewayScreen) running(srv *feed.Server, o feed.Options, log interface{ Close() error }) {
	s.srv = srv
	s.stop.Enable()
	what := "the lists' entries only (no crawl is open)"
	if o.Crawl != 0 {
		what = fmt.Sprintf("the lists and the verdicts of %q", s.ui.name)
	}
	s.status.SetText(fmt.Sprintf("Listening on %s, deciding by %s. Point a browser's HTTP and HTTPS proxy at %s; "+
		"HTTPS is decided by host, never decrypted.", srv.Gateway().Addr(), what, srv.Gateway().Addr()))
	ctx, cancel := context.WithCancel(context.Background())
	s.endPoll = cancel
	go s.poll(ctx, srv)
	go func() {
		srv.Wait()
		log.Close()
	}()
}

// poll reads the running gateway every gatewayEvery, off the UI
// goroutine, and shows what it read on it, until ctx ends.
func (s *gatewayScreen) poll(ctx context.Context, srv *feed.Server) {
	t := time.NewTicker(gatewayEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		st, recent, entries := srv.Gateway().Stats(), srv.Gateway().Recent(100), srv.Feed().Filter().Len()
		s.ui.do(func() {
			if s.srv == srv {
				s.counts.SetText(countsText(st, entries))
				s.decided = recent
				s.decTable.Refresh()
			}
		})
	}
}

func countsText(st gateway.Stats, entries int) string {
	return fmt.Sprintf("%s allowed · %s blocked · %s unknown (%s sent to the crawl) · %s errors · %.1f lookups/s · %d tunnels open · %s entries",
		humanize.Comma(int64(st.Allowed)), humanize.Comma(int64(st.Blocked)), humanize.Comma(int64(st.Unknown)),
		humanize.Comma(int64(st.Enqueued)), humanize.Comma(int64(st.Errors)), st.LookupsPerSec, st.TunnelsOpen,
		humanize.Comma(int64(entries)))
}

func (s *gatewayScreen) onStop() {
	srv := s.srv
	if srv == nil {
		return
	}
	s.srv = nil
	s.endPoll()
	s.stop.Disable()
	s.status.SetText("Stopping…")
	background(s.ui, func() (struct{}, error) { return struct{}{}, srv.Stop() }, func(_ struct{}, err error) {
		s.status.SetText("Stopped.")
		s.start.Enable()
		if err != nil {
			s.ui.showError(fmt.Errorf("the gateway stopped: %w", err))
		}
	})
}

// shutdown stops a running gateway, waiting for it: the window closes,
// or another database is opened.
func (s *gatewayScreen) shutdown() {
	if s.srv != nil {
		s.endPoll()
		s.srv.Stop()
		s.srv = nil
		s.stop.Disable()
		s.start.Enable()
		s.status.SetText("Stopped.")
	}
}

func (s *gatewayScreen) choosePolicy() {
	dialog.ShowFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil || r == nil {
			return
		}
		r.Close()
		s.policy.SetText(r.URI().Path())
	}, s.ui.win)
}
