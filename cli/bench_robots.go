package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/cputime"
	"github.com/trawler/trawler/crawl/testsite"
	"github.com/trawler/trawler/db"
)

const benchRobotsUsage = `Usage: trawler bench robots --db postgres://… [--robots 1,2,3] [flags]

Paper 003's experiment: the same crawl by 1, 2, 3… robots at once. Serves
a synthetic site of --hosts hosts on 127.0.0.1 (one port each, --latency
before every response), and for each robot count creates a crawl of it in
the PostgreSQL database, starts that many "trawler robot" processes and
waits for them to finish it. Prints seconds, pages, pages/s, the speed-up
over the first row, the robots' CPU time and the database server's CPU time
with its share of all CPU spent (the server's share is measured only when
it runs on this machine). The crawls are deleted afterwards.`

// robotsRow is one line of the robots bench table.
type robotsRow struct {
	robots          int
	seconds         float64
	pages           int64
	robotCPU, dbCPU time.Duration
	selfCPU         time.Duration // this process: the site's servers
	dbMeasured      bool          // the server runs here, where /proc shows it
}

func runBenchRobots(args []string, s IO) int {
	fs := newFlagSet("bench robots", s, benchRobotsUsage)
	dbURL := dbFlag(fs)
	robots := fs.String("robots", "1,2,3", "comma-separated robot counts, one crawl each")
	hosts := fs.Int("hosts", 12, "hosts of the synthetic site")
	pages := fs.Int("pages", 250, "pages per host")
	latency := fs.Duration("latency", 20*time.Millisecond, "delay before every response")
	threads := fs.Int("threads", 8, "threads of each robot")
	perHost := fs.Int("per-host", 2, "requests at once per host, across robots")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	if fs.NArg() > 0 {
		return fail(s, "bench", usagef("unexpected argument %q", fs.Arg(0)))
	}
	if !db.IsServerURL(*dbURL) {
		return fail(s, "bench", usagef("robots share a PostgreSQL database: give --db postgres://user@host/db"))
	}
	counts, err := parseInts(*robots)
	if err != nil || *hosts < 1 || *pages < 1 || *latency < 0 || *threads < 1 || *threads > crawl.MaxThreads || *perHost < 1 {
		return fail(s, "bench", usagef("bad flags: robots like 1,2,3; hosts, pages, threads and per-host ≥ 1"))
	}
	d, err := openDB(*dbURL)
	if err != nil {
		return fail(s, "bench", err)
	}
	defer d.Close()
	seeds, stop := serveHosts(*hosts, *pages, *latency)
	defer stop()

	fmt.Fprintf(s.Out, "synthetic site: %d hosts × %d pages, %s latency; %d threads per robot, per-host %d\n",
		*hosts, *pages, *latency, *threads, *perHost)
	const row = "%6s %8s %7s %8s %9s %10s %10s %9s\n"
	fmt.Fprintf(s.Out, row, "robots", "seconds", "pages", "pages/s", "speed-up", "robot CPU", "DB CPU", "DB share")
	var base float64
	for _, n := range counts {
		c := crawl.DefaultConfig()
		c.Seeds, c.Depth, c.Threads, c.PerHost = seeds, 1000, *threads, *perHost
		c.NearThreshold = 0
		r, err := benchRobotsOnce(d, *dbURL, c, n)
		if err != nil {
			return fail(s, "bench", err)
		}
		rate := float64(r.pages) / r.seconds
		if base == 0 {
			base = rate
		}
		dbCPU, share := "n/a", "n/a"
		if r.dbMeasured {
			all := r.robotCPU + r.dbCPU + r.selfCPU
			dbCPU, share = fmt.Sprintf("%.2fs", r.dbCPU.Seconds()), fmt.Sprintf("%.0f%%", 100*r.dbCPU.Seconds()/all.Seconds())
		}
		fmt.Fprintf(s.Out, row, strconv.Itoa(n), fmt.Sprintf("%.2f", r.seconds), strconv.FormatInt(r.pages, 10),
			fmt.Sprintf("%.0f", rate), fmt.Sprintf("%.2f×", rate/base), fmt.Sprintf("%.2fs", r.robotCPU.Seconds()), dbCPU, share)
	}
	return ExitOK
}

// serveHosts serves n synthetic sites on 127.0.0.1 and returns their
// roots; stop closes them.
func serveHosts(n, pages int, latency time.Duration) (seeds []string, stop func()) {
	var srvs []*httptest.Server
	for i := range n {
		srv := httptest.NewServer(&testsite.Site{Pages: pages, OutDegree: 10, Latency: latency, Seed: uint64(i + 1)})
		srvs = append(srvs, srv)
		seeds = append(seeds, srv.URL+"/")
	}
	return seeds, func() {
		for _, srv := range srvs {
			srv.Close()
		}
	}
}

// benchRobotsOnce crawls c with n robot processes and deletes the crawl.
func benchRobotsOnce(d *db.DB, url string, c crawl.Config, n int) (robotsRow, error) {
	ctx := context.Background()
	id, err := d.CreateCrawl(ctx, fmt.Sprintf("bench robots ×%d", n), c)
	if err != nil {
		return robotsRow{}, &storageError{err}
	}
	defer d.DeleteCrawl(ctx, id)
	if err := d.SetState(ctx, id, db.StateRunning); err != nil {
		return robotsRow{}, &storageError{err}
	}
	exe, err := os.Executable()
	if err != nil {
		return robotsRow{}, fmt.Errorf("find the trawler binary to start robots: %w", err)
	}
	server := serverCPU(ctx, d)
	dbBefore, measured := server()
	selfBefore := cputime.Self()
	start := time.Now()
	cmds := make([]*exec.Cmd, n)
	for i := range cmds {
		cmds[i] = exec.Command(exe, "robot", "--db", url, "--crawl", strconv.FormatInt(id, 10),
			"--id", fmt.Sprintf("bench-%d", i+1), "--quiet")
		cmds[i].Stdout, cmds[i].Stderr = io.Discard, os.Stderr
		if err := cmds[i].Start(); err != nil {
			return robotsRow{}, fmt.Errorf("start robot %d: %w", i+1, err)
		}
	}
	r := robotsRow{robots: n}
	var errs []error
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			errs = append(errs, fmt.Errorf("robot %d: %w", i+1, err))
		}
		r.robotCPU += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	r.seconds = time.Since(start).Seconds()
	r.selfCPU = cputime.Self() - selfBefore
	if dbAfter, ok := server(); ok && measured {
		r.dbCPU, r.dbMeasured = dbAfter-dbBefore, true
	}
	if err := errors.Join(errs...); err != nil {
		return r, err
	}
	info, err := d.CrawlInfo(ctx, id)
	if err != nil {
		return r, &storageError{err}
	}
	r.pages = info.Pages
	return r, nil
}

// serverCPU returns a reader of the CPU time the database server's
// processes have used, counting ended backends; it reports false when the
// server is not a process of this machine that /proc shows.
func serverCPU(ctx context.Context, d *db.DB) func() (time.Duration, bool) {
	pid, err := d.ServerPID(ctx)
	if err != nil {
		return func() (time.Duration, bool) { return 0, false }
	}
	postmaster, ok := procParent(pid)
	return func() (time.Duration, bool) {
		if !ok {
			return 0, false
		}
		return procTreeCPU(postmaster)
	}
}

// procParent is pid's parent process, from /proc.
func procParent(pid int) (int, bool) {
	f, ok := procStat(pid)
	if !ok || len(f) < 2 {
		return 0, false
	}
	ppid, err := strconv.Atoi(f[1])
	return ppid, err == nil
}

// procTreeCPU is the CPU time of pid, of its waited-for children and of
// its live children.
func procTreeCPU(pid int) (time.Duration, bool) {
	f, ok := procStat(pid)
	if !ok {
		return 0, false
	}
	total := ticks(f, 11, 12, 13, 14) // utime stime cutime cstime
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil || child == pid {
			continue
		}
		if cf, ok := procStat(child); ok && cf[1] == strconv.Itoa(pid) {
			total += ticks(cf, 11, 12)
		}
	}
	return total, true
}

// procStat is /proc/PID/stat's fields after the command name: state,
// ppid, … (field 3 of proc(5) is index 0).
func procStat(pid int) ([]string, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil, false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return nil, false
	}
	f := strings.Fields(s[i+1:])
	return f, len(f) > 15
}

// ticks sums fields given in clock ticks (USER_HZ, 100 on Linux).
func ticks(f []string, idx ...int) time.Duration {
	var t time.Duration
	for _, i := range idx {
		n, _ := strconv.ParseInt(f[i], 10, 64)
		t += time.Duration(n) * 10 * time.Millisecond
	}
	return t
}
