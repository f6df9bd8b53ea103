package format

import (
	"testing"
	"time"
)

func TestCount(t *testing.T) {
	for n, want := range map[int64]string{0: "0 pages", 1: "1 page", 2: "2 pages", 1455: "1,455 pages"} {
		if got := Count(n, "page", "pages"); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestDuration(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{0, "0 ms"},
		{40 * time.Microsecond, "< 0.1 ms"},
		{400 * time.Microsecond, "0.4 ms"},
		{4200 * time.Microsecond, "4.2 ms"},
		{150 * time.Millisecond, "150 ms"},
		{999 * time.Millisecond, "999 ms"},
		{1500 * time.Millisecond, "1.5 s"},
		{42 * time.Second, "42 s"},
		{185 * time.Second, "3 min 5 s"},
		{2*time.Hour + 5*time.Minute, "2 h 5 min"},
	}
	for _, tt := range tests {
		if got := Duration(tt.d); got != tt.want {
			t.Errorf("Duration(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}
