package cli

import (
	"context"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/robot"
	"github.com/trawler/trawler/db"
)

func init() {
	register("robots", "list and steer the robots of a crawl on a PostgreSQL database", runRobots)
}

const robotsUsage = `Usage: trawler robots --db postgres://… [--crawl ID] [list]
       trawler robots --db postgres://… [--crawl ID] pause|resume|stop ID|all
       trawler robots --db postgres://… [--crawl ID] set [--threads N] [--per-host N] [--delay D]

Lists the robots crawling a crawl (the most recent one by default): state,
pages, pages/s, errors, threads and when each last beat (a robot silent for
three beats is marked stale: dead, or cut off from the database). pause,
resume and stop one robot by its ID, or all of them; set changes what every
robot follows (0 or a negative delay: the crawl's own settings). Robots
take a change within a second or two.`

func runRobots(args []string, s IO) int {
	fs := newFlagSet("robots", s, robotsUsage)
	dbPath := dbFlag(fs)
	id := fs.Int64("crawl", 0, "crawl ID (default: the most recent)")
	threads := fs.Int("threads", 0, "set: workers per robot (0: the crawl's)")
	perHost := fs.Int("per-host", 0, "set: requests at once per host (0: the crawl's)")
	delay := fs.Duration("delay", -1, "set: least time between two requests to a host (negative: the crawl's)")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	if !db.IsServerURL(*dbPath) {
		return fail(s, "robots", usagef("robots share a PostgreSQL database: give --db postgres://user@host/db"))
	}
	verb, rest := "list", fs.Args()
	if len(rest) > 0 {
		verb, rest = rest[0], rest[1:]
	}
	return withDB(s, "robots", *dbPath, func(d *db.DB) error {
		crawlID, err := pickCrawl(d, *id)
		if err != nil {
			return err
		}
		ctx := context.Background()
		switch verb {
		case "list":
			return listRobots(s, d, crawlID)
		case "set":
			c, err := d.Control(ctx, crawlID)
			if err != nil {
				return err
			}
			if *threads < 0 || *threads > crawl.MaxThreads || *perHost < 0 || *perHost > crawl.MaxThreads {
				return usagef("--threads and --per-host must be 0 to %d", crawl.MaxThreads)
			}
			c.Threads, c.PerHost, c.Delay = *threads, *perHost, *delay
			return d.SetControl(ctx, crawlID, c)
		case "pause", "resume", "stop":
			return commandRobots(ctx, d, crawlID, verb, rest)
		}
		return usagef("unknown robots command %q: want list, pause, resume, stop or set", verb)
	})
}

// commandRobots gives one robot, or all, a command.
func commandRobots(ctx context.Context, d *db.DB, crawlID int64, verb string, rest []string) error {
	if len(rest) != 1 {
		return usagef("%s what? give a robot's ID, or all", verb)
	}
	cmd := map[string]string{"pause": robot.CommandPause, "resume": robot.CommandRun, "stop": robot.CommandStop}[verb]
	if rest[0] != "all" {
		return d.CommandRobot(ctx, crawlID, rest[0], cmd)
	}
	return d.CommandAll(ctx, crawlID, cmd)
}

func listRobots(s IO, d *db.DB, crawlID int64) error {
	ctx := context.Background()
	list, err := d.Robots(ctx, crawlID)
	if err != nil {
		return err
	}
	c, err := d.Control(ctx, crawlID)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(s.Out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTATE\tPAGES\tPAGES/S\tERRORS\tTHREADS\tBEAT\tHOST\tPID")
	now := time.Now()
	for _, r := range list {
		state := r.State
		if r.Stale(now, robot.DefaultBeat) && (state == "running" || state == "paused") {
			state += " (stale)"
		}
		if r.Command != "" {
			state += ", told to " + r.Command
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.1f\t%d\t%d\t%s ago\t%s\t%d\n", r.ID, state, r.Pages, r.Rate, r.Errors,
			r.Status.Threads, now.Sub(r.Heartbeat).Round(100*time.Millisecond), r.Hostname, r.PID)
	}
	tw.Flush()
	fmt.Fprintf(s.Out, "%s; all robots: %s\n", countNoun(int64(len(list)), "robot"), controlText(c))
	return nil
}

func controlText(c robot.Control) string {
	t := "the crawl's settings"
	var parts []string
	if c.Threads > 0 {
		parts = append(parts, fmt.Sprintf("%d threads", c.Threads))
	}
	if c.PerHost > 0 {
		parts = append(parts, fmt.Sprintf("%d per host", c.PerHost))
	}
	if c.Delay >= 0 {
		parts = append(parts, "delay "+c.Delay.String())
	}
	if len(parts) > 0 {
		t = fmt.Sprint(parts)
	}
	if c.Command != "" {
		t += ", told to " + c.Command
	}
	return t
}
