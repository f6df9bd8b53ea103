// Package robot is paper 003's robot: one of several crawler processes,
// each with an ID, that crawl one crawl together under a control server.
// Trawler's control server is the shared PostgreSQL database (and the
// window or `trawler robots` writing to it): a robot registers there,
// beats every few seconds with its counts, follows the crawl's control —
// threads, per-host limit, delay, pause, stop — within the two seconds a
// notification or a beat takes, and works until the crawl ends or it is
// told to stop. It is a crawl.Engine in shared mode (crawl.Shared) over a
// store that leases URLs and hosts with expiry (db.DB.SharedCrawl), so
// that a robot that dies loses its work to the others.
//
// Paper 003's filter stages map onto the engine's steps as follows:
// Setup is Run's restore (register, read the crawl's settings and known
// URLs); Metadata is what is known before the download (crawl.Item, the
// URL, host, depth: Page's first fields); Data is the fetch and parse
// (crawl/fetch, crawl/parse: Page's second half); Enumerate and Generate
// are discover (new URLs to the store) and the resource description
// written by Store.Apply; Shutdown is Release, the last beat and Leave.
//
// Paper 003's robots pass a token to merge their download lists, so that
// no two fetch one resource; here the store's unique index on each URL's
// fingerprint and the leases do that (see docs/distributed.md).
package robot

import (
	"time"
)

// Commands a robot follows, for the crawl or for one robot.
const (
	CommandRun   = ""      // go on (resume a paused robot)
	CommandPause = "pause" // start no new fetch until told to run
	CommandStop  = "stop"  // finish what is in flight and leave
)

// Control is what the crawl's robots follow: the crawl's own control, and
// the one robot's command. Zero values leave the crawl's settings.
type Control struct {
	Threads int           // workers per robot; 0: the robot's own or the crawl's settings
	PerHost int           // requests at once per host; 0: the crawl's settings
	Delay   time.Duration // between two requests to a host; negative: the crawl's settings
	Command string        // for all the robots: CommandRun, CommandPause or CommandStop
	Robot   string        // for this robot alone, the same
	Version int64         // counts the changes of the crawl's control
}

// Effective returns the command in force: stop if either says stop, else
// pause if either says pause.
func (c Control) Effective() string {
	switch {
	case c.Command == CommandStop || c.Robot == CommandStop:
		return CommandStop
	case c.Command == CommandPause || c.Robot == CommandPause:
		return CommandPause
	}
	return CommandRun
}

// Info describes a robot when it registers.
type Info struct {
	ID       string // the robot's name, unique in its crawl
	Owner    string // the name its leases go by
	Hostname string
	PID      int
	Version  string
	Started  time.Time
	Threads  int
}

// Status is what a robot reports with each beat.
type Status struct {
	At      time.Time // when the status and the hosts beside it were read
	State   string    // running, paused, stopping, done, failed
	Pages   int64     // URLs fetched by this run
	Errors  int64
	Rate    float64 // pages/s over the last few seconds
	Threads int
}

// HostKeep is a host a robot keeps working (its lease is renewed), or
// hands on no earlier than Next.
type HostKeep struct {
	Host string
	Keep bool      // the robot has URLs of it waiting or in flight
	Next time.Time // when another may ask it again, if handed on
}

// State of a robot as the database shows it.
type State struct {
	Info
	Status
	Heartbeat time.Time
	Command   string
}

// Stale reports whether the robot missed its beats: dead, or cut off.
func (s State) Stale(now time.Time, every time.Duration) bool {
	return now.Sub(s.Heartbeat) > 3*every
}

// Working reports whether the robot still works its crawl: running or
// paused, and beating.
func (s State) Working(now time.Time) bool {
	return (s.State == "running" || s.State == "paused") && !s.Stale(now, DefaultBeat)
}

// OthersWorking reports whether robots other than self still work the
// crawl: a robot that leaves does not mark the crawl stopped under them.
func OthersWorking(list []State, self string, now time.Time) bool {
	for _, s := range list {
		if s.ID != self && s.Working(now) {
			return true
		}
	}
	return false
}
