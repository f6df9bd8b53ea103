//go:build !linux

package pgtest

import (
	"errors"
	"time"
)

// privateServers is false here: a private server's safety net (killed with
// the test process, Pdeathsig) is Linux's. Set TRAWLER_TEST_PG instead.
const privateServers = false

// instance stands for a private server, never started here.
type instance struct {
	base string
	took time.Duration
}

// startServer refuses: see privateServers.
func startServer(bins) (*instance, error) {
	return nil, errors.New("pgtest: private PostgreSQL servers are started on Linux only; set " + envServer)
}

// stop has nothing to stop.
func (*instance) stop() error { return nil }
