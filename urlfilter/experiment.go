package urlfilter

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"
)

// ExperimentConfig sets up paper 002's experiment: a black and a
// white list of generated URLs, a stream of URLs to filter, and the hash
// tables to compare. The zero value of a field means the paper's setting.
type ExperimentConfig struct {
	Entries int           // URLs per list; 0 means 10,000
	Buckets int           // buckets per hash table; 0 means 100
	Lookups int           // URLs in the stream to filter; 0 means 1,000,000
	Listed  float64       // share of the stream on a list; 0 means 0.1
	MaxTime time.Duration // time bound per structure; 0 means 2 s
	Seed    uint64        // seed of the URL generator
}

// ExperimentRow is one structure's result. Lookups is how many URLs of the
// stream were measured: fewer than asked when MaxTime ran out first.
type ExperimentRow struct {
	Structure     string
	Params        string  // the structure's shape, for people
	Entries       int     // URLs per list
	Buckets       int     // 0 for Go's map
	Lookups       int     // URLs measured
	Found         int     // of those, how many were on a list
	Comparisons   float64 // digest comparisons per URL; -1: not countable (Go's map)
	NsPerLookup   float64 // one decision: the black list, then the white list
	BytesPerEntry float64 // heap growth from building both lists, per entry
}

// The structures Experiment compares, in the order of its rows; callers
// find a row by these names.
const (
	StructChained = "chained hash table"
	StructBitmap  = "bitmap table"
	StructBloom   = "Bloom + bitmap table"
	StructGoMap   = "Go map"
)

// digestSet is what the experiment asks of each structure.
type digestSet interface {
	lookup(d *Digest) (uint8, bool)
	lookupCount(d *Digest) (uint8, bool, int)
}

type goMap map[[16]byte]struct{}

func (m goMap) lookup(d *Digest) (uint8, bool) {
	_, ok := m[*d]
	return 0, ok
}

func (m goMap) lookupCount(d *Digest) (uint8, bool, int) {
	_, ok := m[*d]
	return 0, ok, -1
}

// builtSet is one structure built for both lists.
type builtSet struct {
	name, params string
	buckets      int
	sets         [2]digestSet
}

// Experiment re-runs paper 002's experiment: it generates two lists of
// cfg.Entries URLs, builds each list as a chained hash table (the paper's
// baseline), the improved bitmap table, the bitmap table behind a Bloom
// filter, and a Go map, then filters the same stream of URLs (their MD5
// digests, computed beforehand) through each: black list first, then white.
// It returns one row per structure and fails if any structure answers a
// URL differently from what was generated.
func Experiment(cfg ExperimentConfig) ([]ExperimentRow, error) {
	cfg = cfg.withDefaults()
	if cfg.Entries < 1 || cfg.Buckets < 1 || cfg.Lookups < 1 || cfg.Listed < 0 || cfg.Listed > 1 {
		return nil, errors.New("urlfilter: experiment needs entries, buckets and lookups ≥ 1, listed in [0, 1]")
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x002))
	lists := [2][]slot{generate(rng, 'b', cfg.Entries), generate(rng, 'w', cfg.Entries)}
	stream := make([]Digest, cfg.Lookups)
	want := make([]bool, cfg.Lookups)
	unlisted := generate(rng, 'u', cfg.Lookups)
	for i := range stream {
		if rng.Float64() < cfg.Listed {
			l := lists[rng.IntN(2)]
			stream[i], want[i] = l[rng.IntN(len(l))].d, true
		} else {
			stream[i] = unlisted[i].d
		}
	}
	unlisted = nil
	builders := []func() builtSet{
		func() builtSet {
			var s [2]digestSet
			for l, items := range lists {
				c := newChained(cfg.Buckets)
				for i := range items {
					c.push(&items[i].d, items[i].tag) // generate makes distinct URLs
				}
				s[l] = c
			}
			return builtSet{StructChained, "linked lists", cfg.Buckets, s}
		},
		func() builtSet { return bitmapSets(StructBitmap, cfg, lists, false) },
		func() builtSet { return bitmapSets(StructBloom, cfg, lists, true) },
		func() builtSet {
			var s [2]digestSet
			for l, items := range lists {
				m := make(goMap)
				for i := range items {
					m[items[i].d] = struct{}{}
				}
				s[l] = m
			}
			return builtSet{StructGoMap, "map[[16]byte]struct{}", 0, s}
		},
	}
	var rows []ExperimentRow
	for _, build := range builders {
		heap, x := measureHeap(2*cfg.Entries*24, func() any { return build() })
		b := x.(builtSet)
		n, elapsed := timeDecisions(b.sets, stream, cfg.MaxTime)
		row := ExperimentRow{Structure: b.name, Params: b.params, Entries: cfg.Entries, Buckets: b.buckets,
			Lookups: n, NsPerLookup: float64(elapsed.Nanoseconds()) / float64(n),
			BytesPerEntry: heap / float64(2*cfg.Entries)}
		comps, countable := 0, true
		for i, d := range stream[:n] {
			found := false
			for _, s := range b.sets {
				_, ok, c := s.lookupCount(&d)
				comps += c
				countable = countable && c >= 0
				if ok {
					found = true
					break
				}
			}
			if found != want[i] {
				return nil, fmt.Errorf("urlfilter: %s answers URL %d wrongly (found %v)", b.name, i, found)
			}
			if found {
				row.Found++
			}
		}
		row.Comparisons = float64(comps) / float64(n)
		if !countable {
			row.Comparisons = -1
		}
		rows = append(rows, row)
	}
	return rows, nil
}

func (c ExperimentConfig) withDefaults() ExperimentConfig {
	if c.Entries == 0 {
		c.Entries = 10_000
	}
	if c.Buckets == 0 {
		c.Buckets = 100
	}
	if c.Lookups == 0 {
		c.Lookups = 1_000_000
	}
	if c.Listed == 0 {
		c.Listed = 0.1
	}
	if c.MaxTime <= 0 {
		c.MaxTime = 2 * time.Second
	}
	return c
}

func bitmapSets(name string, cfg ExperimentConfig, lists [2][]slot, withBloom bool) builtSet {
	var s [2]digestSet
	var t *table
	for l, items := range lists {
		t = buildTable(shapeFor(len(items), cfg.Buckets, withBloom), items, nil)
		s[l] = t
	}
	return builtSet{name, fmt.Sprintf("w=%d bits, r=%v", t.w, growFactor), cfg.Buckets, s}
}

// generate makes n distinct URLs of one family, like a crawler's lists
// ("http://www.site123.example/dir4/page56789.html"), as digests with a
// category tag.
func generate(rng *rand.Rand, family byte, n int) []slot {
	out := make([]slot, n)
	buf := make([]byte, 0, 96)
	for i := range out {
		buf = append(buf[:0], "http://www."...)
		buf = append(buf, family)
		buf = strconv.AppendUint(buf, rng.Uint64N(100_000), 10)
		buf = append(buf, ".example/dir"...)
		buf = strconv.AppendUint(buf, rng.Uint64N(50), 10)
		buf = append(buf, "/page"...)
		buf = strconv.AppendInt(buf, int64(i), 10)
		buf = append(buf, ".html"...)
		out[i] = slot{d: Key(KindURL, string(buf)), tag: uint8(i % 8)}
	}
	return out
}

// timeDecisions filters stream through sets (black, then white) until the
// stream ends or max has passed, checked every 1024 URLs.
func timeDecisions(sets [2]digestSet, stream []Digest, max time.Duration) (int, time.Duration) {
	start := time.Now()
	n := 0
	for n < len(stream) {
		for _, d := range stream[n:min(n+1024, len(stream))] {
			if _, ok := sets[0].lookup(&d); !ok {
				sets[1].lookup(&d)
			}
		}
		n = min(n+1024, len(stream))
		if time.Since(start) > max {
			break
		}
	}
	return n, time.Since(start)
}
