package rabin

import (
	"os"
	"slices"
	"testing"
	"time"

	"github.com/trawler/trawler/crawl/cputime"
)

// table1URLs is the number of URLs in each run of paper 000, Table 1.
const table1URLs = 23_743_961

// TestTable1Collisions repeats the experiment of paper 000, Table 1:
// fingerprint 23,743,961 distinct URLs and count collisions (the paper: 0,
// about 1,800 CPU seconds on a Pentium III). It takes a minute and 190 MB:
//
//	TRAWLER_LONG=1 go test -run TestTable1Collisions -v ./crawl/rabin
func TestTable1Collisions(t *testing.T) {
	if os.Getenv("TRAWLER_LONG") != "1" {
		t.Skip("set TRAWLER_LONG=1 to run the 23.7M-URL experiment")
	}
	fps := make([]uint64, table1URLs)
	var g urlGen

	cpu0, wall0 := cputime.Self().Seconds(), time.Now()
	var total int
	for i := range uint32(table1URLs) {
		u := g.url(i)
		checkURL(t, i, u)
		total += len(u)
		fps[i] = Fingerprint(u)
	}
	cpu1, wall1 := cputime.Self().Seconds(), time.Now()
	for i := range uint32(table1URLs) {
		checkURL(t, i, g.url(i))
	}
	cpu2 := cputime.Self().Seconds()
	wall2 := time.Now()

	slices.Sort(fps)
	collisions := 0
	for i := 1; i < len(fps); i++ {
		if fps[i] == fps[i-1] {
			collisions++
		}
	}
	cpu3, wall3 := cputime.Self().Seconds(), time.Now()

	genCPU := cpu2 - cpu1
	t.Logf("%d distinct URLs, %d bytes (mean %.1f B)", table1URLs, total, float64(total)/table1URLs)
	t.Logf("generate+check+fingerprint: %.2f CPU s, %v wall", cpu1-cpu0, wall1.Sub(wall0).Round(time.Millisecond))
	t.Logf("generate+check alone (second pass): %.2f CPU s, %v wall", genCPU, wall2.Sub(wall1).Round(time.Millisecond))
	t.Logf("fingerprinting alone (difference): %.2f CPU s", cpu1-cpu0-genCPU)
	t.Logf("sort+count: %.2f CPU s, %v wall", cpu3-cpu2, wall3.Sub(wall2).Round(time.Millisecond))
	t.Logf("total: %.2f CPU s, %v wall; collisions: %d", cpu1-cpu0+cpu3-cpu2,
		(wall1.Sub(wall0) + wall3.Sub(wall2)).Round(time.Millisecond), collisions)
	if collisions != 0 {
		t.Errorf("%d collisions among %d distinct URLs (paper 000 Table 1: 0)", collisions, table1URLs)
	}
}
