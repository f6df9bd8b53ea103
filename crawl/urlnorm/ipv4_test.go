package urlnorm

import (
	"net/netip"
	"testing"
)

// TestIsIPv4 checks isIPv4 against netip.ParseAddr, which it stands in for,
// on edge cases and on every string of up to eight characters from a small
// alphabet.
func TestIsIPv4(t *testing.T) {
	agree := func(s string) {
		a, err := netip.ParseAddr(s)
		if want := err == nil && a.Is4(); isIPv4([]byte(s)) != want {
			t.Errorf("isIPv4(%q) = %v, netip says %v", s, !want, want)
		}
	}
	for _, s := range []string{"", "1.2.3.4", "0.0.0.0", "255.255.255.255", "256.1.1.1", "01.2.3.4",
		"1.2.3", "1.2.3.4.5", "1..2.3", ".1.2.3", "1.2.3.", "1.2.3.04", "1.2.3.1000", "127.0.0.1", "a.b.c.d", "1.2.3.-4"} {
		agree(s)
	}
	const alphabet = "0129."
	var walk func(prefix string)
	walk = func(prefix string) {
		agree(prefix)
		if len(prefix) == 8 {
			return
		}
		for i := range alphabet {
			walk(prefix + alphabet[i:i+1])
		}
	}
	walk("")
}
