package db

import (
	"os"
	"testing"
	"time"
)

// TestCheckpointWhileCrawling: once the writer has stored checkpointPages
// pages, the checkpointer copies them from the log into the database file
// without waiting for the file to be closed. SQLite's own checkpoint would
// wait until the log reached 32 MB, which these pages are far from.
func TestCheckpointWhileCrawling(t *testing.T) {
	sqliteOnly(t)
	path := testDB(t)
	d := mustOpenPath(t, path)
	s := mustCrawl(t, d, "http://127.0.0.1:8080/")
	size := func(name string) int64 {
		st, err := os.Stat(name)
		if err != nil {
			t.Fatal(err)
		}
		return st.Size()
	}
	before := size(path)
	fill(t, s, checkpointPages)
	if wal := size(path + "-wal"); wal < 1<<20 {
		t.Fatalf("the log holds %d bytes after %d pages; the test needs more", wal, checkpointPages)
	}
	deadline := time.Now().Add(20 * time.Second)
	for size(path) <= before {
		if time.Now().After(deadline) {
			t.Fatalf("the database file is still %d bytes: the pages were not checkpointed", before)
		}
		time.Sleep(5 * time.Millisecond)
	}
	var n int
	if err := d.r.QueryRow(`SELECT count(*) FROM pages`).Scan(&n); err != nil || n != checkpointPages {
		t.Fatalf("%d pages stored (%v), want %d", n, err, checkpointPages)
	}
}
