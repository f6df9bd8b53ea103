package gui

import (
	"testing"

	"github.com/trawler/trawler/gui/internal/fixture"
)

// BenchmarkLiveApply measures one live update on the UI goroutine: the
// counters, the charts and 30 new log lines.
//
//	go test -run '^$' -bench LiveApply ./gui
func BenchmarkLiveApply(b *testing.B) {
	h := newHarness(b, fixture.OpenDB(b))
	h.ui.tabs.SelectIndex(tabLive)
	h.ui.live.begin("bench")
	u := liveUpdate()
	seq := uint64(0)
	for b.Loop() {
		for i := range u.Events {
			seq++
			u.Events[i].Seq = seq
		}
		u.Progress.Done++
		h.ui.live.apply(u)
	}
}
