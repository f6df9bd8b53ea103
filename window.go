//go:build !nogui

package main

import (
	"fyne.io/fyne/v2/app"

	"github.com/trawler/trawler/cli"
	"github.com/trawler/trawler/gui"
	_ "github.com/trawler/trawler/gui/fynelocale" // before Fyne reads the locale: see its doc
)

func init() { cli.OpenWindow = openWindow }

// openWindow runs the Fyne window on the database at path, the same
// default one as the command line's when empty.
func openWindow(path string) int {
	app.SetMetadata(gui.Metadata())
	return gui.Run(app.NewWithID(gui.AppID), path)
}
