package pose

import (
	"os"
	"testing"

	"github.com/lockstep-dev/lockstep/gen"
	"github.com/lockstep-dev/lockstep/javalite"
)

// genHunt makes TestGenerated -v a longer hunt (a one-off, not the suite).
var genHunt = os.Getenv("POSE_HUNT") != ""

// Generated programs (gen.NoData, the reference-only stream: POSE-J has no
// data rules yet; a fixed seed): POSE-J holds the lockstep
// comparison with GSE (exactness, INV-P, one successor per control) up to a
// step bound; programs whose GSE groups grow too large are skipped (counted
// as undecided, never as held).
func TestGenerated(t *testing.T) {
	n, seed, steps := 6, int64(1), 40
	if testing.Short() {
		n = 3
	}
	if testing.Verbose() && genHunt {
		n, seed, steps = 40, 2, 60
	}
	held, undecided := 0, 0
	for i, p := range gen.Programs(seed, n, gen.NoData) {
		f, _ := lockstepBounded(t, p, Variant{}, steps, true, 200)
		switch {
		case f == nil:
			held++
		case f.Inconclusive:
			undecided++
		default:
			t.Fatalf("program %d:\n%s\n%v", i, javalite.Print(p), f)
		}
	}
	t.Logf("%d held, %d undecided (group bound)", held, undecided)
	if held < n/2 {
		t.Fatalf("only %d of %d programs decided", held, n)
	}
}

// Generated programs with data (gen.Default.WithData(gen.DataMixed), a
// fixed seed): POSE-J holds with the data half of exactness and INV-P on
// primitive fields, as TestGenerated does for the reference-only stream.
func TestGeneratedData(t *testing.T) {
	n, seed, steps := 6, int64(1), 40
	if testing.Short() {
		n = 3
	}
	if testing.Verbose() && genHunt {
		n, seed, steps = 40, 2, 60
	}
	held, undecided := 0, 0
	for i, p := range gen.Programs(seed, n, gen.Default.WithData(gen.DataMixed)) {
		f, _ := lockstepBounded(t, p, Variant{}, steps, true, 200)
		switch {
		case f == nil:
			held++
		case f.Inconclusive:
			undecided++
		default:
			t.Fatalf("program %d:\n%s\n%v", i, javalite.Print(p), f)
		}
	}
	t.Logf("%d held, %d undecided (group bound)", held, undecided)
	if held < n/2 {
		t.Fatalf("only %d of %d programs decided", held, n)
	}
}
