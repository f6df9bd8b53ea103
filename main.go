// Command trawler is a desktop web crawler. With no arguments it opens the
// window; with a subcommand (crawl, resume, recrawl, export, search, stats,
// bench, fingerprint, help …) it runs from the command line.
package main

import (
	"os"

	"fyne.io/fyne/v2/app"

	"github.com/trawler/trawler/cli"
	"github.com/trawler/trawler/gui"
	_ "github.com/trawler/trawler/gui/fynelocale" // before Fyne reads the locale: see its doc
)

func main() {
	cli.OpenWindow = openWindow
	os.Exit(cli.Main(os.Args[1:], cli.Std()))
}

// openWindow runs the Fyne window on the database at path, the same
// default one as the command line's when empty.
func openWindow(path string) int {
	app.SetMetadata(gui.Metadata())
	return gui.Run(app.NewWithID(gui.AppID), path)
}
