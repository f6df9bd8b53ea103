// Package peakmem reads the process's peak resident memory, the measure
// the memory targets of `trawler bench` and the benchmarks are quoted in.
// It reads Linux's /proc; elsewhere Peak reports 0 (unknown).
package peakmem

import (
	"os"
	"strconv"
	"strings"
)

// Reset restarts the kernel's high-water mark of resident memory, so that
// the next Peak is that of the work done after it (Linux only; elsewhere a
// no-op).
func Reset() { _ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

// Peak returns the process's peak resident memory in bytes (VmHWM), or 0
// when it cannot be read.
func Peak() int64 { return status("VmHWM:") }

// Current returns the process's resident memory now in bytes (VmRSS), or 0
// when it cannot be read; watching it shows when the peak is reached.
func Current() int64 { return status("VmRSS:") }

// Anon returns the process's resident anonymous memory in bytes (RssAnon:
// its heaps, Go's and C's), or 0 when it cannot be read.
func Anon() int64 { return status("RssAnon:") }

// File returns the process's resident file-backed memory in bytes
// (RssFile: mostly the program's code), or 0 when it cannot be read.
func File() int64 { return status("RssFile:") }

// status returns the kB figure of one line of /proc/self/status in bytes.
func status(field string) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, field); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}
