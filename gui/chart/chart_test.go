package chart

import (
	"reflect"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
)

func TestFold(t *testing.T) {
	if got := Fold([]int64{1, 2, 3, 4, 5}, 3); !reflect.DeepEqual(got, []int64{1, 2, 12}) {
		t.Errorf("Fold = %v", got)
	}
	if got := Fold([]int64{1, 2}, 3); !reflect.DeepEqual(got, []int64{1, 2}) {
		t.Errorf("Fold short = %v", got)
	}
}

func TestCompact(t *testing.T) {
	for n, want := range map[int64]string{7: "7", 999: "999", 1500: "1.5k", 12_345: "12k", 3_400_000: "3.4M"} {
		if got := compact(n); got != want {
			t.Errorf("compact(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestChartsRender compares both charts, empty and filled, with golden
// images drawn by the test theme.
func TestChartsRender(t *testing.T) {
	test.NewTempApp(t)
	rate, depth := NewRateChart(20), NewDepthBars()
	w := test.NewTempWindow(t, container.NewGridWithColumns(2, rate, depth))
	w.Resize(fyne.NewSize(480, 140))
	test.AssertImageMatches(t, "charts_empty.png", w.Canvas().Capture())

	rate.SetValues([]float64{0, 2, 5, 9, 14, 20, 24, 22, 25, 30, 28, 26, 31, 35, 33, 30, 36, 40, 38, 41, 39})
	depth.SetCounts([]int64{1, 8, 60, 420, 1900, 5200, 800, 20, 3, 1, 1, 1, 2, 1})
	test.AssertImageMatches(t, "charts_filled.png", w.Canvas().Capture())
}
