package peakmem

import (
	"runtime"
	"testing"
)

// TestPeakGrows touches 64 MiB and expects the peak and the current
// resident size to cover it.
func TestPeakGrows(t *testing.T) {
	if runtime.GOOS != "linux" {
		if Peak() != 0 || Current() != 0 {
			t.Errorf("Peak = %d, Current = %d off Linux, want 0", Peak(), Current())
		}
		return
	}
	Reset()
	before := Peak()
	if before <= 0 {
		t.Fatalf("Peak = %d, want the process's resident memory", before)
	}
	b := make([]byte, 64<<20)
	for i := range b {
		b[i] = byte(i)
	}
	if after := Peak(); after < before+60<<20 {
		t.Errorf("peak %d after touching 64 MiB, was %d", after, before)
	}
	if now := Current(); now < 64<<20 || now > Peak() {
		t.Errorf("resident %d with 64 MiB touched, peak %d", now, Peak())
	}
	runtime.KeepAlive(b)
}
