package crawl

import (
	"math"
	"time"
)

// VisitStats sums up a page's visit history for the revisit schedule.
type VisitStats struct {
	Visits  int       // visits so far, the first included
	Changes int       // visits after the first that found the page changed
	First   time.Time // the first visit
	Last    time.Time // the latest visit
}

// ChangeRate estimates how often a page changes, in changes per second,
// with the estimator of Cho and Garcia-Molina ("Estimating frequency of
// change", 2003) for pages visited at regular intervals and seen only as
// changed or not at each visit:
//
//	λ̂ = −ln((n − X + 0.5) / (n + 0.5)) / Ī
//
// where n is the number of revisits (visits after the first), X how many
// of them found a change, and Ī the mean interval between visits. Unlike
// the naive X/(n·Ī), it accounts for several changes between two visits
// looking like one, and the 0.5 terms keep it finite when every revisit
// found a change. ok is false before the first revisit or when the visits
// span no time.
func ChangeRate(s VisitStats) (perSecond float64, ok bool) {
	n := s.Visits - 1
	span := s.Last.Sub(s.First).Seconds()
	if n < 1 || span <= 0 {
		return 0, false
	}
	x := min(max(s.Changes, 0), n)
	interval := span / float64(n)
	return -math.Log((float64(n-x)+0.5)/(float64(n)+0.5)) / interval, true
}

// NextVisit returns when a page is next due for a revisit. The model:
//
//   - A page visited once is due at once: the first re-crawl after its
//     discovery revisits it.
//   - Otherwise the interval is the page's expected time between changes,
//     1/λ̂ (see ChangeRate), but at most twice the time the page has been
//     watched (Last − First): a page seen unchanged once, an hour after
//     its discovery, is looked at again two hours later, not a month.
//   - The interval is then kept within [minimum, maximum] (the crawl's
//     RevisitMin and RevisitMax, by default one hour and 30 days).
//
// The next visit is Last plus that interval.
func NextVisit(s VisitStats, minimum, maximum time.Duration) time.Time {
	if s.Visits < 2 {
		return s.Last
	}
	watched := s.Last.Sub(s.First)
	interval := maximum
	if rate, ok := ChangeRate(s); ok && rate > 0 {
		if secs := 1 / rate; secs < maximum.Seconds() {
			interval = time.Duration(secs * float64(time.Second))
		}
	}
	interval = min(interval, 2*watched)
	interval = min(max(interval, minimum), maximum)
	return s.Last.Add(interval)
}
