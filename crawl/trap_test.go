package crawl

import (
	"fmt"
	"testing"
)

func TestTrapGuard(t *testing.T) {
	g := newTrapGuard(&Config{TrapBudget: 24, TrapRepeats: 3, MaxQueryParams: 4})
	admitted := 0
	for y := 2026; y < 2036; y++ {
		for m := 1; m <= 12; m++ {
			if ok, _ := g.allow(fmt.Sprintf("http://a.com/cal/%d/%d", y, m)); ok {
				admitted++
			}
		}
	}
	if admitted != 24 {
		t.Errorf("calendar: admitted %d months, want the budget of 24", admitted)
	}
	tests := []struct {
		url  string
		want bool
	}{
		{"http://a.com/other/1", true}, // another pattern has its own budget
		{"http://a.com/a/b/a/b/a/b", true},
		{"http://a.com/a/b/a/b/a/b/a/b", false},
		{"http://a.com/x?a=1&b=2&c=3&d=4", true},
		{"http://a.com/x?a=1&b=2&c=3&d=4&e=5", false},
		{"http://a.com/no-digits", true},
	}
	for _, tt := range tests {
		if got, why := g.allow(tt.url); got != tt.want {
			t.Errorf("allow(%q) = %v (%s), want %v", tt.url, got, why, tt.want)
		}
	}
}
