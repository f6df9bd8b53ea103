package membudget

import (
	"context"
	"math"
	"runtime/debug"
	"testing"
	"time"
)

func TestLimit(t *testing.T) {
	const mib = 1 << 20
	for _, tc := range []struct {
		name string
		c    Config
		live uint64
		want int64
	}{
		{"small heap: the floor", Config{}, 20 * mib, 96 * mib},
		{"at the floor", Config{}, 64 * mib, 96 * mib},
		{"above it: live and half", Config{}, 80 * mib, 120 * mib},
		{"a million URLs' heap", Config{}, 200 * mib, 300 * mib},
		{"own floor and headroom", Config{Floor: 10 * mib, Headroom: 25}, 40 * mib, 50 * mib},
		{"absurd heap: no limit", Config{}, math.MaxUint64 / 2, math.MaxInt64},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Limit(tc.c, tc.live); got != tc.want {
				t.Errorf("Limit(%+v, %d) = %d, want %d", tc.c, tc.live, got, tc.want)
			}
		})
	}
}

func TestWatchSetsAndRestoresTheLimit(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	before := debug.SetMemoryLimit(-1)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { Watch(ctx, Config{Floor: 1 << 40, Every: time.Millisecond}); close(done) }()
	deadline := time.Now().Add(10 * time.Second)
	for debug.SetMemoryLimit(-1) != 1<<40 {
		if time.Now().After(deadline) {
			t.Fatalf("limit %d, want the floor %d", debug.SetMemoryLimit(-1), int64(1<<40))
		}
		time.Sleep(time.Millisecond)
	}
	cancel()
	<-done
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("limit after Watch %d, want it restored to %d", got, before)
	}
}

func TestWatchLeavesAChosenPolicyAlone(t *testing.T) {
	for _, env := range []string{"GOGC", "GOMEMLIMIT"} {
		t.Run(env, func(t *testing.T) {
			t.Setenv("GOGC", "")
			t.Setenv("GOMEMLIMIT", "")
			t.Setenv(env, "200")
			before := debug.SetMemoryLimit(-1)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			done := make(chan struct{})
			go func() { Watch(ctx, Config{Floor: 1 << 40, Every: time.Millisecond}); close(done) }()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				t.Fatalf("Watch still runs with %s set; limit %d", env, debug.SetMemoryLimit(-1))
			}
			if got := debug.SetMemoryLimit(-1); got != before {
				t.Errorf("limit %d with %s set, want it left at %d", got, env, before)
			}
		})
	}
}
