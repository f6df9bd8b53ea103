package cli

import (
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/trawler/trawler/crawl"
)

// runHook runs the crawl's hook command, if any, once the crawl is done or
// failed: the command's words (no shell) followed by the crawl ID and the
// database path, with TRAWLER_CRAWL_STATE in its environment. Its output
// goes to standard error. A failing hook is reported and logged but does
// not change the exit code: the crawl itself went as it went.
func runHook(s IO, cmd string, log *slog.Logger, c crawl.Config, id int64, dbPath string, state crawl.RunState) {
	words := strings.Fields(c.Hook)
	if len(words) == 0 || (state != crawl.StateDone && state != crawl.StateFailed) {
		return
	}
	h := exec.Command(words[0], append(words[1:], strconv.FormatInt(id, 10), dbPath)...)
	h.Env = append(os.Environ(), "TRAWLER_CRAWL_STATE="+string(state))
	h.Stdout, h.Stderr = s.Err, s.Err
	if err := h.Run(); err != nil {
		fmt.Fprintf(s.Err, "trawler %s: hook %q failed: %v\n", cmd, c.Hook, err)
		log.Error("hook failed", "hook", c.Hook, "err", err)
		return
	}
	log.Info("hook ran", "hook", c.Hook)
}
