package gui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"fyne.io/fyne/v2/widget"

	"github.com/trawler/trawler/db"
	"github.com/trawler/trawler/gui/internal/fixture"
)

// benchSizes are the crawl sizes the results benchmarks open: a million
// pages only with TRAWLER_LONG=1 (filling that database takes minutes; it
// is kept in the temporary folder and reused by later runs).
func benchSizes() []int {
	if os.Getenv("TRAWLER_LONG") == "1" {
		return []int{100, 1_000_000}
	}
	return []int{100, 10_000}
}

// benchDB returns a database holding one crawl of n generated pages.
func benchDB(b *testing.B, n int) (*db.DB, int64) {
	b.Helper()
	if n < 100_000 {
		d := fixture.OpenDB(b)
		return d, fixture.Crawl(b, d, "bench", n)
	}
	path := filepath.Join(os.TempDir(), "trawler-gui-bench-"+strconv.Itoa(n)+".db")
	if d, id, ok := reuse(path, n); ok {
		b.Cleanup(func() { d.Close() })
		return d, id
	}
	os.Remove(path)
	os.Remove(path + "-wal")
	os.Remove(path + "-shm")
	d, err := db.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { d.Close() })
	b.Logf("filling %s with %d pages", path, n)
	return d, fixture.Crawl(b, d, "bench", n)
}

// reuse opens a database a previous run filled, if it is complete.
func reuse(path string, n int) (*db.DB, int64, bool) {
	if _, err := os.Stat(path); err != nil {
		return nil, 0, false
	}
	d, err := db.Open(path)
	if err != nil {
		return nil, 0, false
	}
	list, err := d.Crawls(context.Background())
	if err != nil || len(list) != 1 || list[0].Pages != int64(n) || list[0].State != db.StateDone {
		d.Close()
		return nil, 0, false
	}
	return d, list[0].ID, true
}

// screenRows is how many rows the results table shows at WindowSize.
const screenRows = 20

// waitRows runs the UI queue until rows from..from+screenRows are loaded.
func waitRows(h *harness, from int) {
	rs := h.ui.results
	h.loop.Until(h.t, "rows on screen", func() bool {
		n := rs.rows.Len()
		if n <= from {
			return false
		}
		for i := from; i < min(from+screenRows, n); i++ {
			if _, ok := rs.rows.Row(i); !ok {
				return false
			}
		}
		return true
	})
}

// waitFacets runs the UI queue until the filters have their values, so the
// next step does not share the machine with reading them.
func waitFacets(h *harness) {
	h.loop.Until(h.t, "the filters' values", func() bool { return len(h.ui.results.host.Options) > 1 })
}

// BenchmarkResultsOpen measures opening a crawl in the Results table:
// until its first screen of rows shows (first-screen), and until its pages
// are counted too (counted), which sizes the scroll bar.
//
//	TRAWLER_LONG=1 go test -run '^$' -bench ResultsOpen -benchtime 20x ./gui
func BenchmarkResultsOpen(b *testing.B) {
	for _, n := range benchSizes() {
		for _, until := range []string{"first-screen", "counted"} {
			b.Run(fmt.Sprintf("pages=%d/%s", n, until), func(b *testing.B) {
				d, id := benchDB(b, n)
				h := newHarness(b, d)
				h.ui.tabs.SelectIndex(tabResults)
				rs := h.ui.results
				for b.Loop() {
					h.ui.openCrawl(id, "bench")
					waitRows(h, 0)
					if until == "counted" {
						h.loop.Until(b, "the count", rs.rows.Counted)
					}
					b.StopTimer()
					waitFacets(h)
					b.StartTimer()
				}
			})
		}
	}
}

// BenchmarkResultsScroll measures scrolling the Results table: jumping to
// a row anywhere in the crawl (random access), then scrolling on a screen
// at a time from there (the next rows come by keyset paging).
//
//	TRAWLER_LONG=1 go test -run '^$' -bench ResultsScroll -benchtime 20x ./gui
func BenchmarkResultsScroll(b *testing.B) {
	for _, n := range benchSizes() {
		for _, mode := range []string{"jump", "screen"} {
			b.Run(fmt.Sprintf("pages=%d/%s", n, mode), func(b *testing.B) {
				d, id := benchDB(b, n)
				h := newHarness(b, d)
				h.ui.tabs.SelectIndex(tabResults)
				h.ui.openCrawl(id, "bench")
				waitRows(h, 0)
				waitFacets(h)
				rs := h.ui.results
				row, step := 0, screenRows
				b.ResetTimer()
				for i := 0; b.Loop(); i++ {
					if mode == "jump" {
						row = (i*7919*screenRows + n/2) % max(1, n-screenRows)
					} else if row += step; row+screenRows > n {
						row = 0
					}
					rs.table.ScrollTo(widget.TableCellID{Row: row, Col: 0})
					waitRows(h, row)
				}
			})
		}
	}
}
