package urlfilter

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"
	"time"
)

// perCore runs b's loop body with its goroutine locked to one thread and
// reports, besides ns/op, the rate per second of wall clock (unit) and per
// second of that thread's CPU time (unit with "cpu-s"): the per-core rate,
// whatever else the machine is running.
func perCore(b *testing.B, unit string, body func(i int)) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var cpu time.Duration
	i := 0
	start := threadCPU()
	for b.Loop() {
		body(i)
		i++
	}
	cpu = threadCPU() - start
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), unit+"/s")
	if cpu > 0 {
		b.ReportMetric(float64(b.N)/cpu.Seconds(), unit+"/cpu-s")
	}
}

// benchEntries is the list size the targets are set at.
const benchEntries = 1_000_000

// benchQueries is how many digests or URLs a benchmark cycles through:
// drawn at random from the whole structure, but few enough (1 MB of
// digests) that reading them does not evict the structure from the caches,
// as a digest just computed by MD5 would not.
const benchQueries = 1 << 16

// digestBench is one list of benchEntries digests in each structure, and
// the queries that hit and miss it. Built once for all -count runs.
type digestBench struct {
	hits, misses []Digest
	sets         []namedSet
}

type namedSet struct {
	name          string
	set           digestSet
	bytesPerEntry float64
}

var digestBenchOnce = sync.OnceValue(func() *digestBench {
	items := digests(7, benchEntries)
	rng := rand.New(rand.NewPCG(7, 7))
	db := &digestBench{}
	for i := range benchQueries {
		db.hits = append(db.hits, items[rng.IntN(len(items))].d)
		db.misses = append(db.misses, digestN(8, i))
	}
	add := func(name string, build func() digestSet) {
		heap, s := measureHeap(benchEntries*24, func() any { return build() })
		db.sets = append(db.sets, namedSet{name, s.(digestSet), heap / benchEntries})
	}
	add("chained", func() digestSet {
		c := newChained(benchEntries) // one bucket per entry: the textbook load
		for i := range items {
			c.push(&items[i].d, items[i].tag)
		}
		return c
	})
	add("bitmap", func() digestSet { return buildTable(shapeFor(benchEntries, 0, false), items, nil) })
	add("bloom-bitmap", func() digestSet { return buildTable(shapeFor(benchEntries, 0, true), items, nil) })
	add("gomap", func() digestSet {
		m := make(goMap)
		for i := range items {
			m[items[i].d] = struct{}{}
		}
		return m
	})
	return db
})

// BenchmarkDigest looks digests up in one list of a million entries held
// by each structure: hits (listed digests) and misses (unlisted ones).
// bytes/entry is the heap the structure holds, cmp/lookup the digest
// comparisons. The names are benchstat keys, so that
//
//	benchstat -col /struct -row /q file
//
// gives each structure's ratio to the chained table's.
func BenchmarkDigest(b *testing.B) {
	db := digestBenchOnce()
	for _, ns := range db.sets {
		for _, q := range []struct {
			name    string
			queries []Digest
			want    bool
		}{{"hit", db.hits, true}, {"miss", db.misses, false}} {
			b.Run("struct="+ns.name+"/q="+q.name, func(b *testing.B) {
				comps := 0
				for i := range q.queries {
					if _, ok, c := ns.set.lookupCount(&q.queries[i]); ok != q.want {
						b.Fatalf("query %d: found %v", i, ok)
					} else {
						comps += c
					}
				}
				found := 0
				perCore(b, "lookups", func(i int) {
					if _, ok := ns.set.lookup(&q.queries[i&(benchQueries-1)]); ok {
						found++
					}
				})
				if found != b.N && q.want || found != 0 && !q.want {
					b.Fatalf("%d of %d found", found, b.N)
				}
				b.ReportMetric(ns.bytesPerEntry, "bytes/entry")
				if comps >= 0 {
					b.ReportMetric(float64(comps)/float64(len(q.queries)), "cmp/lookup")
				}
			})
		}
	}
}

// filterBench is a Filter of benchEntries entries of every kind, split
// between the lists, and URLs to decide: 10 % listed (by exact URL, host,
// parent domain or prefix), 90 % not.
type filterBench struct {
	f                *Filter
	canonical, messy []string
}

var filterBenchOnce = sync.OnceValue(func() *filterBench {
	rng := rand.New(rand.NewPCG(9, 9))
	fb := &filterBench{f: New()}
	b := NewBuilder(benchEntries)
	cats := []string{"", "gambling", "adult", "malware", "news"}
	var urls, hosts, prefixes []string
	for i := range benchEntries {
		site := fmt.Sprintf("www.site%d.example", i)
		e := Entry{List: List(1 + rng.IntN(2)), Category: cats[i%len(cats)]}
		switch i % 10 {
		case 0, 1, 2, 3, 4: // half exact URLs
			e.Kind, e.Value = KindURL, fmt.Sprintf("https://%s/articles/%d/index.html?id=%d", site, i%97, i)
			urls = append(urls, e.Value)
		case 5, 6, 7: // 30 % hosts, of two or three labels
			e.Kind, e.Value = KindHost, fmt.Sprintf("site%d.example", i)
			if i%3 == 0 {
				e.Value = "ads." + e.Value
			}
			hosts = append(hosts, e.Value)
		default: // 20 % prefixes of one or two segments
			e.Kind, e.Value = KindPrefix, fmt.Sprintf("%s/shop%d", site, i%13)
			if i%2 == 0 {
				e.Value += "/private"
			}
			prefixes = append(prefixes, e.Value)
		}
		if err := b.Add(e); err != nil {
			panic(err)
		}
	}
	if err := fb.f.LoadBuilder(b); err != nil {
		panic(err)
	}
	for range benchQueries {
		var u string
		switch r := rng.IntN(100); {
		case r < 4:
			u = urls[rng.IntN(len(urls))]
		case r < 7:
			u = fmt.Sprintf("http://cdn.%s/img/%d.png", hosts[rng.IntN(len(hosts))], rng.IntN(1000))
		case r < 10:
			u = fmt.Sprintf("https://%s/item%d.html", prefixes[rng.IntN(len(prefixes))], rng.IntN(1000))
		default:
			u = fmt.Sprintf("https://www.other%d.example.org/news/%d/%02d/story-%d.html?ref=home",
				rng.IntN(benchEntries), 2000+rng.IntN(25), 1+rng.IntN(12), rng.IntN(1e6))
		}
		fb.canonical = append(fb.canonical, u)
		// The same URL as a browser might send it: upper-case host,
		// default port, fragment.
		m := fmt.Sprintf("%s#top", u)
		if i := len("https://"); len(m) > i && m[:i] == "https://" {
			m = "HTTPS://" + m[i:]
		}
		fb.messy = append(fb.messy, m)
	}
	return fb
})

// BenchmarkLookup decides whole URLs through Filter.Lookup on a million
// entries: normalization, MD5 of every key that could match, and the
// lookups of each key in both lists.
func BenchmarkLookup(b *testing.B) {
	fb := filterBenchOnce()
	for _, q := range []struct {
		name string
		urls []string
	}{{"canonical", fb.canonical}, {"messy", fb.messy}} {
		b.Run("url="+q.name, func(b *testing.B) {
			listed := 0
			for _, u := range q.urls {
				if fb.f.Lookup(u).Found() {
					listed++
				}
			}
			if share := float64(listed) / float64(len(q.urls)); share < 0.09 || share > 0.11 {
				b.Fatalf("%.3f of the URLs are listed", share)
			}
			perCore(b, "decisions", func(i int) { fb.f.Lookup(q.urls[i&(benchQueries-1)]) })
		})
	}
}

// BenchmarkUpdate adds and removes five entries on a million-entry filter,
// as a gateway does every half second.
func BenchmarkUpdate(b *testing.B) {
	fb := filterBenchOnce()
	f := &Filter{}
	f.snap.Store(fb.f.load())
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		var add, remove []Entry
		for j := range 5 {
			add = append(add, Entry{List: Black, Kind: KindHost, Value: fmt.Sprintf("new%d.example", i*5+j)})
			remove = append(remove, Entry{List: Black, Kind: KindHost, Value: fmt.Sprintf("new%d.example", (i-1)*5+j)})
		}
		if err := f.Update(add, remove); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
