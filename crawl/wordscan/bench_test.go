package wordscan

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/trawler/trawler/crawl/cputime"
)

// Synthetic lists and pages for the benchmarks: Latin words, Latin
// phrases, Chinese words and mixed terms, and pages of prose-like text in
// which a term turns up now and then. The alphabet of Han characters is
// drawn once from the common block.

var benchHan = func() []rune {
	r := rand.New(rand.NewPCG(7, 7))
	seen := map[rune]bool{}
	var out []rune
	for len(out) < 2500 {
		c := rune(0x4E00 + r.IntN(0x9FA5-0x4E00))
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out
}()

func benchLatin(r *rand.Rand, min, max int) string {
	b := make([]byte, min+r.IntN(max-min+1))
	for i := range b {
		b[i] = "etaoinshrdlucmfwypvbgkqjxz"[int(r.ExpFloat64()*6)%26]
	}
	return string(b)
}

func benchHanWord(r *rand.Rand, min, max int) string {
	var b strings.Builder
	for i, n := 0, min+r.IntN(max-min+1); i < n; i++ {
		b.WriteRune(benchHan[int(r.ExpFloat64()*800)%len(benchHan)])
	}
	return b.String()
}

// benchTerms makes n distinct terms: 40% Latin words, 10% two-word
// phrases, 40% Chinese words of 2–4 characters, 10% mixed.
func benchTerms(n int) []string {
	r := rand.New(rand.NewPCG(1, uint64(n)))
	seen := map[string]bool{}
	var out []string
	for len(out) < n {
		var t string
		switch k := r.IntN(10); {
		case k < 4:
			t = benchLatin(r, 4, 12)
		case k < 5:
			t = benchLatin(r, 3, 8) + " " + benchLatin(r, 3, 8)
		case k < 9:
			t = benchHanWord(r, 2, 4)
		default:
			t = benchHanWord(r, 1, 2) + benchLatin(r, 2, 5)
		}
		if !seen[Normalize(t)] {
			seen[Normalize(t)] = true
			out = append(out, t)
		}
	}
	return out
}

func benchLists(n int) *Lists {
	l := &Lists{Thresholds: map[string]float64{}}
	for i, t := range benchTerms(n) {
		l.Terms = append(l.Terms, Term{Text: t, Weight: 1, Category: fmt.Sprintf("c%d", i%8)})
	}
	return l
}

var benchWords = strings.Fields("The of and to in is was for on that with as by at from it an be are this " +
	"which or his had not but have were they has one their all been more its also new other who after first " +
	"two when there can into time would some these only may most over such where between years used then " +
	"city many during about under school world part them made well three known state people called film")

// benchText makes about size bytes of page text. kind is "ascii"
// (English words), "cjk" (Chinese sentences) or "mixed" (half and half,
// with full-width letters now and then); one token in every fifty is a
// term.
func benchText(size int, terms []string, kind string) string {
	r := rand.New(rand.NewPCG(2, uint64(size)))
	var b strings.Builder
	for b.Len() < size {
		if r.IntN(50) == 0 {
			t := terms[r.IntN(len(terms))]
			if kind == "ascii" && t[0] >= 0x80 {
				continue
			}
			b.WriteString(t + " ")
			continue
		}
		cjk := kind == "cjk" || kind == "mixed" && r.IntN(2) == 0
		if !cjk {
			b.WriteString(benchWords[r.IntN(len(benchWords))])
			b.WriteString(", "[r.IntN(8)/7:])
			continue
		}
		for i, n := 0, 2+r.IntN(8); i < n; i++ {
			b.WriteRune(benchHan[r.IntN(len(benchHan))])
		}
		if kind == "mixed" && r.IntN(10) == 0 {
			b.WriteString("ＶＩＰ")
		}
		b.WriteString("，。"[3*r.IntN(2) : 3*r.IntN(2)+3])
	}
	return b.String()
}

// BenchmarkScan scans about 1 MB of page text with 10,000 terms; the
// MB/s column is the figure to watch.
func BenchmarkScan(b *testing.B) {
	l := benchLists(10000)
	s, err := Compile(l)
	if err != nil {
		b.Fatal(err)
	}
	var terms []string
	for _, t := range l.Terms {
		terms = append(terms, t.Text)
	}
	for _, kind := range []string{"ascii", "cjk", "mixed"} {
		text := benchText(1<<20, terms, kind)
		b.Run(kind, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			var hits int
			cpu := cputime.Self().Seconds()
			for b.Loop() {
				hits = len(s.Scan(Doc{Text: text}).Hits)
			}
			cpuRate(b, cpu, int64(len(text)))
			b.ReportMetric(float64(hits), "terms-found")
		})
	}
	// A typical page: 20 kB of text, a title, a few anchors.
	page := Doc{Title: "Some page title", Text: benchText(20<<10, terms, "mixed"),
		Anchors: []string{"home", "next page", "下一页"}}
	b.Run("page20k", func(b *testing.B) {
		b.SetBytes(int64(len(page.Text)))
		b.ReportAllocs()
		cpu := cputime.Self().Seconds()
		for b.Loop() {
			s.Scan(page)
		}
		cpuRate(b, cpu, int64(len(page.Text)))
	})
}

// BenchmarkNormalize measures normalizing alone, the part of Scan that
// does not depend on the lists, on the same texts as BenchmarkScan.
func BenchmarkNormalize(b *testing.B) {
	terms := benchTerms(10000)
	n := newNormalizer()
	for _, kind := range []string{"ascii", "cjk", "mixed"} {
		text := benchText(1<<20, terms, kind)
		b.Run(kind, func(b *testing.B) {
			var buf []byte
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			cpu := cputime.Self().Seconds()
			for b.Loop() {
				buf = n.appendNorm(buf[:0], text)
			}
			cpuRate(b, cpu, int64(len(text)))
		})
		b.Run(kind+"-reference", func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			cpu := cputime.Self().Seconds()
			for b.Loop() {
				refNormalize(text)
			}
			cpuRate(b, cpu, int64(len(text)))
		})
	}
}

// BenchmarkCompile measures Compile for 10,000 and 100,000 terms and
// reports the live heap the compiled Scanner holds.
func BenchmarkCompile(b *testing.B) {
	for _, n := range []int{10000, 100000} {
		l := benchLists(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			var s *Scanner
			for b.Loop() {
				var err error
				if s, err = Compile(l); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			s = nil
			before := liveHeap()
			s, _ = Compile(l)
			s.Scan(Doc{Text: "warm the pool"})
			after := liveHeap()
			b.ReportMetric(float64(after-before)/1e6, "MB-heap")
			b.ReportMetric(float64(s.ac.StateCount()), "states")
			runtime.KeepAlive(s)
		})
	}
}

// cpuRate reports throughput per CPU-second of this process (user plus
// system, so garbage collection counts) beside the wall-clock MB/s, which
// other load on a shared machine distorts. It must be called right after
// the timed loop that started at start.
func cpuRate(b *testing.B, start float64, bytes int64) {
	if used := cputime.Self().Seconds() - start; used > 0 && bytes > 0 {
		b.ReportMetric(float64(bytes)*float64(b.N)/used/1e6, "MB/cpu-s")
	}
}

func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
