// Package format writes the window's figures as people read them: a
// duration with its unit ("150 ms", "1.5 s", "3 min 5 s"), never Go's
// "150ms" or "0s" for a download that took 400 µs.
package format

import (
	"fmt"
	"time"

	"github.com/dustin/go-humanize"
)

// Duration writes d with a unit and two or three significant figures.
func Duration(d time.Duration) string {
	switch {
	case d <= 0:
		return "0 ms"
	case d < 100*time.Microsecond:
		return "< 0.1 ms"
	case d < 10*time.Millisecond:
		return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
	case d < time.Second:
		return fmt.Sprintf("%d ms", d.Round(time.Millisecond)/time.Millisecond)
	case d < 10*time.Second:
		return fmt.Sprintf("%.1f s", d.Seconds())
	case d < time.Minute:
		return fmt.Sprintf("%d s", d.Round(time.Second)/time.Second)
	case d < time.Hour:
		d = d.Round(time.Second)
		return fmt.Sprintf("%d min %d s", d/time.Minute, d%time.Minute/time.Second)
	}
	d = d.Round(time.Minute)
	return fmt.Sprintf("%d h %d min", d/time.Hour, d%time.Hour/time.Minute)
}

// Count writes n with thousands separators and the noun, singular for one:
// "1 page", "1,455 pages". plural is the noun for other counts.
func Count(n int64, singular, plural string) string {
	if n == 1 || n == -1 {
		return humanize.Comma(n) + " " + singular
	}
	return humanize.Comma(n) + " " + plural
}
