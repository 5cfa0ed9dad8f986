package uber

import (
	"errors"
	"os"
	"strconv"
	"testing"

	"github.com/lockstep-dev/lockstep/gen"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/stretchr/testify/assert"
)

// generatedRange is the part of gen.Programs(1, …, gen.NoData) checked (the
// stream the recorded ranges of docs/UBER.md were checked on): programs
// [$UBER_GENERATED_FROM, $UBER_GENERATED), by default the first 10 (none
// with -short). Larger ranges were checked in parts (docs/UBER.md); a
// program takes about 2 s on a shared machine.
func generatedRange() (from, to int) {
	if s := os.Getenv("UBER_GENERATED_FROM"); s != "" {
		if v, err := strconv.Atoi(s); err == nil {
			from = v
		}
	}
	return from, generatedCount()
}

func generatedCount() int {
	n := 10
	if s := os.Getenv("UBER_GENERATED"); s != "" {
		if v, err := strconv.Atoi(s); err == nil {
			n = v
		}
	}
	return n
}

// TestGeneratedStream: on the fixed stream of generated programs, at
// k = −1 and the first 40 steps, uber:defer is exact at every control
// (lockstep). Inconclusive programs (a GSE group beyond the harness's
// bound, a concretization budget) are counted, not passed; at most a
// tenth may be.
func TestGeneratedStream(t *testing.T) {
	if testing.Short() {
		t.Skip("generated stream: about 1 min for the first 10 programs on a shared machine")
	}
	from, to := generatedRange()
	n := to - from
	solver := newSolver(t)
	inconclusive := 0
	// Generated programs can have GSE groups of thousands of states by
	// step 40; bounded as kiasan's stream is, they count as inconclusive.
	g, b := groupBound, budget
	groupBound, budget.Models = 500, 2000
	t.Cleanup(func() { groupBound, budget = g, b })
	for i, p := range gen.Programs(1, to, gen.NoData) {
		if i < from {
			continue
		}
		e := mustNew(t, "defer", -1, solver)
		_, err := lockstepCut(t, p, e, 40, true)
		if errors.Is(err, errInconclusive) {
			t.Logf("program %d: inconclusive", i)
			inconclusive++
			continue
		}
		if !assert.NoError(t, err, "program %d:\n%s", i, javalite.Print(p)) {
			return
		}
	}
	t.Logf("programs %d..%d: %d inconclusive", from, to, inconclusive)
	assert.LessOrEqual(t, inconclusive*10, n, "more than a tenth inconclusive")
}
