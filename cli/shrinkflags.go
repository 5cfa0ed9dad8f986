package cli

import (
	"flag"
	"time"

	"github.com/lockstep-dev/lockstep/checker"
)

// shrinkFlags are -shrink-steps and -shrink-time, the bound of shrinking a
// counterexample (checker.ShrinkBound) in check -gen, lemmas, order -gen
// and mutants. Steps, not a clock, bound it by default, so the same seed,
// flags and shard give the same shrunk program on every machine.
type shrinkFlags struct {
	steps int
	time  time.Duration
}

func (s *shrinkFlags) register(fs *flag.FlagSet, prefix string, timeDefault time.Duration) {
	fs.IntVar(&s.steps, "shrink-steps", checker.DefaultShrinkSteps, prefix+"candidate programs checked while shrinking each counterexample, the same on every machine (0: keep it as found)")
	fs.DurationVar(&s.time, "shrink-time", timeDefault, prefix+"also stop shrinking each counterexample after this long (0: no time limit; with one, the shrunk program can depend on the machine's speed)")
}

// validate refuses a negative bound (exit 2).
func (s shrinkFlags) validate() error {
	if s.steps < 0 {
		return usageError("-shrink-steps must be 0 (no shrinking) or more, not %d", s.steps)
	}
	if s.time < 0 {
		return usageError("-shrink-time must be 0 (no time limit) or a positive duration (as 20s), not %s", s.time)
	}
	return nil
}

// bound is the library's form: -shrink-steps 0 is no shrinking (negative
// Steps), the library's 0 being the default.
func (s shrinkFlags) bound() checker.ShrinkBound {
	b := checker.ShrinkBound{Steps: s.steps, Time: s.time}
	if s.steps == 0 {
		b.Steps = -1
	}
	return b
}
