package gui

import (
	"bytes"
	"os"
	"testing"

	"github.com/pelletier/go-toml/v2"
)

// TestMetadataMatchesFyneAppToml keeps what main.go hands to Fyne and what
// `fyne package` reads from FyneApp.toml the same.
func TestMetadataMatchesFyneAppToml(t *testing.T) {
	raw, err := os.ReadFile("../FyneApp.toml")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Details struct {
			Icon, Name, ID, Version string
			Build                   int
		}
		Migrations map[string]bool
	}
	if err := toml.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TRAWLER_THREAD_CHECKS", "")
	m := Metadata()
	if file.Details.ID != AppID || m.ID != AppID || file.Details.Name != m.Name ||
		file.Details.Version != m.Version || file.Details.Build != m.Build {
		t.Errorf("FyneApp.toml %+v, Metadata() %+v", file.Details, m)
	}
	if !file.Migrations["fyneDo"] || !m.Migrations["fyneDo"] {
		t.Error("the fyneDo migration is not on")
	}
	icon, err := os.ReadFile("../" + file.Details.Icon)
	if err != nil || !bytes.Equal(icon, m.Icon.Content()) {
		t.Errorf("FyneApp.toml's icon is not the one built in (%v)", err)
	}
	t.Setenv("TRAWLER_THREAD_CHECKS", "1")
	if Metadata().Migrations["fyneDo"] {
		t.Error("TRAWLER_THREAD_CHECKS=1 leaves Fyne's thread checks off")
	}
}
