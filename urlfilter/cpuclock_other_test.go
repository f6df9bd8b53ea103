//go:build !linux

package urlfilter

import "time"

var clockStart = time.Now()

// threadCPU falls back to the wall clock where thread CPU time is not read.
func threadCPU() time.Duration { return time.Since(clockStart) }
