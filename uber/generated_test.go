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

// generatedCount is how many programs of gen.Programs(1, …) are checked:
// $UBER_GENERATED, by default 15 (5 with -short). The first 40 were
// checked (docs/UBER.md); they take about 2 s each on a shared machine.
func generatedCount() int {
	n := 15
	if testing.Short() {
		n = 5
	}
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
	n := generatedCount()
	solver := newSolver(t)
	inconclusive := 0
	for i, p := range gen.Programs(1, n, gen.Default) {
		e := mustNew(t, "defer", -1, solver)
		_, err := lockstepCut(t, p, e, 40, true)
		if errors.Is(err, errInconclusive) {
			inconclusive++
			continue
		}
		if !assert.NoError(t, err, "program %d:\n%s", i, javalite.Print(p)) {
			return
		}
	}
	t.Logf("%d programs: %d inconclusive", n, inconclusive)
	assert.LessOrEqual(t, inconclusive*10, n, "more than a tenth inconclusive")
}
