package live

import (
	"fmt"
	"math"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/trawler/trawler/crawl"
)

// Stats is what the Live crawl screen shows, as text.
type Stats struct {
	State                             string // Running, Paused, Stopping, Finished, Stopped, Failed
	Waiting, Processing, Errors, Done string
	Skipped                           string // found and not fetched: robots.txt, scope, depth, …
	Rate, Bytes, Elapsed, Left        string
	Fraction                          float64 // for the progress bar, in [0,1]
	Progress                          string  // "120 of 480 URLs (25%)"
}

// Present turns a progress snapshot into Stats.
func Present(p crawl.Progress) Stats {
	s := Stats{
		State:      stateText(p.State),
		Waiting:    humanize.Comma(p.Waiting),
		Processing: humanize.Comma(p.Processing),
		Errors:     humanize.Comma(p.Errors),
		Done:       humanize.Comma(p.Done),
		Skipped:    humanize.Comma(p.Skipped),
		Rate:       rateText(p),
		Bytes:      humanize.IBytes(uint64(max(0, p.Bytes))),
		Elapsed:    Clock(p.Elapsed),
		Fraction:   p.Fraction(),
	}
	total := p.Done + p.Errors + p.Waiting + p.Processing
	if p.MaxPages > 0 && int64(p.MaxPages) < total {
		total = int64(p.MaxPages)
	}
	s.Progress = fmt.Sprintf("%s of %s URLs (%d%%)", humanize.Comma(p.Fetched()), humanize.Comma(total),
		int(math.Floor(s.Fraction*100)))
	switch left, ok := ETA(p); {
	case p.State == crawl.StateDone || p.State == crawl.StateStopped || p.State == crawl.StateFailed:
		s.Left = "—"
	case !ok:
		s.Left = "estimating…"
	default:
		s.Left = "about " + Clock(left)
	}
	return s
}

// rateText is the current rate while the crawl runs and the average over
// the run once it has ended, each with the run's peak (never below the
// average: both come from the engine's Progress).
func rateText(p crawl.Progress) string {
	switch p.State {
	case crawl.StateDone, crawl.StateStopped, crawl.StateFailed:
		return fmt.Sprintf("%.1f pages/s average, peak %.1f", p.Average, p.Peak)
	}
	return fmt.Sprintf("%.1f pages/s, peak %.1f", p.PagesPerSec, p.Peak)
}

func stateText(s crawl.RunState) string {
	switch s {
	case crawl.StateIdle:
		return "Starting"
	case crawl.StateRunning:
		return "Running"
	case crawl.StatePaused:
		return "Paused"
	case crawl.StateStopping:
		return "Stopping…"
	case crawl.StateDone:
		return "Finished"
	case crawl.StateStopped:
		return "Stopped"
	case crawl.StateFailed:
		return "Failed"
	}
	return string(s)
}

// ETA estimates the time left: the URLs known and not yet fetched (or
// those left under the page cap) at the current rate. ok is false while
// there is no rate to go by.
func ETA(p crawl.Progress) (left time.Duration, ok bool) {
	total := p.Done + p.Errors + p.Waiting + p.Processing
	if p.MaxPages > 0 && int64(p.MaxPages) < total {
		total = int64(p.MaxPages)
	}
	remaining := total - p.Fetched()
	if remaining <= 0 {
		return 0, true
	}
	if p.PagesPerSec <= 0 || p.State != crawl.StateRunning {
		return 0, false
	}
	secs := float64(remaining) / p.PagesPerSec
	if secs > 1e7 {
		secs = 1e7
	}
	return time.Duration(secs * float64(time.Second)), true
}

// Clock writes a duration as h:mm:ss (or m:ss under an hour).
func Clock(d time.Duration) string {
	d = d.Round(time.Second)
	h, m, s := int(d.Hours()), int(d.Minutes())%60, int(d.Seconds())%60
	if h > 0 {
		return fmt.Sprintf("%d:%02d:%02d", h, m, s)
	}
	return fmt.Sprintf("%d:%02d", m, s)
}
