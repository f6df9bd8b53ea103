// Package membudget sets the Go garbage collector's memory limit from what
// the process holds, so that a long crawl's resident memory stays near
// what it needs rather than twice it.
//
// By default the collector lets the heap grow to twice the memory live
// after the last collection (GOGC=100). A small crawl holds little and is
// best left that way: fewer collections, less CPU. A crawl of a million
// URLs holds 70 MB or more (the frontier, the seen-set, the near-duplicate
// index), and doubling that is what pushed its peak past 200 MB. Watch
// keeps a soft limit (runtime/debug.SetMemoryLimit) of the live heap plus
// half of it, never under a floor: below the floor nothing changes, above
// it the collector runs a little more often. The limit follows the live
// heap up, so a crawl that needs more memory gets it; a fixed limit would
// make the collector run without end once the live heap reached it.
package membudget

import (
	"context"
	"math"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// Config shapes the budget. Zero values mean the defaults.
type Config struct {
	// Floor is the least limit set: Go's own pacing rules below it.
	// Default 96 MiB.
	Floor int64
	// Headroom is the room above the live heap, as a percentage of it.
	// Default 50 (GOGC=100 allows 100).
	Headroom int
	// Every is how often the live heap is read. Default one second.
	Every time.Duration
}

func (c *Config) fillDefaults() {
	if c.Floor <= 0 {
		c.Floor = 96 << 20
	}
	if c.Headroom <= 0 {
		c.Headroom = 50
	}
	if c.Every <= 0 {
		c.Every = time.Second
	}
}

// Watch keeps the limit up to date until ctx ends, then restores the limit
// it found. It does nothing when GOGC or GOMEMLIMIT is set in the
// environment: whoever set them chose the collector's policy.
func Watch(ctx context.Context, c Config) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	c.fillDefaults()
	before := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(before)
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	tick := time.NewTicker(c.Every)
	defer tick.Stop()
	for {
		metrics.Read(sample)
		debug.SetMemoryLimit(Limit(c, sample[0].Value.Uint64()))
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// Limit is the memory limit for a live heap of live bytes under c.
func Limit(c Config, live uint64) int64 {
	c.fillDefaults()
	if live > math.MaxInt64/200 {
		return math.MaxInt64
	}
	return max(c.Floor, int64(live)+int64(live)*int64(c.Headroom)/100)
}
