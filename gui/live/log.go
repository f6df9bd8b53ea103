package live

import "github.com/trawler/trawler/crawl"

// LogLen is how many events the live log keeps.
const LogLen = 500

// Log keeps the most recent events and the ones its level filter lets
// through, for the scrolling log.
type Log struct {
	all  []crawl.Event
	min  crawl.Level
	view []crawl.Event
}

// Add appends events, oldest first, dropping the oldest beyond LogLen.
func (l *Log) Add(evs []crawl.Event) {
	if len(evs) == 0 {
		return
	}
	l.all = append(l.all, evs...)
	if over := len(l.all) - LogLen; over > 0 {
		l.all = append(l.all[:0], l.all[over:]...)
	}
	l.filter()
}

// SetLevel shows only events of level min and above.
func (l *Log) SetLevel(min crawl.Level) {
	l.min = min
	l.filter()
}

// Level returns the filter's level.
func (l *Log) Level() crawl.Level { return l.min }

// Clear forgets every event.
func (l *Log) Clear() {
	l.all, l.view = nil, nil
}

// Lines returns the events the filter lets through, oldest first. The
// slice is the log's own: read it, do not keep it.
func (l *Log) Lines() []crawl.Event { return l.view }

func (l *Log) filter() {
	l.view = l.view[:0]
	for _, ev := range l.all {
		if ev.Level >= l.min {
			l.view = append(l.view, ev)
		}
	}
}

// LevelNames are the filter's choices, in order of rising level.
var LevelNames = []string{"All", "Warnings and errors", "Errors only"}

// LevelOf returns the level a LevelNames choice stands for.
func LevelOf(name string) crawl.Level {
	for i, n := range LevelNames {
		if n == name {
			return crawl.Level(i)
		}
	}
	return crawl.LevelInfo
}
