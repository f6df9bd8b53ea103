package parse

import (
	"fmt"
	"runtime/debug"
)

// Tests fail on a builder panic other than x/net/html's own checks, which
// production code turns into the token-by-token fallback.
func init() {
	panicHook = func(r any) { panic(fmt.Sprintf("builder panic: %v\n%s", r, debug.Stack())) }
}
