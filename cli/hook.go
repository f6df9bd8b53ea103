package cli

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/hook"
)

// runHook runs the crawl's hook command, if any, once the crawl is done or
// failed (see hook.Run); its output goes to standard error. A failing hook
// is reported and logged but does not change the exit code: the crawl
// itself went as it went.
func runHook(s IO, cmd string, log *slog.Logger, c crawl.Config, id int64, dbPath string, state crawl.RunState) {
	if !hook.Due(c.Hook, state) {
		return
	}
	if err := hook.Run(context.Background(), c.Hook, id, dbPath, state, s.Err); err != nil {
		fmt.Fprintf(s.Err, "trawler %s: %v\n", cmd, err)
		log.Error("hook failed", "hook", c.Hook, "err", err)
		return
	}
	log.Info("hook ran", "hook", c.Hook)
}
