package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// versionText is `trawler version`'s line: the version, the commit and
// its date when the binary was built from a Git checkout, the platform,
// and whether this build has the window.
func versionText() string {
	var b strings.Builder
	fmt.Fprintf(&b, "trawler %s", Version)
	if info, ok := debug.ReadBuildInfo(); ok {
		vcs := map[string]string{}
		for _, s := range info.Settings {
			vcs[s.Key] = s.Value
		}
		if rev := vcs["vcs.revision"]; rev != "" {
			fmt.Fprintf(&b, " (commit %.12s", rev)
			if vcs["vcs.modified"] == "true" {
				b.WriteString(" with local changes")
			}
			if at := vcs["vcs.time"]; at != "" {
				fmt.Fprintf(&b, ", %s", at)
			}
			b.WriteString(")")
		}
	}
	face := "window and command line"
	if OpenWindow == nil {
		face = "command line only"
	}
	fmt.Fprintf(&b, " %s/%s, %s, %s", runtime.GOOS, runtime.GOARCH, runtime.Version(), face)
	return b.String()
}
