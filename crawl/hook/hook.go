// Package hook runs the command a crawl's settings name for the end of a
// crawl cycle (paper 003's "command hook"): a way to publish, index or
// archive what a crawl gathered without Trawler knowing how.
package hook

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/trawler/trawler/crawl"
)

// StateVar is the environment variable that tells the hook how the crawl
// ended: "done" or "failed".
const StateVar = "TRAWLER_CRAWL_STATE"

// Due reports whether Run runs command for a crawl that ended in state:
// there is a command, and the crawl is done or failed.
func Due(command string, state crawl.RunState) bool {
	return strings.TrimSpace(command) != "" && (state == crawl.StateDone || state == crawl.StateFailed)
}

// Run runs command once a crawl (or one re-crawl cycle) has ended in state:
// the command's words, split on spaces without a shell, followed by the
// crawl's ID and the database path, with StateVar in its environment and
// its output to out. It does nothing for an empty command or a crawl that
// was stopped or paused rather than done or failed; it returns when the
// command has ended, or ctx is done.
func Run(ctx context.Context, command string, id int64, dbPath string, state crawl.RunState, out io.Writer) error {
	if !Due(command, state) {
		return nil
	}
	words := strings.Fields(command)
	h := exec.CommandContext(ctx, words[0], append(words[1:], strconv.FormatInt(id, 10), dbPath)...)
	h.Env = append(os.Environ(), StateVar+"="+string(state))
	h.Stdout, h.Stderr = out, out
	if err := h.Run(); err != nil {
		return fmt.Errorf("hook %q failed: %w", command, err)
	}
	return nil
}
