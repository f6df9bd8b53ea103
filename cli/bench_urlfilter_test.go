package cli

import (
	"strconv"
	"strings"
	"testing"
)

// TestBenchURLFilter runs paper 002's experiment small and checks the
// table: one row per structure, numbers where numbers belong, and the
// paper's finding that the bitmap table compares fewer digests than the
// chained one. 5,000 lookups stay well inside the experiment's two
// seconds per structure under the race detector on a loaded machine
// (20,000 did not: the chained table stopped at 12,288).
func TestBenchURLFilter(t *testing.T) {
	code, out, errs := run(t, "", "bench", "urlfilter", "--entries", "2000", "--buckets", "20", "--lookups", "5000")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 7 || !strings.Contains(lines[0], "2,000 URLs each, 20 buckets") || !strings.HasPrefix(lines[2], "structure") {
		t.Fatalf("output:\n%s", out)
	}
	comps := map[string]float64{}
	for i, name := range []string{"chained hash table", "bitmap table", "Bloom + bitmap table", "Go map"} {
		line := lines[3+i]
		if !strings.HasPrefix(line, name+" ") {
			t.Fatalf("row %d is %q, want %s", i, line, name)
		}
		f := strings.Fields(strings.TrimPrefix(line, name))
		if len(f) < 4 {
			t.Fatalf("row %q", line)
		}
		for j, v := range f[:4] {
			if j == 0 && name == "Go map" {
				if v != "n/a" {
					t.Errorf("Go map comparisons %q", v)
				}
				continue
			}
			x, err := strconv.ParseFloat(v, 64)
			if err != nil || x < 0 || j > 0 && x == 0 {
				t.Errorf("%s: column %d is %q", name, j, v)
			}
			if j == 0 {
				comps[name] = x
			}
			if j == 3 && x != 5000 {
				t.Errorf("%s measured %v URLs", name, x)
			}
		}
	}
	if !(comps["bitmap table"] < comps["chained hash table"] && comps["Bloom + bitmap table"] < comps["bitmap table"]) {
		t.Errorf("comparisons per URL: %v", comps)
	}
}

func TestBenchURLFilterUsage(t *testing.T) {
	for _, args := range [][]string{
		{"bench", "urlfilter", "extra"},
		{"bench", "urlfilter", "--entries", "-1"},
		{"bench", "urlfilter", "--buckets", "0"},
		{"bench", "urlfilter", "--lookups", "x"},
	} {
		if code, _, _ := run(t, "", args...); code != ExitUsage {
			t.Errorf("%q: exit %d, want %d", args, code, ExitUsage)
		}
	}
	if _, _, errs := run(t, "", "bench", "--help"); !strings.Contains(errs, "bench urlfilter") {
		t.Errorf("bench --help does not mention urlfilter:\n%s", errs)
	}
	if code, _, errs := run(t, "", "bench", "urlfilter", "--help"); code != ExitOK || !strings.Contains(errs, "paper 002") {
		t.Errorf("bench urlfilter --help: exit %d\n%s", code, errs)
	}
}
