//go:build !unix

package rabin

import "testing"

// cpuSeconds is not measured here; the Table 1 experiment logs wall time only.
func cpuSeconds(testing.TB) float64 { return 0 }
