// Command trawler is a desktop web crawler. With no arguments it opens the
// window; with a subcommand (crawl, resume, export, search, stats, bench,
// fingerprint, help) it runs from the command line.
package main

import (
	"os"

	"github.com/trawler/trawler/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], cli.Std()))
}
