package urlfilter

import "runtime"

// heapSample is how much memory measureHeap builds at least, so that the
// allocator's per-thread span caches (counted as in use as a whole while
// cached, up to some tens of KB) do not blur the figure.
const heapSample = 8 << 20

// measureHeap returns how much the live heap grows by what build returns,
// averaged over enough builds to allocate about heapSample bytes; bytes is
// the caller's guess of one build's size. It returns the last build.
func measureHeap(bytes int, build func() any) (float64, any) {
	copies := min(max(1, heapSample/max(bytes, 1)), 64)
	kept := make([]any, copies)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range kept {
		kept[i] = build()
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(kept)
	return (float64(after.HeapAlloc) - float64(before.HeapAlloc)) / float64(copies), kept[copies-1]
}
