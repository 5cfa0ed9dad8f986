package checker

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/engine"
	"github.com/lockstep-dev/lockstep/internal/testutil"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// poseOptions are the options of the P-MERGE regression case: POSE-J has
// no k-bound and is checked at k = −1 (ENGINES.md §8.4).
func poseOptions(spec string) Options {
	opt := DefaultOptions()
	opt.Engine, opt.K, opt.Steps = spec, -1, 150
	return opt
}

// P-MERGE (docs/FINDINGS.md): the published merge loses a write through an
// alias. The checker reports POSE-J's invariant INV-P at the write, the
// cause; with the invariant skipped, the same step breaks L3, its effect
// (a GSE state not represented). The world-exact engine holds, with INV-P
// checked at every step.
func TestInvariantPinpointsPMerge(t *testing.T) {
	p := testutil.Program(t, "../testdata/programs/pose_merge.jl")
	sol := testutil.Solver(t)
	ctx := context.Background()

	rep, err := Run(ctx, p, poseOptions("pose:pose-published-merge"), sol)
	require.NoError(t, err)
	v := rep.Verdict
	require.Equal(t, Violated, v.Status, rep.Text(false))
	assert.Equal(t, INVP, v.Lemma)
	assert.Equal(t, machine.RuleWriteW, v.Rule)
	assert.Contains(t, v.Reason, "are one field where")
	require.NotNil(t, v.Summary)
	assert.Contains(t, rep.Lemmas, INVP)

	opt := poseOptions("pose:pose-published-merge")
	opt.NoInvariant = true
	beneath, err := Run(ctx, p, opt, sol)
	require.NoError(t, err)
	require.Equal(t, Violated, beneath.Verdict.Status, beneath.Text(false))
	assert.Equal(t, L3, beneath.Verdict.Lemma)
	assert.Equal(t, v.Rule, beneath.Verdict.Rule)
	assert.Equal(t, v.Step, beneath.Verdict.Step, "the invariant and exactness break at the same write")

	held, err := Run(ctx, p, poseOptions("pose"), sol)
	require.NoError(t, err)
	require.Equal(t, Holds, held.Verdict.Status, held.Text(false))
	assert.Positive(t, held.Checked[INVP])
}

// INV-P applies to POSE-J (every variant) and to no other engine.
func TestApplicableInvariant(t *testing.T) {
	sol := testutil.Solver(t)
	for spec, want := range map[string]bool{
		"pose": true, "pose:jpose-eq": true, "pose:mut-no-update": true,
		"summary": false, "summary:fixed": false, "lazier": false, "lazier#": false, "uber": false,
	} {
		eut, err := engine.New(spec, engine.Config{K: -1, Solver: sol})
		require.NoError(t, err, spec)
		assert.Equal(t, want, slices.Contains(Applicable(eut), INVP), spec)
	}
	_, known := Claim[INVP]
	assert.True(t, known)
	assert.Contains(t, Lemmas, INVP)
}

// withInvariant is an engine under test with an invariant of the test's
// choosing, around a real engine.
type withInvariant struct {
	engine.UnderTest
	name  string
	check func(*machine.State) (string, error)
}

func (w withInvariant) InvariantName() string                           { return w.name }
func (w withInvariant) CheckInvariant(s *machine.State) (string, error) { return w.check(s) }

// The checker reports whatever the invariant says, under the invariant's
// name; an undecided answer is inconclusive, never a verdict; a name
// outside the catalog is refused before the first step.
func TestInvariantOutcomes(t *testing.T) {
	p := testutil.Program(t, "../testdata/programs/pose_merge.jl")
	sol := testutil.Solver(t)
	wrap := func(name string, check func(*machine.State) (string, error)) Options {
		opt := poseOptions("pose")
		opt.Build = func(cfg engine.Config) (engine.UnderTest, error) {
			eut, err := engine.New("pose", cfg)
			return withInvariant{UnderTest: eut, name: name, check: check}, err
		}
		return opt
	}
	rep, err := Run(context.Background(), p, wrap(string(INVP), func(s *machine.State) (string, error) {
		if s.Steps >= 3 {
			return "broken at step 3", nil
		}
		return "", nil
	}), sol)
	require.NoError(t, err)
	require.Equal(t, Violated, rep.Verdict.Status, rep.Text(false))
	assert.Equal(t, INVP, rep.Verdict.Lemma)
	assert.Equal(t, 3, rep.Verdict.Step)
	assert.Equal(t, "broken at step 3", rep.Verdict.Reason)
	assert.Positive(t, rep.Checked[INVP])

	rep, err = Run(context.Background(), p, wrap(string(INVP), func(*machine.State) (string, error) {
		return "", fmt.Errorf("INV-P: %w", smt.ErrUnknown)
	}), sol)
	require.NoError(t, err)
	assert.Equal(t, Inconclusive, rep.Verdict.Status)
	assert.Equal(t, INVP, rep.Verdict.Lemma)

	_, err = Run(context.Background(), p, wrap("INV-X", func(*machine.State) (string, error) { return "", nil }), sol)
	require.ErrorContains(t, err, "not a lemma of the catalog")
}
