package runner

import (
	"context"
	"log/slog"
	"time"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/robot"
	"github.com/trawler/trawler/db"
)

// Version is what the window's robot registers as its version.
var Version = crawl.Version

// newCrawler makes what runs crawl id: the engine alone on a SQLite file;
// on PostgreSQL a robot, so that robots started elsewhere crawl beside it.
func newCrawler(d *db.DB, id int64, cfg crawl.Config, log *slog.Logger) (Crawler, error) {
	if !d.Postgres() {
		return crawl.New(cfg, d.Crawl(id), crawl.WithLogger(log))
	}
	st, err := d.SharedCrawl(id, 0)
	if err != nil {
		return nil, err
	}
	return robot.Join(st, cfg, robot.Config{Info: robot.Info{Version: Version}, Logger: log})
}

// command gives every robot of the crawl a command.
func (s *Session) command(cmd string) {
	go func() { // off the caller's goroutine: the database may be far away
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := s.d.CommandAll(ctx, s.ID, cmd); err != nil {
			s.logger.Error("the robots' command could not be set", "command", cmd, "err", err)
		}
	}()
}

// othersWork reports whether other robots still work the session's crawl.
func (s *Session) othersWork() bool {
	r, ok := s.Engine.(*robot.Robot)
	if !ok {
		return false
	}
	list, err := s.d.Robots(context.Background(), s.ID)
	return err == nil && robot.OthersWorking(list, r.ID(), time.Now())
}
