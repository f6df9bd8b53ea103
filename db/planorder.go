package db

import (
	"cmp"
	"math"
	"slices"
	"time"
)

// order sorts the candidate plans, the gather last among them, for a
// listing whose walks may read span index entries: cheapest first, a walk
// weighed by what it risks (see risked), and bounds each walk but the
// last (see bounds).
func order(c []listPlan, span float64) []listPlan {
	g := c[len(c)-1].cost // the gather's
	slices.SortStableFunc(c, func(a, b listPlan) int { return cmp.Compare(a.risked(g, span), b.risked(g, span)) })
	return bounds(c, span)
}

// risked is p's cost as plans orders it, gather the gather's cost. A
// walk's estimate allows for one run of refused rows; when they are more
// and the walk may read more than the gather costs, it reaches its bound
// (see bounds), at up to 1.5 times the gather's cost, and the gather
// follows. So a walk goes first only when it saves more than it risks:
// when, with the part of its estimate that depends on where the matches
// lie taken riskGain times, it still costs less than the gather. A walk
// that is not first may still be tried first as a probe, bounded near the
// entries it expects, when it is cheap on evenly spread matches (see
// bounds).
func (p listPlan) risked(gather, span float64) float64 {
	if p.gather || p.fixed+span*p.perEntry <= gather {
		return p.cost
	}
	// Only the part that depends on where the matches lie is at risk:
	// a set of ids costs the same whatever the walk finds.
	return p.fixed + (p.cost-p.fixed)*riskGain
}

// bounds limits the index entries each walk but the last may read, so
// that it stops at about the cost of the plan after it (at least
// minBudget): the estimates assume matches spread evenly along the sort
// order; when they gather late in it, a walk reaches its bound and the
// next plan, which depends less on where they are, takes over, so the
// listing costs at most about twice the better. A bound counts entries,
// not time: it stops a walk at the same place whatever else the machine
// is doing, and without interrupting SQLite (which costs the connection
// and its cache).
//
// When the cheapest walk on evenly spread matches is much cheaper than the
// first plan, it goes first, bounded to probeEntries times the entries it
// expects to read: matches either spread along an order or gather in a
// few runs (a host's pages in URL order), and this tells which, cheaply.
// In front of a gather that risked put first, riskGain times cheaper is
// enough.
//
// A bound that reaches span, the entries a walk may read at all, is
// dropped: a bounded walk costs a little more per entry.
func bounds(plans []listPlan, span float64) []listPlan {
	best := -1
	for i, p := range plans {
		if !p.gather && p.perEntry > 0 && (best < 0 || p.optimistic() < plans[best].optimistic()) {
			best = i
		}
	}
	gain := probeGain
	if plans[0].gather && slices.ContainsFunc(plans, func(p listPlan) bool { return !p.gather && p.cost < plans[0].cost }) {
		gain = riskGain // a walk estimated cheaper than the gather went after it (see risked)
	}
	if best > 0 && plans[best].optimistic()*gain < plans[0].cost && (plans[0].gather || plans[best].sets != plans[0].sets) {
		probe := plans[best]
		probe.cost = probe.optimistic()
		plans = append([]listPlan{probe}, plans...)
		plans[0].bound = probeBound(probe)
	}
	for i := range plans[:len(plans)-1] {
		p := &plans[i]
		if p.gather || p.bound > 0 {
			continue
		}
		allowed := max(float64(minBudget.Microseconds()), plans[i+1].cost*budgetScale)
		p.bound = max(1, int(min((allowed-p.fixed)/max(p.perEntry, costEntry), math.MaxInt32)))
	}
	for i := range plans {
		if float64(plans[i].bound) >= span {
			plans[i].bound = 0
		}
	}
	return plans
}

// optimistic is what walk p costs when the matches are spread evenly.
func (p listPlan) optimistic() float64 { return p.fixed + p.entries*p.perEntry }

// probeBound is the bound of a walk tried first on the hope that the
// matches are spread evenly.
func probeBound(p listPlan) int {
	return max(1, int(min(probeEntries*p.entries+probeSlack, math.MaxInt32)))
}

// minBudget is the least cost a walk may reach before the next plan is
// tried; budgetScale turns the next plan's estimate into the cost a walk
// may reach. A probe (see bounds) is tried when it costs probeGain times
// less than the first plan, and walks probeEntries times the entries it
// expects, plus probeSlack. A walk that may read more than the gather
// costs goes before it when it costs riskGain times less (see risked);
// when one does not, a probe costing riskGain times less than the gather
// goes first.
var (
	minBudget    = 30 * time.Millisecond
	budgetScale  = 1.5
	probeGain    = 4.0
	probeEntries = 3.0
	probeSlack   = 1000.0
	riskGain     = 2.0
)
