package crawl

import (
	"fmt"
	"net/http"
	"sync"
	"time"
)

// Level grades an Event, for the log views' filters.
type Level int

// Event levels.
const (
	LevelInfo Level = iota
	LevelWarn
	LevelError
)

func (l Level) String() string {
	switch l {
	case LevelWarn:
		return "warn"
	case LevelError:
		return "error"
	}
	return "info"
}

// Event is one line of the crawl's live log: a fetch, a failure, a stage.
type Event struct {
	Seq     uint64 // increases by one per event, from 1
	At      time.Time
	Level   Level
	URL     string
	Status  int
	Message string
}

func (ev Event) String() string {
	return fmt.Sprintf("%s %-5s %3d %s %s", ev.At.Format("15:04:05.000"), ev.Level, ev.Status, ev.URL, ev.Message)
}

// eventLog keeps the most recent events in a ring.
type eventLog struct {
	mu   sync.Mutex
	ring []Event
	next uint64 // Seq of the next event
}

const eventLogSize = 2000

func (l *eventLog) add(ev Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ring == nil {
		l.ring = make([]Event, eventLogSize)
		l.next = 1
	}
	ev.Seq = l.next
	l.ring[l.next%eventLogSize] = ev
	l.next++
}

// since returns the kept events with Seq > after, oldest first.
func (l *eventLog) since(after uint64) []Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.next == 0 {
		return nil
	}
	first := after + 1
	if l.next > eventLogSize && first < l.next-eventLogSize {
		first = l.next - eventLogSize
	}
	out := make([]Event, 0, max(0, int(l.next-first)))
	for s := first; s < l.next; s++ {
		out = append(out, l.ring[s%eventLogSize])
	}
	return out
}

// Events returns the recent events after the one numbered after (0 for all
// that are kept), oldest first. The engine keeps the last 2,000.
func (e *Engine) Events(after uint64) []Event { return e.log.since(after) }

// pageEvent turns a committed page into a log line.
func pageEvent(p *Page) Event {
	ev := Event{At: p.FetchedAt.Add(p.Duration), URL: p.URL, Status: p.Status}
	switch {
	case p.Err != "":
		ev.Level, ev.Message = LevelError, p.Err
	case p.Failed(): // the one definition of an error, as Live and the hosts table count it
		ev.Level, ev.Message = LevelError, fmt.Sprintf("HTTP %d %s", p.Status, http.StatusText(p.Status))
	default:
		ev.Message = fmt.Sprintf("%s %d bytes in %s", p.ContentType, p.Length, p.Duration.Round(time.Millisecond))
		if p.DuplicateOf != "" {
			ev.Message += ", duplicate of " + p.DuplicateOf
		}
	}
	return ev
}
