package profile

import (
	"strings"
	"testing"
	"time"

	"github.com/trawler/trawler/crawl"
)

func TestPresets(t *testing.T) {
	checks := map[string]func(c crawl.Config) bool{
		"polite": func(c crawl.Config) bool {
			return c.PerHost == 1 && c.Delay == time.Second && c.Robots && c.Threads == 4
		},
		"fast": func(c crawl.Config) bool {
			return c.Threads == 50 && c.PerHost == 50 && c.Delay == 0 && c.Robots
		},
		"archive": func(c crawl.Config) bool {
			return c.Resources && c.Depth == 20 && c.MaxSize == 100<<20 && c.Sitemaps && c.TrapBudget == 5000
		},
	}
	presets := Presets()
	if len(presets) != len(checks) {
		t.Errorf("%d presets, want %d", len(presets), len(checks))
	}
	for _, p := range presets {
		t.Run(p.Name, func(t *testing.T) {
			if p.Description == "" || !strings.HasPrefix(p.TOML, "# "+p.Name+":") {
				t.Errorf("description %q, file starts %q", p.Description, p.TOML[:min(20, len(p.TOML))])
			}
			c := crawl.DefaultConfig()
			c.Hook = "keep me"
			if err := p.Apply(&c); err != nil {
				t.Fatal(err)
			}
			if check := checks[p.Name]; check == nil || !check(c) {
				t.Errorf("preset %s gives %+v", p.Name, c)
			}
			if c.Hook != "keep me" {
				t.Error("a preset changed a key it does not name")
			}
			found, err := FindPreset(p.Name)
			if err != nil || found.Name != p.Name {
				t.Errorf("FindPreset(%q) = %v, %v", p.Name, found.Name, err)
			}
		})
	}
	if _, err := FindPreset("rude"); err == nil || !strings.Contains(err.Error(), "polite, fast, archive") {
		t.Errorf("FindPreset of an unknown name: %v", err)
	}
}
