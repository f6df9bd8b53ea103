package db

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestLazyGather lists searches with other filters through the gather
// that asks the full-text index about the sorted rows in order: every row
// sorted, or only the first few (the rest sorted only when those hold
// too few matches), by offset and after a cursor. PostgreSQL's planner
// chooses for itself.
func TestLazyGather(t *testing.T) {
	sqliteOnly(t)
	d, s, raw := judgedCrawl(t)
	two := 2
	// A search that a third of the pages match, a few of them among
	// those the other filters keep.
	var some []string
	for i := 0; i < 61; i += 3 {
		some = append(some, fmt.Sprintf("word%d", i))
	}
	search := "fts: " + strings.Join(some, " OR ")
	matches := func(r rawRow) bool {
		return slices.ContainsFunc(some, func(w string) bool { return strings.Contains(r.text+" ", " "+w+" ") })
	}
	tests := []struct {
		name string
		q    PageQuery
		keep func(rawRow) bool
	}{
		{"every page matches", PageQuery{Search: "shared", Verdict: "white"},
			func(r rawRow) bool { return verdictOf(r) == "white" }},
		{"some match", PageQuery{Search: search, Verdict: "grey"},
			func(r rawRow) bool { return verdictOf(r) == "grey" && matches(r) }},
		{"depth and type", PageQuery{Search: search, Depth: &two, ContentType: "text/html"},
			func(r rawRow) bool { return r.depth == 2 && r.ctype == "text/html" && matches(r) }},
		{"near", PageQuery{Search: "shared", NearDuplicates: true}, nearDuplicate},
	}
	defer func() { forcePlan = nil }()
	for _, bound := range []int{0, 1, 2, 5} {
		forcePlan = func(c []listPlan) listPlan {
			g := c[len(c)-1]
			if !g.gather || !g.lazy {
				t.Fatalf("the gather is %+v, want a lazy one", g)
			}
			g.bound = bound
			return g
		}
		for _, tt := range tests {
			for _, sort := range []SortKey{SortStored, SortURL, SortStatus, SortTitle} {
				t.Run(fmt.Sprintf("%s/%s/bound%d", tt.name, sort, bound), func(t *testing.T) {
					q := tt.q
					q.Crawl, q.Limit, q.Sort, q.Desc = s.ID(), 3, sort, sort == SortTitle
					want := expected(raw, q, tt.keep)
					if len(want) < 4 {
						t.Fatalf("the filter selects %d pages: the test data is wrong", len(want))
					}
					if got := pageThrough(t, d, q); !slices.Equal(got, want) {
						t.Errorf("ids %v, want %v", got, want)
					}
					checkPagesAt(t, d, q, want, 2, 3)
				})
			}
		}
	}
}

// TestPlanOrder orders made-up candidates as plans does: a walk goes
// after the gather when what it risks on clustered matches outweighs
// what it saves, and a probe of the cheapest walk on evenly spread
// matches may go in front.
func TestPlanOrder(t *testing.T) {
	const span = 1_000_000
	walk := func(sets filterSet, fixed, cost, entries float64) listPlan {
		return listPlan{access: access{index: "pages_url", sets: sets}, fixed: fixed, cost: cost, entries: entries,
			perEntry: costEntry}
	}
	gather := func(cost float64) listPlan {
		return listPlan{gather: true, access: access{drive: byVerdict}, cost: cost}
	}
	tests := []struct {
		name string
		c    []listPlan
		want []string // each plan as kind/cost/bound
	}{
		{"a verdict's pages, perhaps late in the order: probe, then gather",
			[]listPlan{walk(byVerdict, 4000, 36700, 10_000), gather(40_000)},
			[]string{"walk/7000/31000", "gather/40000/0", "walk/36700/0"}},
		{"a walk much cheaper than the gather goes first",
			[]listPlan{walk(byVerdict, 40_000, 67_300, 100_000), gather(400_000)},
			[]string{"walk/67300/0", "gather/400000/0"}},
		{"a walk whose set is most of its cost goes first",
			[]listPlan{walk(byNear, 100_000, 129_100, 2000), gather(200_000)},
			[]string{"walk/129100/666666", "gather/200000/0"}},
		{"a walk that cannot cost more than the gather goes first",
			[]listPlan{walk(0, 0, 250_000, 800_000), gather(300_000)},
			[]string{"walk/250000/0", "gather/300000/0"}},
		{"no probe when the walk is not cheap on evenly spread matches",
			[]listPlan{walk(byVerdict, 30_000, 45_000, 20_000), gather(50_000)},
			[]string{"gather/50000/0", "walk/45000/0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, p := range order(slices.Clone(tt.c), span) {
				kind := "walk"
				if p.gather {
					kind = "gather"
				}
				got = append(got, fmt.Sprintf("%s/%.0f/%d", kind, p.cost, p.bound))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("order = %v, want %v", got, tt.want)
			}
		})
	}
}
