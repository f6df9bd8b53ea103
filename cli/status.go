package cli

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/mattn/go-isatty"

	"github.com/trawler/trawler/crawl"
)

// statusLine redraws one line on a terminal with the crawl's progress.
type statusLine struct {
	w       io.Writer
	enabled bool
}

func newStatusLine(w io.Writer, quiet bool) *statusLine {
	return &statusLine{w: w, enabled: !quiet && isTerminal(w)}
}

// isTerminal reports whether w is a terminal (not a pipe or a file).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && isatty.IsTerminal(f.Fd())
}

// follow redraws the line four times a second until the returned function
// is called, which clears it.
func (l *statusLine) follow(progress func() crawl.Progress) (stop func()) {
	if !l.enabled {
		return func() {}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(250 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				fmt.Fprint(l.w, "\r\033[K")
				return
			case <-t.C:
				fmt.Fprint(l.w, "\r\033[K"+statusText(progress()))
			}
		}
	}()
	return func() { close(done); <-finished }
}

func statusText(p crawl.Progress) string {
	return fmt.Sprintf("%s  %d done  %d errors  %d skipped  %d waiting  %d in flight  %.1f pages/s  %s  %s",
		p.State, p.Done, p.Errors, p.Skipped, p.Waiting, p.Processing, p.PagesPerSec, humanBytes(p.Bytes),
		p.Elapsed.Round(time.Second))
}

func humanBytes(n int64) string { return humanize.Bytes(uint64(max(n, 0))) }
