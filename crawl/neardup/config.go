package neardup

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
)

// Defaults used for the zero fields of a Config.
const (
	DefaultShingle   = 5
	DefaultHashes    = 1024
	DefaultBands     = 28
	DefaultRows      = 9
	DefaultThreshold = 0.9
)

// Sketch versions: the ways a shingle is hashed. Sketches of different
// versions never match, so a crawl keeps the version it started with for
// as long as its stored sketches are compared with new ones.
const (
	// Version1 fingerprints each shingle's bytes with crawl/rabin, so every
	// byte of text is hashed Shingle times. It is what crawls made before
	// version 2 existed store.
	Version1 = 1
	// Version2 hashes each word once and a shingle from its words' hashes
	// and their order: about five times less work for the same estimates.
	Version2 = 2
	// LatestVersion is the version of a Config's zero Version field.
	LatestVersion = Version2
)

// MaxShingle is the longest shingle, in words, a Config may ask for.
const MaxShingle = 64

// Config sets how pages are sketched and matched. Its zero value means the
// defaults; Validate says whether a Config is usable. Sketches are only
// comparable when made under the same Version, Shingle, Hashes and Seed:
// change one of those and every stored sketch must be made again.
type Config struct {
	// Version is how shingles are hashed, Version1 or Version2 (default
	// LatestVersion). Both give the same estimates, in distribution; a
	// crawl's stored sketches say nothing of their version, so the caller
	// keeps the one they were made with.
	Version int
	// Shingle is the number of consecutive words in a shingle (default 5).
	// Shorter shingles see more pages as similar, longer ones fewer.
	Shingle int
	// Hashes is the number of bins k in a sketch, a power of two from 16
	// to 4096 (default 1024). The estimate's standard deviation is at
	// most about sqrt(J(1-J)/k); a sketch takes k bytes.
	Hashes int
	// Bands is the number of LSH bands b (default 28, fewer if Hashes is
	// too small for them) and Rows the number of bins r in each (default
	// 9): pages that agree on every bin of some band are compared. The
	// bands take the first b·r bins. See DetectionProbability.
	Bands int
	Rows  int
	// Threshold is the least Similarity (default 0.9) at which two pages
	// count as near-duplicates, in (0, 1].
	Threshold float64
	// Seed picks the hash functions; pages sketched under different seeds
	// never match.
	Seed uint64
	// Window is the most pages an Index holds, the latest added (0 = no
	// limit): each costs about 1.6 KB of memory at the defaults. A page is
	// compared only with pages in the window, so its near-copies are
	// missed when more than Window pages came between them.
	Window int
}

// DefaultConfig returns the Config the crawler uses unless told otherwise.
func DefaultConfig() Config {
	return Config{Version: LatestVersion, Shingle: DefaultShingle, Hashes: DefaultHashes, Bands: DefaultBands, Rows: DefaultRows, Threshold: DefaultThreshold}
}

// withDefaults fills the zero fields.
func (c Config) withDefaults() Config {
	if c.Version == 0 {
		c.Version = LatestVersion
	}
	if c.Shingle == 0 {
		c.Shingle = DefaultShingle
	}
	if c.Hashes == 0 {
		c.Hashes = DefaultHashes
	}
	if c.Rows == 0 {
		c.Rows = DefaultRows
	}
	if c.Bands == 0 && c.Rows > 0 {
		c.Bands = max(min(DefaultBands, c.Hashes/c.Rows), 1)
	}
	if c.Threshold == 0 {
		c.Threshold = DefaultThreshold
	}
	return c
}

// Validate reports why c (with its zero fields taken as the defaults)
// cannot be used, or nil.
func (c Config) Validate() error {
	d := c.withDefaults()
	var errs []error
	if d.Version < Version1 || d.Version > LatestVersion {
		errs = append(errs, fmt.Errorf("sketch version %d is not in %d..%d", c.Version, Version1, LatestVersion))
	}
	if d.Shingle < 1 || d.Shingle > MaxShingle {
		errs = append(errs, fmt.Errorf("shingle size %d is not in 1..%d words", c.Shingle, MaxShingle))
	}
	if d.Hashes < 16 || d.Hashes > 4096 || bits.OnesCount(uint(d.Hashes)) != 1 {
		errs = append(errs, fmt.Errorf("hashes %d is not a power of two in 16..4096", c.Hashes))
	}
	if d.Rows < 1 || d.Rows > d.Hashes {
		errs = append(errs, fmt.Errorf("rows %d is not in 1..hashes (%d)", c.Rows, d.Hashes))
	} else if d.Bands < 1 || d.Bands*d.Rows > d.Hashes {
		errs = append(errs, fmt.Errorf("bands %d of %d rows do not fit in %d hashes", d.Bands, d.Rows, d.Hashes))
	}
	if d.Window < 0 {
		errs = append(errs, fmt.Errorf("window %d is negative", c.Window))
	}
	if !(d.Threshold > 0 && d.Threshold <= 1) {
		errs = append(errs, fmt.Errorf("threshold %v is not in (0, 1]", c.Threshold))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("near-duplicate config: %w", err)
	}
	return nil
}

// mustValid returns c with defaults filled, panicking if it is invalid.
func (c Config) mustValid() Config {
	if err := c.Validate(); err != nil {
		panic(err)
	}
	return c.withDefaults()
}

// DetectionProbability returns the chance that two pages whose true
// Similarity is s share at least one LSH band, and so are compared at all:
// 1-(1-J^r)^b, where J = s/(2-s) is their Jaccard index. This is the
// banding "S-curve": near 1 above the threshold and small well below it.
func (c Config) DetectionProbability(s float64) float64 {
	c = c.withDefaults()
	if s <= 0 {
		return 0
	}
	j := jaccardOf(min(s, 1))
	return -math.Expm1(float64(c.Bands) * math.Log1p(-math.Pow(j, float64(c.Rows))))
}

// jaccardOf converts a Similarity (Dice coefficient) to a Jaccard index.
func jaccardOf(s float64) float64 { return s / (2 - s) }

// diceOf converts a Jaccard index to a Similarity (Dice coefficient).
func diceOf(j float64) float64 { return 2 * j / (1 + j) }
