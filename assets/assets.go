// Package assets holds the resources built into Trawler's binary: the app
// icon (drawn by icon_gen.go). FyneApp.toml names the same file for
// packaging.
package assets

import (
	_ "embed"

	"fyne.io/fyne/v2"
)

//go:embed icon.png
var iconPNG []byte

// Icon is Trawler's app icon, a 512×512 PNG: a trawl net on a sea-blue
// square.
var Icon = fyne.NewStaticResource("icon.png", iconPNG)
