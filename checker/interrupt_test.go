package checker

import (
	"context"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/javalite"
)

// TestEachInterrupted: a stream under fixed canceled while its workers are
// busy (inside Z3 or the relations) stops, reports no program cut short,
// and none of the reports it did hand over is a violation.
func TestEachInterrupted(t *testing.T) {
	for _, after := range []time.Duration{0, 50 * time.Millisecond, 300 * time.Millisecond, time.Second} {
		opt := DefaultOptions()
		opt.Variant = variant(t, "fixed")
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(after, cancel)
		var mu sync.Mutex
		var reps []*Report
		err := Each(ctx, opt, 500, 2,
			func(i int) (*javalite.Program, string) { return ProgramOf(ProgramSeed(5, i)), strconv.Itoa(i) },
			func(i int, rep *Report) { mu.Lock(); reps = append(reps, rep); mu.Unlock() })
		require.NoError(t, err)
		require.Less(t, len(reps), 500, "the stream was not interrupted")
		for _, r := range reps {
			require.NotEqual(t, Violated, r.Verdict.Status, "a verdict after cancellation: %s", r.Text(false))
		}
		t.Logf("canceled after %v: %d programs reported", after, len(reps))
		cancel()
	}
}
