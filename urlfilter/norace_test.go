//go:build !race

package urlfilter

const raceEnabled = false
