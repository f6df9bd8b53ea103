package crawl

import "time"

// SetBatchWait sets how long the writer lets a batch grow while the
// frontier has URLs waiting, so a test can tell the commits a dry
// frontier brings from those the wait brings.
func SetBatchWait(e *Engine, d time.Duration) { e.batchWait = d }
