package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
)

// memoryRun is the memory benchmark (-memory): Trawler alone crawls the
// site (usually -pages 1000000) with `trawler crawl`'s defaults at the
// given threads and no latency, into a fresh SQLite file, and it prints
// the crawler process's peak resident memory (the kernel's maxrss of that
// process alone, not the site's) beside its time and CPU. The crawler
// inherits the environment, so TRAWLER_PEAK_PROFILE=prefix writes heap
// profiles at its peaks, and GOGC or GOMEMLIMIT change its GC policy.
func memoryRun(trawler, siteBin string, pages, threads int) error {
	base, stop, err := startSite(siteBin, pages, 0)
	if err != nil {
		return err
	}
	defer stop()
	tmp, err := os.MkdirTemp("", "peers-memory-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	dbPath := filepath.Join(tmp, "t.db")
	fmt.Printf("trawler crawl --threads %d --depth 1000 (defaults otherwise), no latency, fresh database\n", threads)
	r, err := crawl(base, exec.Command(trawler, "crawl", "--db", dbPath, "--threads", strconv.Itoa(threads),
		"--depth", "1000", "--quiet", base))
	if err != nil {
		return err
	}
	var size int64
	for _, suffix := range []string{"", "-wal"} {
		if st, err := os.Stat(dbPath + suffix); err == nil {
			size += st.Size()
		}
	}
	fmt.Printf("%d pages (%d fetched more than once) in %.0f s, %.0f pages/s; CPU %.0f s, %.0f pages per CPU-second\n",
		r.pages, r.twice, r.seconds, float64(r.pages)/r.seconds, r.cpu.Seconds(), float64(r.pages)/r.cpu.Seconds())
	fmt.Printf("peak RSS %d MB; database %d MB\n", r.rss>>20, size>>20)
	if r.pages != int64(pages) || r.twice > 0 {
		fmt.Printf("trawler fetched %d of %d pages, %d more than once\n", r.pages, pages, r.twice)
	}
	return nil
}
