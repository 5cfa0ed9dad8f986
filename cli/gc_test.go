package cli

import "testing"

// TestGCPercent: GOGC is 200 below the live heap at which GOGC=400's goal
// leaves its 16 MiB floor (five times the live heap from there), 400 from
// it on (tuneGC).
func TestGCPercent(t *testing.T) {
	if got := gcLargeLive * (1 + gcLarge/100); got > 16<<20 || got < 16<<20-5 {
		t.Fatalf("gcLargeLive × 5 = %d, want GOGC=400's floor of 16 MiB", got)
	}
	for _, c := range []struct {
		live uint64
		want int
	}{{0, 200}, {2 << 20, 200}, {gcLargeLive - 1, 200}, {gcLargeLive, 400}, {1 << 30, 400}} {
		if got := gcPercent(c.live); got != c.want {
			t.Errorf("gcPercent(%d) = %d, want %d", c.live, got, c.want)
		}
	}
}
