package crawl

import (
	"math"
	"testing"
	"time"
)

func TestChangeRate(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	tests := []struct {
		name string
		s    VisitStats
		want float64 // changes per day
		ok   bool
	}{
		{"one visit", VisitStats{Visits: 1, First: t0, Last: t0}, 0, false},
		{"no time between visits", VisitStats{Visits: 3, Changes: 1, First: t0, Last: t0}, 0, false},
		{"never changed", VisitStats{Visits: 11, First: t0, Last: t0.Add(10 * day)}, 0, true},
		// n = 10, X = 5, I = 1 day: −ln(5.5/10.5) = 0.6466 per day.
		{"half the revisits changed", VisitStats{Visits: 11, Changes: 5, First: t0, Last: t0.Add(10 * day)}, 0.6466, true},
		// Every revisit changed: −ln(0.5/10.5) = ln 21 = 3.0445 per day.
		{"always changed", VisitStats{Visits: 11, Changes: 10, First: t0, Last: t0.Add(10 * day)}, 3.0445, true},
		{"changes above revisits are capped", VisitStats{Visits: 11, Changes: 99, First: t0, Last: t0.Add(10 * day)}, 3.0445, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rate, ok := ChangeRate(tt.s)
			perDay := rate * day.Seconds()
			if ok != tt.ok || math.Abs(perDay-tt.want) > 0.0001 {
				t.Errorf("ChangeRate = %.4f/day, %v; want %.4f/day, %v", perDay, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestNextVisit(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	lo, hi := time.Hour, 30*day
	tests := []struct {
		name string
		s    VisitStats
		want time.Duration // after Last
	}{
		{"visited once: due at once", VisitStats{Visits: 1, First: t0, Last: t0}, 0},
		{"unchanged for 10 days: twice that", VisitStats{Visits: 11, First: t0, Last: t0.Add(10 * day)}, 20 * day},
		{"unchanged for 100 days: the maximum", VisitStats{Visits: 11, First: t0, Last: t0.Add(100 * day)}, hi},
		{"unchanged once after a minute: the minimum", VisitStats{Visits: 2, First: t0, Last: t0.Add(time.Minute)}, lo},
		{"revisits at the same instant: the minimum", VisitStats{Visits: 2, Changes: 1, First: t0, Last: t0}, lo},
		// 1/λ̂ = 1/0.6466 days.
		{"half changed daily", VisitStats{Visits: 11, Changes: 5, First: t0, Last: t0.Add(10 * day)}, time.Duration(float64(day) / 0.64663)},
		// 1/ln 21 days = 7.88 h.
		{"always changed daily", VisitStats{Visits: 11, Changes: 10, First: t0, Last: t0.Add(10 * day)}, time.Duration(float64(day) / math.Log(21))},
		{"always changed every minute: the minimum", VisitStats{Visits: 11, Changes: 10, First: t0, Last: t0.Add(10 * time.Minute)}, lo},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := NextVisit(tt.s, lo, hi).Sub(tt.s.Last)
			if d := got - tt.want; d > time.Minute || d < -time.Minute {
				t.Errorf("next visit %s after the last, want %s", got, tt.want)
			}
		})
	}
}
