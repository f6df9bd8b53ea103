package runner

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/robot"
	"github.com/trawler/trawler/db"
	"github.com/trawler/trawler/db/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// TestSharedSessionIsARobot: on PostgreSQL the window crawls as one robot
// among others: it registers, its Pause pauses every robot through the
// crawl's control, and the crawl ends done.
func TestSharedSessionIsARobot(t *testing.T) {
	d, err := db.Open(pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	s, err := Start(d, "", config(site(t, 60, 20*time.Millisecond), 2))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Engine.(*robot.Robot); !ok {
		t.Fatalf("the session runs a %T, want a robot", s.Engine)
	}
	ctx := context.Background()
	eventually(t, "a few pages", func() bool { return s.Engine.Progress().Fetched() >= 3 })
	s.Pause()
	eventually(t, "the robot paused", func() bool {
		list, _ := d.Robots(ctx, s.ID)
		return len(list) == 1 && list[0].State == string(crawl.StatePaused)
	})
	if c, _ := d.Control(ctx, s.ID); c.Command != robot.CommandPause {
		t.Errorf("the crawl's command is %q, want pause", c.Command)
	}
	s.Resume()
	if err := s.Wait(); err != nil {
		t.Fatal(err)
	}
	if info := state(t, d, s.ID); info.State != db.StateDone || info.Pages != 60 {
		t.Errorf("after the run: state %s, %d pages", info.State, info.Pages)
	}
}
