package gui

import (
	"context"
	"errors"
	"fmt"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/db"
	"github.com/trawler/trawler/gui/chart"
	"github.com/trawler/trawler/gui/live"
	"github.com/trawler/trawler/gui/runner"
)

// liveScreen shows the running crawl: controls, progress, the four queues,
// speed, charts and the log.
type liveScreen struct {
	ui      *UI
	content fyne.CanvasObject
	empty   fyne.CanvasObject
	body    fyne.CanvasObject

	title, state               *widget.Label
	pause, resume, stop, open  *widget.Button
	bar                        *widget.ProgressBar
	barText                    string
	waiting, processing, errs  *widget.Label
	done, rate, bytes, elapsed *widget.Label
	left, skipped              *widget.Label
	changes                    *widget.Label   // a finished re-crawl's change summary
	watched                    *runner.Session // the session the screen shows, ended or not
	rateChart                  *chart.RateChart
	depths                     *chart.DepthBars
	level                      *widget.Select
	log                        live.Log
	list                       *widget.List
	hosts                      *hostsPanel
	updates                    int
}

func newLiveScreen(ui *UI) *liveScreen {
	s := &liveScreen{ui: ui}
	s.title = heading("")
	s.state = widget.NewLabel("")
	s.changes = widget.NewLabel("")
	s.changes.Wrapping = fyne.TextWrapWord
	s.changes.Hide()
	s.pause = widget.NewButtonWithIcon("Pause", theme.MediaPauseIcon(), ui.pauseCrawl)
	s.resume = widget.NewButtonWithIcon("Resume", theme.MediaPlayIcon(), ui.resumeCrawl)
	s.stop = widget.NewButtonWithIcon("Stop", theme.MediaStopIcon(), ui.stopCrawl)
	s.open = widget.NewButtonWithIcon("Show results", theme.ListIcon(), func() { ui.tabs.SelectIndex(tabResults) })
	s.bar = widget.NewProgressBar()
	s.bar.TextFormatter = func() string { return s.barText }
	s.waiting, s.processing, s.errs, s.done, s.skipped = counter(), counter(), counter(), counter(), counter()
	s.rate, s.bytes, s.elapsed, s.left = widget.NewLabel(""), widget.NewLabel(""), widget.NewLabel(""), widget.NewLabel("")
	s.rateChart = chart.NewRateChart(live.HistoryLen)
	s.depths = chart.NewDepthBars()
	s.level = widget.NewSelect(live.LevelNames, func(name string) {
		s.log.SetLevel(live.LevelOf(name))
		s.list.Refresh()
		s.list.ScrollToBottom()
	})
	s.list = widget.NewList(
		func() int { return len(s.log.Lines()) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateClip // ellipsis shapes each line again: too slow at ten updates a second
			l.TextStyle.Monospace = true
			return l
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			lines := s.log.Lines()
			if i < len(lines) {
				o.(*widget.Label).SetText(s.eventText(lines[i]))
			}
		})
	s.level.SetSelected(live.LevelNames[0])

	controls := container.NewHBox(s.pause, s.resume, s.stop, s.open)
	head := container.NewBorder(nil, nil, container.NewHBox(s.title, s.state), controls)
	queues := container.NewGridWithColumns(5,
		tile("Waiting", s.waiting), tile("Processing (fetching or storing)", s.processing), tile("Errors", s.errs),
		tile("Done", s.done), tile("Skipped", s.skipped))
	speed := container.NewGridWithColumns(4,
		tile("Speed", s.rate), tile("Read", s.bytes), tile("Elapsed", s.elapsed), tile("Time left", s.left))
	charts := container.NewGridWithColumns(2,
		container.NewBorder(caption("Pages per second, last two minutes"), nil, nil, nil, s.rateChart),
		container.NewBorder(caption("Pages fetched per link depth"), nil, nil, nil, s.depths))
	top := container.NewVBox(head, s.bar, queues, speed, s.changes, container.New(&fixedHeight{h: 170}, charts), widget.NewSeparator())
	logHead := container.NewBorder(nil, nil, heading("Recent fetches and errors"), s.level)
	s.hosts = newHostsPanel()
	logBox := container.NewBorder(logHead, nil, nil, nil, s.list)
	split := container.NewHSplit(logBox, s.hosts.content)
	split.Offset = 0.58
	s.body = container.NewBorder(top, nil, nil, nil, split)
	s.empty = emptyState("No crawl is running",
		"Fill in New crawl and press Start (Ctrl+N), or resume a stopped crawl from Crawls.")
	s.body.Hide()
	s.content = container.NewPadded(container.NewStack(s.empty, s.body))
	return s
}

// counter is a large number label.
func counter() *widget.Label {
	l := widget.NewLabel("0")
	l.SizeName = theme.SizeNameHeadingText
	l.TextStyle.Bold = true
	return l
}

// tile puts a caption over a value.
func tile(name string, value fyne.CanvasObject) fyne.CanvasObject {
	return container.NewVBox(caption(name), value)
}

func (s *liveScreen) eventText(ev crawl.Event) string {
	status := "   "
	if ev.Status > 0 {
		status = fmt.Sprint(ev.Status)
	}
	return fmt.Sprintf("%-5s %s  %s  %s", ev.Level, status, ev.URL, ev.Message)
}

// begin shows a new crawl, its numbers at zero.
func (s *liveScreen) begin(name string) {
	s.title.SetText(name)
	s.log.Clear()
	s.list.Refresh()
	s.hosts.set(nil)
	s.updates = 0
	s.apply(live.Update{Progress: crawl.Progress{State: crawl.StateRunning}})
	s.empty.Hide()
	s.body.Show()
}

// apply shows one update from the monitor; it is the only place the
// live widgets change while a crawl runs.
func (s *liveScreen) apply(u live.Update) {
	st := live.Present(u.Progress)
	s.state.SetText("· " + st.State)
	s.barText = st.Progress
	s.bar.SetValue(st.Fraction)
	s.waiting.SetText(st.Waiting)
	s.processing.SetText(st.Processing)
	s.errs.SetText(st.Errors)
	s.done.SetText(st.Done)
	s.skipped.SetText(st.Skipped)
	s.rate.SetText(st.Rate)
	s.bytes.SetText(st.Bytes)
	s.elapsed.SetText(st.Elapsed)
	s.left.SetText(st.Left)
	s.rateChart.SetValues(u.Rates)
	s.depths.SetCounts(u.Progress.ByDepth)
	if u.Hosts != nil || u.Final {
		s.hosts.set(u.Hosts)
	}
	if len(u.Events) > 0 {
		before := len(s.log.Lines())
		s.log.Add(u.Events)
		if len(s.log.Lines()) != before || before == live.LogLen {
			s.list.Refresh()
			s.list.ScrollToBottom()
		}
	}
	s.setControls(u.Progress.State)
	s.updates++
}

func (s *liveScreen) setControls(state crawl.RunState) {
	enable := func(b *widget.Button, on bool) {
		if on {
			b.Enable()
		} else {
			b.Disable()
		}
	}
	enable(s.pause, state == crawl.StateRunning)
	enable(s.resume, state == crawl.StatePaused)
	enable(s.stop, state == crawl.StateRunning || state == crawl.StatePaused)
	s.ui.setCrawlMenu(state)
}

// follow makes sess the window's running crawl: the Live screen shows it,
// Results lists its pages as they come, and a monitor goroutine polls it.
func (ui *UI) follow(sess *runner.Session) {
	ui.watch(sess)
	ui.tabs.SelectIndex(tabLive)
}

// watch makes sess the window's crawl, shown on the Live tab, without
// leaving the tab the user is on.
func (ui *UI) watch(sess *runner.Session) {
	ui.session = sess
	ui.live.watched = sess
	showText(ui.live.changes, "") // the summary was the last cycle's
	if ui.stats != nil {
		ui.stats.setCrawling(true)
	}
	ui.openCrawl(sess.ID, sess.Name)
	ui.live.begin(sess.Name)
	ui.newCrawl.check()
	ui.crawls.reload()
	m := live.NewMonitor(sess.Engine, live.Options{Do: ui.do, Apply: func(u live.Update) { ui.onUpdate(sess, u) }})
	go func() {
		t := time.NewTicker(ui.opts.Poll)
		defer t.Stop()
		m.Run(context.Background(), t.C, sess.Done())
	}()
}

// onUpdate applies one monitor update; the last one ends the session.
func (ui *UI) onUpdate(sess *runner.Session, u live.Update) {
	if ui.session != sess {
		return
	}
	ui.live.apply(u)
	if ui.live.updates%20 == 0 && ui.crawl == sess.ID {
		ui.results.refresh() // the crawl adds pages: count and show them every two seconds
	}
	if !u.Final {
		return
	}
	ui.session = nil
	if ui.stats != nil {
		ui.stats.setCrawling(false)
	}
	ui.live.setControls(u.Progress.State)
	if ui.crawl == sess.ID {
		ui.results.refresh()
		ui.changes.reload()
	}
	ui.crawls.reload()
	ui.newCrawl.check()
	if err := errors.Join(sess.Err(), sess.HookErr()); err != nil {
		ui.showError(err)
	}
	if sess.Err() != nil || u.Progress.State != crawl.StateDone {
		return
	}
	ui.live.showChanges(ui.d, sess)
	switch sess.Engine.Config().OnCompletion { // the crawl's "when done" setting
	case crawl.OnCompletionQuit:
		ui.closeNow()
	case crawl.OnCompletionLoop:
		ui.loop(sess)
	}
}

// loop begins the next cycle of a crawl whose on-completion action is
// "loop": every known page again, until the user stops a cycle.
func (ui *UI) loop(sess *runner.Session) {
	next, _, err := sess.Again()
	if err != nil {
		ui.showError(fmt.Errorf("re-crawl %q: %w", sess.Name, err))
		ui.crawls.reload()
		return
	}
	ui.watch(next)
}

func (ui *UI) pauseCrawl() {
	if ui.session != nil {
		ui.session.Pause()
		ui.live.setControls(crawl.StatePaused)
	}
}

func (ui *UI) resumeCrawl() {
	if ui.session != nil {
		ui.session.Resume()
		ui.live.setControls(crawl.StateRunning)
	}
}

func (ui *UI) stopCrawl() {
	if ui.session != nil {
		ui.session.Stop()
		ui.live.state.SetText("· Stopping…")
		ui.live.setControls(crawl.StateStopping)
	}
}

// fixedHeight lays its objects out at a fixed height and any width.
type fixedHeight struct{ h float32 }

func (f *fixedHeight) MinSize(objs []fyne.CanvasObject) fyne.Size {
	w := float32(0)
	for _, o := range objs {
		w = max(w, o.MinSize().Width)
	}
	return fyne.NewSize(w, f.h)
}

func (f *fixedHeight) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

// showChanges puts a finished re-crawl's change summary under Live's
// counters: what sess's own cycle found, in the words of the Changes
// screen. It is read in the background and dropped if another session
// has the screen by the time it comes back; reading the crawl's current
// cycle instead would sum a cycle begun meanwhile under this one's name.
func (s *liveScreen) showChanges(d *db.DB, sess *runner.Session) {
	if sess.Cycle == 0 {
		return
	}
	background(s.ui, func() (db.Report, error) {
		return d.ChangeReport(context.Background(), sess.ID, sess.Cycle)
	}, func(r db.Report, err error) {
		if s.watched != sess {
			return
		}
		if err != nil {
			s.ui.showError(fmt.Errorf("read the re-crawl's changes: %w", err))
			return
		}
		showText(s.changes, fmt.Sprintf("Re-crawl %d: %s", sess.Cycle, r.Summary()))
	})
}
