// Command peers is Trawler's peer benchmark: the same synthetic site (a
// process of its own on 127.0.0.1), crawled by Trawler's built binary and
// by a Colly crawler, one after the other, at 1, 10 and 50 threads with
// 20 ms latency and at 50 threads with none. It prints paper 004's Table 3
// layout side by side: wall time, pages, pages/s, CPU seconds (user+sys of
// the crawler process alone), pages per CPU-second and peak RSS, with
// Trawler's ratios to Colly. The site counts every fetch: a crawler that
// misses a page or fetches one twice is reported.
//
// With latency, each row also shows the latency limit: what as many bare
// clients as the crawler has threads get from the site, each asking again
// as soon as an answer is in, measured before the crawls. A 20 ms sleep
// lasts 21–24 ms here under load, so the limit is measured rather than
// taken as threads × 50 pages/s.
//
// It lives in a module of its own so that Colly never becomes a
// dependency of Trawler. `make bench-peers` builds the binaries and runs it.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// run is one crawler's run of one configuration.
type run struct {
	seconds float64
	pages   int64 // distinct pages the site served
	twice   int64 // pages it served more than once
	cpu     time.Duration
	rss     int64 // peak resident bytes
}

func main() {
	trawler := flag.String("trawler", "../../build/trawler-headless", "Trawler binary")
	colly := flag.String("colly", "../../build/peers-colly", "Colly crawler binary (./colly)")
	siteBin := flag.String("site", "../../build/peers-site", "site server binary (./site)")
	pages := flag.Int("pages", 5000, "pages on the site")
	memory := flag.Bool("memory", false, "crawl once with Trawler alone, with no latency, and report its peak RSS (see memory.go)")
	threads := flag.Int("threads", 50, "Trawler's threads with -memory")
	flag.Parse()
	if *memory {
		if err := memoryRun(*trawler, *siteBin, *pages, *threads); err != nil {
			log.Fatal(err)
		}
		return
	}
	configs := []struct {
		threads int
		latency time.Duration
	}{{1, 20 * time.Millisecond}, {10, 20 * time.Millisecond}, {50, 20 * time.Millisecond}, {50, 0}}
	fmt.Printf("site: %d pages of about 4 KiB, 10 links each, one host on 127.0.0.1, a process of its own\n", *pages)
	const row = "%-8s %7s %8s %8s %6s %8s %8s %9s %9s\n"
	fmt.Printf(row, "crawler", "threads", "latency", "seconds", "pages", "pages/s", "CPU s", "pages/CPU", "peak RSS")
	for _, c := range configs {
		base, stop, err := startSite(*siteBin, *pages, c.latency)
		if err != nil {
			log.Fatal(err)
		}
		limit := 0.0
		if c.latency > 0 {
			var err error
			if limit, err = probe(base, c.threads, max(20, 100/c.threads)); err != nil {
				log.Fatal(err)
			}
			fmt.Printf("  %d bare clients get %.0f pages/s (%d × 1/%v would be %.0f): the latency limit\n",
				c.threads, limit, c.threads, c.latency, float64(c.threads)/c.latency.Seconds())
		}
		tmp, _ := os.MkdirTemp("", "peers-")
		t, errT := crawl(base, exec.Command(*trawler, "crawl", "--db", filepath.Join(tmp, "t.db"), "--threads", strconv.Itoa(c.threads),
			"--depth", "1000", "--quiet", base))
		k, errK := crawl(base, exec.Command(*colly, "-threads", strconv.Itoa(c.threads), base))
		stop()
		os.RemoveAll(tmp)
		for _, e := range []error{errT, errK} {
			if e != nil {
				log.Fatal(e)
			}
		}
		for _, r := range []struct {
			name string
			r    run
		}{{"trawler", t}, {"colly", k}} {
			fmt.Printf(row, r.name, strconv.Itoa(c.threads), c.latency.String(), fmt.Sprintf("%.2f", r.r.seconds),
				strconv.FormatInt(r.r.pages, 10), fmt.Sprintf("%.0f", float64(r.r.pages)/r.r.seconds),
				fmt.Sprintf("%.2f", r.r.cpu.Seconds()), fmt.Sprintf("%.0f", float64(r.r.pages)/r.r.cpu.Seconds()),
				fmt.Sprintf("%d MB", r.r.rss>>20))
			if limit > 0 {
				fmt.Printf("  %s: %.1f %% of the latency limit\n", r.name, 100*float64(r.r.pages)/r.r.seconds/limit)
			}
			if r.r.pages != int64(*pages) || r.r.twice > 0 {
				fmt.Printf("  %s fetched %d of %d pages, %d more than once\n", r.name, r.r.pages, *pages, r.r.twice)
			}
		}
		fmt.Printf("  trawler / colly: %.2f× pages/s, %.2f× pages per CPU-second, %.2f× peak RSS\n",
			(float64(t.pages)/t.seconds)/(float64(k.pages)/k.seconds),
			(float64(t.pages)/t.cpu.Seconds())/(float64(k.pages)/k.cpu.Seconds()), float64(t.rss)/float64(k.rss))
	}
}

// probe measures what the site can serve at the given concurrency: that
// many bare clients each make n requests in a row to /probe, which waits
// as long as a page, and it returns the requests per second they got.
// This is the latency limit a crawler with that many threads can reach.
func probe(base string, threads, n int) (float64, error) {
	c := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: threads}}
	errs := make(chan error, threads)
	start := time.Now()
	for range threads {
		go func() {
			for range n {
				resp, err := c.Get(base + "probe")
				if err != nil {
					errs <- fmt.Errorf("probe the site: %w", err)
					return
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
			errs <- nil
		}()
	}
	for range threads {
		if err := <-errs; err != nil {
			return 0, err
		}
	}
	return float64(threads*n) / time.Since(start).Seconds(), nil
}

// startSite starts the site server and returns its home URL.
func startSite(bin string, pages int, latency time.Duration) (string, func(), error) {
	cmd := exec.Command(bin, "-pages", strconv.Itoa(pages), "-latency", latency.String())
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return "", nil, fmt.Errorf("start the site (%s): %w", bin, err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		cmd.Process.Kill()
		return "", nil, fmt.Errorf("read the site's URL: %w", err)
	}
	return strings.TrimSpace(line), func() { cmd.Process.Kill(); cmd.Wait() }, nil
}

// crawl runs one crawler against the site, counting from a fresh start.
func crawl(base string, cmd *exec.Cmd) (run, error) {
	if _, err := http.Post(base+"reset", "text/plain", nil); err != nil {
		return run{}, fmt.Errorf("reset the site's counts: %w", err)
	}
	cmd.Stdout, cmd.Stderr = nil, os.Stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return run{}, fmt.Errorf("%s: %w", strings.Join(cmd.Args, " "), err)
	}
	r := run{seconds: time.Since(start).Seconds()}
	r.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.rss = ru.Maxrss * 1024 // KiB on Linux
	}
	resp, err := http.Get(base + "stats")
	if err != nil {
		return r, fmt.Errorf("read the site's counts: %w", err)
	}
	defer resp.Body.Close()
	var st struct{ Distinct, Twice int64 }
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		return r, fmt.Errorf("read the site's counts: %w", err)
	}
	r.pages, r.twice = st.Distinct, st.Twice
	return r, nil
}
