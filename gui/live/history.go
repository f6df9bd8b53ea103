package live

import "time"

// HistoryLen is how many samples the pages/s chart shows: two minutes at
// one a second.
const HistoryLen = 120

// History keeps one sample per step of time, the most recent n.
type History struct {
	n      int
	step   time.Duration
	last   time.Time
	values []float64
}

// NewHistory returns a History of n samples, one per step.
func NewHistory(n int, step time.Duration) *History {
	return &History{n: n, step: step}
}

// Add records v at time at, unless a sample was taken less than a step
// before.
func (h *History) Add(at time.Time, v float64) {
	if len(h.values) > 0 && at.Sub(h.last) < h.step {
		return
	}
	h.last = at
	h.values = append(h.values, v)
	if over := len(h.values) - h.n; over > 0 {
		h.values = append(h.values[:0], h.values[over:]...)
	}
}

// Values returns a copy of the samples, oldest first.
func (h *History) Values() []float64 {
	return append([]float64(nil), h.values...)
}
