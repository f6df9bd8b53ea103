// Command trawler is a desktop web crawler. With no arguments it opens the
// window; with a subcommand (crawl, resume, recrawl, export, search, stats,
// bench, fingerprint, help …) it runs from the command line.
//
// Built with -tags nogui it has every command but the window, needs no
// C compiler or display libraries, and builds with CGO_ENABLED=0 for
// servers, containers and other architectures.
package main

import (
	"context"
	"os"

	"github.com/trawler/trawler/cli"
	"github.com/trawler/trawler/crawl/membudget"
)

func main() {
	// The process's garbage-collection policy, whichever face runs: a big
	// crawl's heap gets half its size as headroom rather than all of it.
	go membudget.Watch(context.Background(), membudget.Config{})
	os.Exit(cli.Main(os.Args[1:], cli.Std()))
}
