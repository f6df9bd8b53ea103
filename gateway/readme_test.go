package gateway

import (
	"os"
	"strings"
	"testing"
)

// TestReadmePolicy parses the policy the README shows, so the example a
// user copies works.
func TestReadmePolicy(t *testing.T) {
	doc, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "```toml\n")
	if !ok {
		t.Fatal("the README shows no policy")
	}
	block, _, _ := strings.Cut(rest, "```")
	var lines []string
	for _, l := range strings.Split(block, "\n") {
		lines = append(lines, strings.TrimPrefix(l, "  "))
	}
	p, err := ParsePolicy("README.md", strings.NewReader(strings.Join(lines, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Rules) != 1 || len(p.Rules[0].Block) != 2 || p.Categories["games"] != Allow {
		t.Errorf("the README's policy reads as %+v", p)
	}
}
