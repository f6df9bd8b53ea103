package gui

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/dustin/go-humanize"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/robot"
	"github.com/trawler/trawler/db"
	"github.com/trawler/trawler/gui/form"
	"github.com/trawler/trawler/gui/format"
)

// robotsEvery is how often the Robots screen reads the robots while it is
// shown: about their beat, so each beat shows.
const robotsEvery = time.Second

// robotsScreen is paper 003's control server: the robots crawling the shown
// crawl on a shared PostgreSQL database, their beats, and the buttons and
// settings that steer them.
type robotsScreen struct {
	ui      *UI
	content fyne.CanvasObject

	summary                        *widget.Label
	threads, perHost, delay, count *widget.Entry
	apply, start                   *widget.Button
	pauseAll, resumeAll, stopAll   *widget.Button
	pauseOne, resumeOne, stopOne   *widget.Button
	table                          *widget.Table

	list     []robot.State
	control  robot.Control
	read     time.Time // when list was read
	selected string    // the ID of the selected robot, "" for none
	endPoll  context.CancelFunc
}

var robotColumns = []textColumn{{"Robot", 170}, {"Host", 120}, {"State", 150}, {"Pages", 80}, {"Pages/s", 70},
	{"Errors", 60}, {"Threads", 65}, {"Last beat", 110}}

func newRobotsScreen(ui *UI) *robotsScreen {
	s := &robotsScreen{ui: ui}
	s.summary = widget.NewLabel("")
	s.summary.Wrapping = fyne.TextWrapWord
	s.threads, s.perHost, s.delay = widget.NewEntry(), widget.NewEntry(), widget.NewEntry()
	s.threads.PlaceHolder, s.perHost.PlaceHolder, s.delay.PlaceHolder = "the crawl's", "the crawl's", "the crawl's"
	s.apply = widget.NewButton("Apply to all robots", s.onApply)
	s.count = widget.NewEntry()
	s.count.SetText("1")
	s.start = widget.NewButtonWithIcon("Start robots here", theme.ContentAddIcon(), s.onStart)
	s.pauseAll = widget.NewButtonWithIcon("Pause all", theme.MediaPauseIcon(), func() { s.commandAll(robot.CommandPause) })
	s.resumeAll = widget.NewButtonWithIcon("Resume all", theme.MediaPlayIcon(), func() { s.commandAll(robot.CommandRun) })
	s.stopAll = widget.NewButtonWithIcon("Stop all", theme.MediaStopIcon(), func() { s.commandAll(robot.CommandStop) })
	s.pauseOne = widget.NewButton("Pause", func() { s.commandOne(robot.CommandPause) })
	s.resumeOne = widget.NewButton("Resume", func() { s.commandOne(robot.CommandRun) })
	s.stopOne = widget.NewButton("Stop", func() { s.commandOne(robot.CommandStop) })
	s.table = textTable(robotColumns, fyne.TextTruncateEllipsis, func() int { return len(s.list) },
		func(row, col int) string { return robotCell(s.list[row], col, s.read) })
	s.table.OnSelected = func(id widget.TableCellID) {
		if id.Row >= 0 && id.Row < len(s.list) {
			s.selected = s.list[id.Row].ID
		}
		s.enable()
	}

	settings := container.NewBorder(nil, nil, nil, s.apply, container.NewGridWithColumns(3,
		formGrid(fieldRow("Threads per robot", s.threads)),
		formGrid(fieldRow("Requests per host", s.perHost)),
		formGrid(fieldRow("Delay per host", s.delay))))
	all := container.NewHBox(s.pauseAll, s.resumeAll, s.stopAll, widget.NewSeparator(),
		widget.NewLabel("Robots to start"), container.New(fixedWidth{"0000"}, s.count), s.start)
	one := container.NewHBox(widget.NewLabel("Selected robot:"), s.pauseOne, s.resumeOne, s.stopOne)
	hint := caption("Robots are Trawler processes, on this machine or others (trawler robot --db postgres://…), " +
		"that crawl one crawl together. A host is worked by one robot at a time, so the per-host limit and delay " +
		"hold for the crawl as a whole. A robot silent for three beats is marked stale: dead, or cut off; its " +
		"URLs go to the others once its leases run out. Robots started here go on if the window closes.")
	top := container.NewVBox(heading("Robots"), s.summary, settings, all, hint)
	s.content = container.NewPadded(container.NewBorder(top, one, nil, nil, s.table))
	s.show(nil, robot.Control{Delay: -1}, time.Now())
	return s
}

// robotCell is the text of one cell of the robots table, as read at now.
func robotCell(r robot.State, col int, now time.Time) string {
	switch col {
	case 0:
		return r.ID
	case 1:
		return r.Hostname
	case 2:
		st := r.State
		if r.Stale(now, robot.DefaultBeat) && (st == "running" || st == "paused") {
			st = "stale (" + st + ")"
		}
		if r.Command != "" && r.Command != st {
			st += ", told to " + r.Command
		}
		return st
	case 3:
		return humanize.Comma(r.Pages)
	case 4:
		return strconv.FormatFloat(r.Rate, 'f', 1, 64)
	case 5:
		return humanize.Comma(r.Errors)
	case 6:
		return strconv.Itoa(r.Status.Threads)
	case 7:
		return fmt.Sprintf("%s ago", max(0, now.Sub(r.Heartbeat)).Round(100*time.Millisecond))
	}
	return ""
}

// shared reports whether the open database can have robots.
func (s *robotsScreen) shared() bool { return s.ui.d != nil && s.ui.d.Postgres() }

// enable sets which buttons can be used.
func (s *robotsScreen) enable() {
	on := s.shared() && s.ui.crawl != 0
	for _, b := range []*widget.Button{s.apply, s.start, s.pauseAll, s.resumeAll, s.stopAll} {
		setEnabled(b, on)
	}
	for _, b := range []*widget.Button{s.pauseOne, s.resumeOne, s.stopOne} {
		setEnabled(b, on && s.selected != "")
	}
}

// show puts a reading of the robots and their control on screen.
func (s *robotsScreen) show(list []robot.State, c robot.Control, at time.Time) {
	s.list, s.control, s.read = list, c, at
	switch {
	case !s.shared():
		s.summary.SetText("Robots share a crawl on a PostgreSQL database: connect to one with File › Connect to server….")
	case s.ui.crawl == 0:
		s.summary.SetText("No crawl shown: open one in Crawls, or start one.")
	default:
		working := 0
		for _, r := range list {
			if r.Working(at) {
				working++
			}
		}
		s.summary.SetText(fmt.Sprintf("Crawl %d: %s, %d working. All robots follow %s.", s.ui.crawl,
			format.Count(int64(len(list)), "robot", "robots"), working, controlText(c)))
	}
	s.table.Refresh()
	s.enable()
}

// controlText says what the robots follow.
func controlText(c robot.Control) string {
	var parts []string
	if c.Threads > 0 {
		parts = append(parts, fmt.Sprintf("%d threads", c.Threads))
	}
	if c.PerHost > 0 {
		parts = append(parts, fmt.Sprintf("%d per host", c.PerHost))
	}
	if c.Delay >= 0 {
		parts = append(parts, "a delay of "+form.Duration(c.Delay))
	}
	t := "the crawl's settings"
	if len(parts) > 0 {
		t = strings.Join(parts, ", ")
	}
	switch c.Command {
	case robot.CommandPause:
		t += ", paused"
	case robot.CommandStop:
		t += ", told to stop"
	}
	return t
}

// reload reads the robots of the shown crawl.
func (s *robotsScreen) reload() {
	d, id := s.ui.d, s.ui.crawl
	if d == nil || !d.Postgres() || id == 0 {
		s.show(nil, robot.Control{Delay: -1}, time.Now())
		return
	}
	type reading struct {
		list []robot.State
		c    robot.Control
		at   time.Time
	}
	background(s.ui, func() (reading, error) {
		ctx := context.Background()
		list, err := d.Robots(ctx, id)
		if err != nil {
			return reading{}, err
		}
		c, err := d.Control(ctx, id)
		return reading{list, c, time.Now()}, err
	}, func(r reading, err error) {
		if s.ui.d != d || s.ui.crawl != id {
			return // another database or crawl came first
		}
		if err != nil {
			s.summary.SetText(fmt.Sprintf("Could not read the robots: %v", err))
			return
		}
		s.show(r.list, r.c, r.at)
	})
}

// follow reads the robots every robotsEvery while the screen is shown.
func (s *robotsScreen) follow(shown bool) {
	if s.endPoll != nil {
		s.endPoll()
		s.endPoll = nil
	}
	if !shown {
		return
	}
	s.reload()
	ctx, cancel := context.WithCancel(context.Background())
	s.endPoll = cancel
	go func() {
		t := time.NewTicker(robotsEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				s.ui.do(func() {
					if ctx.Err() == nil {
						s.reload()
					}
				})
			}
		}
	}()
}

// steer runs a change of the control off the UI goroutine, then reads the
// robots again.
func (s *robotsScreen) steer(what string, change func(ctx context.Context, d *db.DB, id int64) error) {
	d, id := s.ui.d, s.ui.crawl
	if d == nil || id == 0 {
		return
	}
	background(s.ui, func() (struct{}, error) {
		return struct{}{}, change(context.Background(), d, id)
	}, func(_ struct{}, err error) {
		if err != nil {
			s.ui.showError(fmt.Errorf("%s: %w", what, err))
		}
		s.reload()
	})
}

func (s *robotsScreen) commandAll(cmd string) {
	s.steer("command the robots", func(ctx context.Context, d *db.DB, id int64) error {
		return d.CommandAll(ctx, id, cmd)
	})
}

func (s *robotsScreen) commandOne(cmd string) {
	rid := s.selected
	s.steer("command robot "+rid, func(ctx context.Context, d *db.DB, id int64) error {
		return d.CommandRobot(ctx, id, rid, cmd)
	})
}

// onApply sets what every robot follows; an empty field leaves the crawl's
// own setting.
func (s *robotsScreen) onApply() {
	c, err := parseControl(s.threads.Text, s.perHost.Text, s.delay.Text)
	if err != nil {
		s.ui.showError(fmt.Errorf("change the robots' settings: %w", err))
		return
	}
	s.steer("change the robots' settings", func(ctx context.Context, d *db.DB, id int64) error {
		old, err := d.Control(ctx, id)
		if err != nil {
			return err
		}
		c.Command = old.Command
		return d.SetControl(ctx, id, c)
	})
}

// parseControl reads the settings fields: empty ones leave the crawl's.
func parseControl(threads, perHost, delay string) (robot.Control, error) {
	c := robot.Control{Delay: -1}
	num := func(field, text string) (int, error) {
		text = strings.TrimSpace(text)
		if text == "" {
			return 0, nil
		}
		n, err := strconv.Atoi(text)
		if err != nil || n < 1 || n > crawl.MaxThreads {
			return 0, fmt.Errorf("%s: %q is not a whole number from 1 to %d (empty: the crawl's)", field, text, crawl.MaxThreads)
		}
		return n, nil
	}
	var err error
	if c.Threads, err = num("threads per robot", threads); err != nil {
		return c, err
	}
	if c.PerHost, err = num("requests per host", perHost); err != nil {
		return c, err
	}
	if d := strings.TrimSpace(delay); d == "0" {
		c.Delay = 0
	} else if d != "" {
		if c.Delay, err = form.ParseDuration(d); err != nil {
			return c, fmt.Errorf("delay per host: %w", err)
		}
	}
	return c, nil
}

// onStart starts robots on this machine for the shown crawl.
func (s *robotsScreen) onStart() {
	n, err := strconv.Atoi(strings.TrimSpace(s.count.Text))
	if err != nil || n < 1 || n > maxLocalRobots {
		s.ui.showError(fmt.Errorf("start robots: give a number from 1 to %d", maxLocalRobots))
		return
	}
	if s.ui.server.url == "" {
		s.ui.showError(errors.New("start robots: connect to the server with File › Connect to server… first"))
		return
	}
	url, pw, id := s.ui.server.url, s.ui.server.password, s.ui.crawl
	s.steer("start robots", func(context.Context, *db.DB, int64) error {
		for range n {
			if err := s.ui.opts.StartRobot(url, pw, id); err != nil {
				return err
			}
		}
		return nil
	})
}

// maxLocalRobots bounds the robots one click starts: each is a process
// with its own threads and database connections.
const maxLocalRobots = 16
