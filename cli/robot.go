package cli

import (
	"context"
	"flag"
	"log/slog"
	"time"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/robot"
	"github.com/trawler/trawler/db"
)

func init() {
	register("robot", "join a crawl on a shared PostgreSQL database as one more crawler process (paper 003)", runRobot)
}

const robotUsage = `Usage: trawler robot --db postgres://… [--crawl ID] [--id NAME] [--threads N] [--lease 15s]

Joins a crawl of a PostgreSQL database as a robot: one of several Trawler
processes, on one machine or many, that crawl it together (paper 003). It
works until the crawl is done or it is told to stop (trawler robots, or
the window's Robots screen), and follows the crawl's control: threads,
per-host limit, delay, pause and stop reach it within a second or two.
Robots share the work host by host: a host is worked by one robot at a
time, so --per-host, the delay, Crawl-delay and robots.txt hold for the
crawl as a whole. A robot that dies loses its URLs to the others once its
leases (--lease) run out. The crawl is the most recent running one unless
--crawl names another; start one with trawler crawl --db postgres://… URL,
which is itself a robot. Ctrl-C stops this robot alone.`

// robotFlags name a robot and set its rhythm.
type robotFlags struct {
	id      string
	threads int
	lease   time.Duration
}

func runRobot(args []string, s IO) int {
	fs := newFlagSet("robot", s, robotUsage)
	dbPath := dbFlag(fs)
	id := fs.Int64("crawl", 0, "crawl ID (default: the most recent running crawl)")
	var rf robotFlags
	fs.StringVar(&rf.id, "id", "", "the robot's name (default: HOST-PID)")
	fs.IntVar(&rf.threads, "threads", 0, "workers of this robot (default: the crawl's; the control's, once set, wins)")
	fs.DurationVar(&rf.lease, "lease", robot.DefaultLease, "how long the robot's leases last without a beat")
	quiet := fs.Bool("quiet", false, "no live status line")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	if fs.NArg() > 0 {
		return fail(s, "robot", usagef("unexpected argument %q", fs.Arg(0)))
	}
	if !db.IsServerURL(*dbPath) {
		return fail(s, "robot", usagef("robots share a PostgreSQL database: give --db postgres://user@host/db"))
	}
	if rf.threads < 0 || rf.threads > crawl.MaxThreads || rf.lease < time.Second {
		return fail(s, "robot", usagef("--threads must be 0 to %d, --lease at least 1s", crawl.MaxThreads))
	}
	d, err := openDB(*dbPath)
	if err != nil {
		return fail(s, "robot", err)
	}
	defer d.Close()
	crawlID, err := runningCrawl(d, *id)
	if err != nil {
		return fail(s, "robot", err)
	}
	c, err := d.Settings(context.Background(), crawlID)
	if err != nil {
		return fail(s, "robot", &storageError{err})
	}
	if rf.threads > 0 {
		c.Threads = rf.threads
	}
	return runCrawler(s, "robot", d, crawlID, c, *quiet, rf)
}

// robotFlag names the process's robot when it crawls a PostgreSQL database.
func robotFlag(fs *flag.FlagSet) *string {
	return fs.String("robot", "", "on a PostgreSQL database: this process's robot name (default: HOST-PID)")
}

// runningCrawl is the crawl a robot joins: the one named, or the most
// recent running one.
func runningCrawl(d *db.DB, id int64) (int64, error) {
	if id != 0 {
		return pickCrawl(d, id)
	}
	list, err := d.Crawls(context.Background())
	if err != nil {
		return 0, &storageError{err}
	}
	for _, c := range list { // newest first
		if c.State == db.StateRunning {
			return c.ID, nil
		}
	}
	return 0, usagef("%s has no running crawl to join; start one with trawler crawl --db … URL, or name one with --crawl", d.Path())
}

// crawler is what runs a crawl from the command line: an engine alone,
// or a robot around one.
type crawler interface {
	Run(ctx context.Context) error
	Progress() crawl.Progress
	Stop()
}

// newCrawler makes what runs a crawl: the engine alone on a SQLite file, a
// robot around shared engines on PostgreSQL.
func newCrawler(d *db.DB, id int64, c crawl.Config, log *slog.Logger, rf robotFlags) (crawler, error) {
	if !d.Postgres() {
		e, err := crawl.New(c, d.Crawl(id), crawl.WithLogger(log))
		if err != nil {
			return nil, usagef("%v", err)
		}
		return e, nil
	}
	st, err := d.SharedCrawl(id, rf.lease)
	if err != nil {
		return nil, usagef("%v", err)
	}
	r, err := robot.Join(st, c, robot.Config{Info: robot.Info{ID: rf.id, Version: Version}, Logger: log, Lease: rf.lease})
	if err != nil {
		return nil, usagef("%v", err)
	}
	return r, nil
}

// othersWork reports whether robots other than this one still work the
// crawl: a robot that leaves does not mark a crawl stopped under them.
func othersWork(d *db.DB, id int64, c crawler) bool {
	self, ok := c.(*robot.Robot)
	if !ok {
		return false
	}
	list, err := d.Robots(context.Background(), id)
	return err == nil && robot.OthersWorking(list, self.ID(), time.Now())
}
