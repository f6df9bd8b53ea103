// Package cputime reads the CPU time the process has used, user and system
// together, for benchmarks that report cost beside speed: on a shared
// machine it varies less than wall time. It counts every core, so it is
// the cost, not the speed.
package cputime

import "time"

// Self is the CPU time this process has used so far; 0 where the
// platform does not tell.
func Self() time.Duration { return self() }

// Since returns a function that tells the CPU time used since Since was
// called.
func Since() func() time.Duration {
	start := Self()
	return func() time.Duration { return Self() - start }
}
