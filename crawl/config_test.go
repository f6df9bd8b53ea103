package crawl

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/trawler/trawler/crawl/neardup"
)

// TestSketchVersion checks how a crawl's sketch version is set: the
// latest for a Config made by DefaultConfig, 1 for one stored before the
// field existed (testdata holds the settings the code before it stored)
// or left zero, as stored otherwise, and validated.
func TestSketchVersion(t *testing.T) {
	old, err := os.ReadFile(filepath.Join("testdata", "settings-before-sketch-version.json"))
	if err != nil {
		t.Fatal(err)
	}
	stored := func(version int) []byte {
		c := DefaultConfig()
		c.Seeds, c.SketchVersion = []string{"http://127.0.0.1:8080/"}, version
		b, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	tests := []struct {
		name   string
		config func() (Config, error)
		want   int
	}{
		{"DefaultConfig", func() (Config, error) { return DefaultConfig(), nil }, neardup.LatestVersion},
		{"zero, validated", func() (Config, error) {
			c := Config{Seeds: []string{"http://127.0.0.1/"}}
			return c, c.Validate()
		}, neardup.Version1},
		{"stored before the field", func() (Config, error) { return DecodeSettings(old) }, neardup.Version1},
		{"stored by DefaultConfig", func() (Config, error) { return DecodeSettings(stored(neardup.LatestVersion)) }, neardup.LatestVersion},
		{"stored as 1", func() (Config, error) { return DecodeSettings(stored(neardup.Version1)) }, neardup.Version1},
	}
	for _, tt := range tests {
		c, err := tt.config()
		if err != nil || c.SketchVersion != tt.want {
			t.Errorf("%s: sketch version %d, %v; want %d", tt.name, c.SketchVersion, err, tt.want)
		}
		if err := c.Validate(); err != nil && len(c.Seeds) > 0 {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
}

// TestDecodeOldSettings checks that the settings stored before the sketch
// version existed read as DefaultConfig did then: the version differs from
// today's defaults, and the URLs held in memory (100,000 then).
func TestDecodeOldSettings(t *testing.T) {
	old, err := os.ReadFile(filepath.Join("testdata", "settings-before-sketch-version.json"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeSettings(old)
	if err != nil {
		t.Fatal(err)
	}
	want := DefaultConfig()
	want.Seeds, want.SketchVersion = []string{"http://127.0.0.1:8080/"}, neardup.Version1
	want.MemoryURLs = 100_000
	if !reflect.DeepEqual(got, want) {
		t.Errorf("old settings read as\n%+v\nwant\n%+v", got, want)
	}
	if _, err := DecodeSettings([]byte("{")); err == nil {
		t.Error("DecodeSettings of broken JSON: no error")
	}
}

// TestSketchVersionValidate checks the versions Validate refuses.
func TestSketchVersionValidate(t *testing.T) {
	for _, v := range []int{-1, neardup.LatestVersion + 1} {
		c := DefaultConfig()
		c.Seeds, c.SketchVersion = []string{"http://127.0.0.1/"}, v
		var se *SettingError
		if err := c.Validate(); !errors.As(err, &se) || se.Setting != "sketch-version" || !strings.Contains(se.Reason, "got") {
			t.Errorf("sketch version %d: %v; want a sketch-version error", v, err)
		}
	}
}
