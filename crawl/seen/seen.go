// Package seen is the crawler's seen-set: it admits each URL fingerprint
// once and never loses a new one (paper 004 §2.4).
//
// A Bloom filter answers the common question, "is this URL new?", without
// touching the exact set: when it says no, the URL is new for certain. When
// it says "maybe", an exact set of 64-bit fingerprints confirms it, so a
// Bloom false positive costs one extra lookup and never drops a new URL.
// The only way two different URLs are merged is a collision of their 64-bit
// fingerprints, which the fingerprinting package makes vanishingly rare.
//
// By default the Bloom filter follows paper 004: m = 20n bits and k = 10
// hash functions for a planned n URLs, a false-positive rate of about
// 8.9×10⁻⁵. The set is split into shards by fingerprint bits, each with its
// own lock, Bloom filter and exact table, so many workers can add at once.
//
// The set does not silently degrade when a crawl outgrows its plan: a shard
// that holds more than its share of the planned n (n divided by the shard
// count) doubles its share and rebuilds its Bloom filter, twice the size,
// from its exact table, which holds every key. So each Bloom filter always
// holds at most the keys it was sized for and its false-positive rate stays
// at or below the design rate. Shards fill at slightly different speeds, so
// around n URLs about half of them have already rebuilt; Stats.Planned sums
// the shards' current shares and Stats.Rebuilds counts the rebuilds. A
// rebuild holds only its shard's lock, for about the time it takes to hash
// that shard's keys once.
package seen

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/bits-and-blooms/bloom/v3"
)

// DefaultExpected is the planned number of URLs when Config.Expected is 0.
const DefaultExpected = 1_000_000

// Paper 004's Bloom parameters: m = 20n bits and k = 10 hash functions.
const (
	PaperBitsPerURL = 20
	PaperHashes     = 10
)

// defaultShardBits gives 64 shards: with 50 workers two rarely want the same
// lock, and each shard is still large enough that its Bloom filter is sized
// close to the plan.
const defaultShardBits = 6

// maxShardBits bounds the shard count a saved set may ask for.
const maxShardBits = 12

// Config sizes a Set.
type Config struct {
	// Expected is the planned number of URLs n; 0 means DefaultExpected.
	// Passing it is not a limit: the set keeps growing and resizes its
	// Bloom filters as it goes.
	Expected int
	// FalsePositive, if > 0, sizes the Bloom filter for this false-positive
	// rate p at n URLs: m = −n·ln p/(ln 2)², k = round(ln 2·m/n). If 0,
	// the paper's m = 20n, k = 10 is used.
	FalsePositive float64
}

// Validate reports a Config that New would refuse.
func (c Config) Validate() error {
	if c.Expected < 0 || c.Expected > maxPlanned {
		return fmt.Errorf("seen set: expected URL count %d is not in [0, %d]", c.Expected, maxPlanned)
	}
	p := c.FalsePositive
	if math.IsNaN(p) || p < 0 || p >= 1 {
		return fmt.Errorf("seen set: false-positive rate %v is not in [0, 1)", p)
	}
	return nil
}

// params returns the planned n, Bloom bits per planned URL and hash count.
func (c Config) params() (n int, bitsPerKey float64, k uint) {
	n = c.Expected
	if n == 0 {
		n = DefaultExpected
	}
	if c.FalsePositive == 0 {
		return n, PaperBitsPerURL, PaperHashes
	}
	bitsPerKey = -math.Log(c.FalsePositive) / (math.Ln2 * math.Ln2)
	k = uint(max(1, math.Round(math.Ln2*bitsPerKey)))
	return n, bitsPerKey, k
}

// Set is a concurrency-safe set of 64-bit URL fingerprints. Create it with
// New; the zero value is not usable.
type Set struct {
	shards     []shard
	shardMask  uint64
	shardBits  uint
	bitsPerKey float64
	k          uint
}

// shard is one lock's worth of the set. Every key in tab is also in bloom.
type shard struct {
	mu      sync.Mutex
	bloom   *bloom.BloomFilter
	tab     table
	planned int // keys bloom is sized for; doubles when tab passes it
	counters
	_ [64]byte // keeps neighbouring shards' locks off one cache line
}

// counters are one shard's statistics, guarded by the shard's lock.
type counters struct {
	adds, admitted, contains      uint64
	bloomNegatives, exactLookups  uint64
	falsePositives, bloomRebuilds uint64
}

// New returns an empty set sized by c. It panics if c.Validate fails; a
// crawl checks its configuration before it starts.
func New(c Config) *Set {
	if err := c.Validate(); err != nil {
		panic(err)
	}
	n, bitsPerKey, k := c.params()
	return newSet(defaultShardBits, n, bitsPerKey, k)
}

func newSet(shardBits uint, n int, bitsPerKey float64, k uint) *Set {
	s := &Set{
		shards:     make([]shard, 1<<shardBits),
		shardMask:  1<<shardBits - 1,
		shardBits:  shardBits,
		bitsPerKey: bitsPerKey,
		k:          k,
	}
	per := (n + len(s.shards) - 1) / len(s.shards)
	for i := range s.shards {
		sh := &s.shards[i]
		sh.planned = max(1, per)
		sh.bloom = bloom.New(bloomBits(sh.planned, bitsPerKey), k)
	}
	return s
}

// bloomBits is the Bloom size in bits for planned keys.
func bloomBits(planned int, bitsPerKey float64) uint {
	return uint(max(1, math.Ceil(bitsPerKey*float64(planned))))
}

// Add admits fp if it was not in the set and reports whether it was new.
// Of many concurrent Adds of the same fp exactly one returns true.
func (s *Set) Add(fp uint64) bool {
	h := mix(fp)
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], fp)
	sh := &s.shards[h&s.shardMask]
	sh.mu.Lock()
	added := sh.add(fp, h, b[:], s.bitsPerKey, s.k)
	sh.mu.Unlock()
	return added
}

func (sh *shard) add(fp, h uint64, b []byte, bitsPerKey float64, k uint) bool {
	sh.adds++
	if sh.bloom.TestOrAdd(b) {
		sh.exactLookups++
		if !sh.tab.insert(fp, h) {
			return false
		}
		sh.falsePositives++
	} else {
		sh.bloomNegatives++
		sh.tab.insertNew(fp, h)
	}
	sh.admitted++
	if sh.tab.len() > sh.planned {
		sh.planned *= 2
		sh.rebuild(bitsPerKey, k)
		sh.bloomRebuilds++
	}
	return true
}

// rebuild replaces the Bloom filter with one sized for sh.planned holding
// every key of the exact table.
func (sh *shard) rebuild(bitsPerKey float64, k uint) {
	f := bloom.New(bloomBits(sh.planned, bitsPerKey), k)
	var b [8]byte
	if sh.tab.zero {
		binary.LittleEndian.PutUint64(b[:], 0)
		f.Add(b[:])
	}
	for _, key := range sh.tab.slots {
		if key != 0 {
			binary.LittleEndian.PutUint64(b[:], key)
			f.Add(b[:])
		}
	}
	sh.bloom = f
}

// Contains reports whether fp is in the set.
func (s *Set) Contains(fp uint64) bool {
	h := mix(fp)
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], fp)
	sh := &s.shards[h&s.shardMask]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	sh.contains++
	if !sh.bloom.Test(b[:]) {
		sh.bloomNegatives++
		return false
	}
	sh.exactLookups++
	if sh.tab.has(fp, h) {
		return true
	}
	sh.falsePositives++
	return false
}

// Len returns the number of fingerprints in the set.
func (s *Set) Len() int {
	n := 0
	for i := range s.shards {
		sh := &s.shards[i]
		sh.mu.Lock()
		n += sh.tab.len()
		sh.mu.Unlock()
	}
	return n
}

// Stats describes a Set's work and size, for the progress view and for
// checking that the Bloom filter spares the exact set.
type Stats struct {
	Adds           uint64 // calls to Add
	Admitted       uint64 // Adds that found a new fingerprint and returned true
	Contains       uint64 // calls to Contains
	BloomNegatives uint64 // Add and Contains calls settled by the Bloom filter alone
	ExactLookups   uint64 // Add and Contains calls that had to consult the exact set
	FalsePositives uint64 // exact lookups where the Bloom filter's "maybe" was wrong
	Rebuilds       uint64 // Bloom filters rebuilt larger because a shard passed its plan

	Len     int    // fingerprints held
	Planned int    // current planned n: the keys the Bloom filters are sized for
	M       uint64 // Bloom filter bits, all shards together
	K       int    // Bloom hash functions
	Bytes   int64  // approximate memory held by Bloom filters and exact tables
	Shards  int    // number of shards
}

// Stats returns the counters and sizes, summed over shards. Counters start
// at zero in New and in ReadFrom.
func (s *Set) Stats() Stats {
	st := Stats{K: int(s.k), Shards: len(s.shards)}
	for i := range s.shards {
		sh := &s.shards[i]
		sh.mu.Lock()
		c := sh.counters
		st.Len += sh.tab.len()
		st.Planned += sh.planned
		st.M += uint64(sh.bloom.Cap())
		st.Bytes += int64(sh.bloom.Cap()+63)/64*8 + sh.tab.bytes()
		sh.mu.Unlock()
		st.Adds += c.adds
		st.Admitted += c.admitted
		st.Contains += c.contains
		st.BloomNegatives += c.bloomNegatives
		st.ExactLookups += c.exactLookups
		st.FalsePositives += c.falsePositives
		st.Rebuilds += c.bloomRebuilds
	}
	return st
}

// errNoShards guards methods called on a zero Set.
var errNoShards = errors.New("seen set: not created with New")
