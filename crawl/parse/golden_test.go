package parse

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// TestGolden parses each testdata/*.html and compares the Document, as
// indented JSON, with testdata/*.golden. Run with -update to rewrite them.
func TestGolden(t *testing.T) {
	pages, err := filepath.Glob("testdata/*.html")
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) == 0 {
		t.Fatal("no testdata/*.html")
	}
	for _, page := range pages {
		t.Run(filepath.Base(page), func(t *testing.T) {
			src, err := os.ReadFile(page)
			if err != nil {
				t.Fatal(err)
			}
			got := marshal(t, mustParse(t, string(src)))
			golden := strings.TrimSuffix(page, ".html") + ".golden"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -run TestGolden -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("Document differs from %s (-update rewrites it)\ngot:\n%s", golden, got)
			}
		})
	}
}

func marshal(t testing.TB, d *Document) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(d); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestFallbackAgrees checks that the token-stream fallback, used for pages
// nested too deeply for the tree builder, finds what the tree walk finds on
// well-formed pages without <noscript> (whose content the tokenizer cannot
// see as markup).
func TestFallbackAgrees(t *testing.T) {
	pages := map[string][]byte{"generated": benchPage(40)}
	for _, name := range []string{"legacy", "frameset", "zh"} {
		src, err := os.ReadFile(filepath.Join("testdata", name+".html"))
		if err != nil {
			t.Fatal(err)
		}
		pages[name] = src
	}
	for name, src := range pages {
		t.Run(name, func(t *testing.T) {
			tree := mustParse(t, string(src))
			var p parser
			p.reset(src)
			p.w.tokens(&p.z)
			if tokens := p.w.document(); !reflect.DeepEqual(tree, tokens) {
				t.Errorf("tree:\n%s\ntokens:\n%s", marshal(t, tree), marshal(t, tokens))
			}
		})
	}
}
