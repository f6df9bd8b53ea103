package gateway

import (
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"time"

	"github.com/trawler/trawler/urlfilter"
)

// Policy holds the rules that depend on who asks and when: per-category
// defaults for black-list entries and per-client, time-of-day rules. The
// package doc gives the exact order of evaluation. A Policy is read from
// TOML with ParsePolicy or built in code; once handed to New or SetPolicy
// the gateway keeps its own copy, so the caller may reuse it.
type Policy struct {
	// Unknown, when set, replaces the gateway's default for URLs on
	// neither list as the policy is installed (as SetUnknown would); a
	// later SetUnknown changes it again. Decide uses it when no rule sets
	// one.
	Unknown *Action
	// Categories is the default action per black-list category: a black
	// entry blocks unless its category maps to Allow here (or a rule says
	// otherwise). Keys are compared without regard to case.
	Categories map[string]Action
	// Rules are tried in order; see Decide.
	Rules []Rule
}

// Rule applies to some clients at some times. Empty Clients means every
// client, empty Days every day, From == To the whole day.
type Rule struct {
	// Name appears in decisions and on block pages ("school hours").
	Name string
	// Clients are the source networks the rule covers.
	Clients []netip.Prefix
	// Days are the weekdays on which the window starts.
	Days []time.Weekday
	// From and To bound the window, [From, To): To < From runs across
	// midnight, the part after midnight belonging to the day it started.
	From, To Clock
	// Block and Allow name categories the rule decides while it applies.
	// A category in both is blocked.
	Block, Allow []string
	// Unknown, when set, decides URLs on neither list while it applies.
	Unknown *Action
}

// Clock is a time of day in minutes after midnight, 0 to 1440 ("24:00"
// is only meaningful as a To).
type Clock uint16

// ParseClock reads "HH:MM" (24-hour; "24:00" for the end of the day).
func ParseClock(s string) (Clock, error) {
	digit := func(i int) (int, bool) { return int(s[i] - '0'), s[i] >= '0' && s[i] <= '9' }
	if len(s) != 5 || s[2] != ':' {
		return 0, fmt.Errorf("time %q: want HH:MM", s)
	}
	h1, ok1 := digit(0)
	h2, ok2 := digit(1)
	m1, ok3 := digit(3)
	m2, ok4 := digit(4)
	if !ok1 || !ok2 || !ok3 || !ok4 {
		return 0, fmt.Errorf("time %q: want HH:MM", s)
	}
	h, m := h1*10+h2, m1*10+m2
	if m > 59 || h > 24 || (h == 24 && m != 0) {
		return 0, fmt.Errorf("time %q: out of range 00:00 to 24:00", s)
	}
	return Clock(h*60 + m), nil
}

// String writes the clock as "HH:MM".
func (c Clock) String() string { return fmt.Sprintf("%02d:%02d", c/60, c%60) }

// Decide answers what the policy does with match m for a client at time t.
// unknown is the default for URLs on neither list when neither a rule nor
// p.Unknown sets one. rule names the rule that decided, or is empty.
//
// A nil Policy blocks black entries, passes white ones and answers
// unknown for the rest.
func (p *Policy) Decide(client netip.Addr, t time.Time, m urlfilter.Match, unknown Action) (a Action, rule string) {
	client = client.Unmap()
	switch m.List {
	case urlfilter.Black:
		cat := strings.ToLower(m.Category)
		if p == nil {
			return Block, ""
		}
		if a, r, ok := p.categoryRule(client, t, cat); ok {
			return a, r
		}
		if a, ok := p.Categories[cat]; ok && cat != "" && a == Allow {
			return Allow, ""
		}
		return Block, ""
	case urlfilter.White:
		if a, r, ok := p.categoryRule(client, t, strings.ToLower(m.Category)); ok && a == Block {
			return Block, r
		}
		return Allow, ""
	}
	if p == nil {
		return unknown, ""
	}
	for i := range p.Rules {
		r := &p.Rules[i]
		if r.Unknown != nil && r.applies(client, t) {
			return *r.Unknown, r.Name
		}
	}
	if p.Unknown != nil {
		return *p.Unknown, ""
	}
	return unknown, ""
}

// categoryRule finds the first rule that applies now and names cat.
func (p *Policy) categoryRule(client netip.Addr, t time.Time, cat string) (Action, string, bool) {
	if p == nil || cat == "" {
		return Allow, "", false
	}
	for i := range p.Rules {
		r := &p.Rules[i]
		var a Action
		switch {
		case hasFold(r.Block, cat):
			a = Block
		case hasFold(r.Allow, cat):
			a = Allow
		default:
			continue
		}
		if r.applies(client, t) {
			return a, r.Name, true
		}
	}
	return Allow, "", false
}

func hasFold(list []string, s string) bool {
	for _, v := range list {
		if strings.EqualFold(v, s) {
			return true
		}
	}
	return false
}

// applies reports whether the rule covers client at time t.
func (r *Rule) applies(client netip.Addr, t time.Time) bool {
	if len(r.Clients) > 0 && !slices.ContainsFunc(r.Clients, func(p netip.Prefix) bool { return p.Contains(client) }) {
		return false
	}
	min := Clock(t.Hour()*60 + t.Minute())
	day := t.Weekday()
	switch {
	case r.From == r.To:
	case r.From < r.To:
		if min < r.From || min >= r.To {
			return false
		}
	case min >= r.From:
	case min < r.To:
		day = (day + 6) % 7 // after midnight: the window began yesterday
	default:
		return false
	}
	return len(r.Days) == 0 || slices.Contains(r.Days, day)
}

// clone copies p deeply with categories in lower case, so the gateway's
// copy cannot change under it and lookups compare cheaply.
func (p *Policy) clone() *Policy {
	if p == nil {
		return nil
	}
	c := &Policy{Rules: make([]Rule, len(p.Rules))}
	if p.Unknown != nil {
		u := *p.Unknown
		c.Unknown = &u
	}
	if p.Categories != nil {
		c.Categories = make(map[string]Action, len(p.Categories))
		for k, v := range p.Categories {
			c.Categories[strings.ToLower(k)] = v
		}
	}
	lower := func(s []string) []string {
		out := make([]string, len(s))
		for i, v := range s {
			out[i] = strings.ToLower(v)
		}
		return out
	}
	for i, r := range p.Rules {
		c.Rules[i] = r
		c.Rules[i].Clients = make([]netip.Prefix, len(r.Clients))
		for j, pf := range r.Clients {
			c.Rules[i].Clients[j] = pf.Masked()
		}
		c.Rules[i].Days = slices.Clone(r.Days)
		c.Rules[i].Block, c.Rules[i].Allow = lower(r.Block), lower(r.Allow)
		if r.Unknown != nil {
			u := *r.Unknown
			c.Rules[i].Unknown = &u
		}
	}
	return c
}
