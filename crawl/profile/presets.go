package profile

import (
	"embed"
	"fmt"
	"strings"

	"github.com/trawler/trawler/crawl"
)

//go:embed presets/*.toml
var presetFiles embed.FS

// Preset is a named partial profile that sets a few keys over whatever
// settings it is applied to.
type Preset struct {
	Name        string
	Description string
	TOML        string // the keys it sets, as a profile
}

// presetList is the order presets are offered in, with their summaries.
var presetList = []struct{ name, description string }{
	{"polite", "1 request at a time per host, 1 s apart, 4 workers, robots.txt honoured"},
	{"fast", "fast for my own site: 50 workers, 50 per host, no delay (robots.txt still honoured)"},
	{"archive", "depth 20, images/scripts/styles, bodies up to 100 MiB, sitemaps, trap budget 5000"},
}

// Presets returns the built-in presets: polite, fast and archive.
func Presets() []Preset {
	list := make([]Preset, len(presetList))
	for i, p := range presetList {
		b, err := presetFiles.ReadFile("presets/" + p.name + ".toml")
		if err != nil {
			panic(fmt.Sprintf("profile: preset %s not embedded: %v", p.name, err))
		}
		list[i] = Preset{Name: p.name, Description: p.description, TOML: string(b)}
	}
	return list
}

// FindPreset returns the preset called name.
func FindPreset(name string) (Preset, error) {
	var names []string
	for _, p := range Presets() {
		if p.Name == name {
			return p, nil
		}
		names = append(names, p.Name)
	}
	return Preset{}, fmt.Errorf("no preset %q (there are %s)", name, strings.Join(names, ", "))
}

// Apply sets the preset's keys in c, leaving the others as they are.
func (p Preset) Apply(c *crawl.Config) error {
	out, err := LoadOver(*c, strings.NewReader(p.TOML))
	if err != nil {
		return fmt.Errorf("preset %s: %w", p.Name, err)
	}
	*c = out
	return nil
}
