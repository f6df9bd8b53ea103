package crawl

import (
	"context"
	"log/slog"
)

// Trawler's log levels 0–5 (paper 003's loglevel) mapped onto slog levels:
// 0 errors only, 1 adds warnings, 2 adds the crawl's milestones (start,
// stop, robots.txt, back-off), 3 adds every fetch, 4 adds link decisions,
// 5 is everything.
const (
	LevelFetch = slog.LevelInfo - 2 // one line per fetched URL
	LevelLinks = slog.LevelDebug    // why a link was or was not followed
	LevelTrace = slog.LevelDebug - 4
)

// SlogLevel returns the slog threshold of a log level 0–5.
func SlogLevel(n int) slog.Level {
	switch {
	case n <= 0:
		return slog.LevelError
	case n == 1:
		return slog.LevelWarn
	case n == 2:
		return slog.LevelInfo
	case n == 3:
		return LevelFetch
	case n == 4:
		return LevelLinks
	}
	return LevelTrace
}

// Option adjusts an Engine beyond its Config: things that are not settings
// of a crawl but of the program running it.
type Option func(*Engine)

// WithLogger sends the engine's structured log to l. Without it the engine
// logs nothing (its live Events are kept either way).
func WithLogger(l *slog.Logger) Option {
	return func(e *Engine) { e.logger = l }
}

// discard is a handler that drops everything, for engines without a logger.
type discard struct{}

func (discard) Enabled(context.Context, slog.Level) bool  { return false }
func (discard) Handle(context.Context, slog.Record) error { return nil }
func (d discard) WithAttrs([]slog.Attr) slog.Handler      { return d }
func (d discard) WithGroup(string) slog.Handler           { return d }

// LogValue keeps passwords out of every log: credentials log as host and
// user only.
func (a HostAuth) LogValue() slog.Value {
	return slog.GroupValue(slog.String("host", a.Host), slog.String("user", a.User))
}
