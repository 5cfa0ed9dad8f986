package gse_test

import (
	"context"
	"fmt"
	"hash/maphash"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/lockstep-dev/lockstep/gen"
	"github.com/lockstep-dev/lockstep/gse"
	"github.com/lockstep-dev/lockstep/internal/testutil"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
)

// full prints everything of a state that the copy-free explorer changes in
// place or restores, not only what Dump shows (the reachable part): every
// slot of L, all of R and the location table, the counters and the step
// count, then Dump for the path condition and the control.
func full(s *machine.State) string {
	var b strings.Builder
	fmt.Fprintf(&b, "L[%d]", len(s.L))
	for i, g := range s.L {
		if g != nil {
			fmt.Fprintf(&b, " %d:%s", i-2, g)
		}
	}
	fmt.Fprintf(&b, "\nR %v\nLocs", s.R)
	for l, info := range s.Locs {
		fmt.Fprintf(&b, " l%d:%s/%v/%d/%s/%s", l, info.Class.Name, info.Input, info.Depth, machine.RefString(info.Identity), info.Exists)
	}
	fmt.Fprintf(&b, "\nnext %d %d %d steps %d\n", s.NextStack, s.NextInput, s.NextFresh, s.Steps)
	b.WriteString(s.Dump())
	return b.String()
}

// run is one exploration: its stats, the engine's initialization counts,
// and one line per path end (in visit order) with the kind, the value the
// exploration carried to it and the whole end state.
type run struct {
	err   string
	st    machine.Stats
	inits gse.InitStats
	ends  []string
}

var traceSeed = maphash.MakeSeed()

// trace is the carried value of both explorations: a hash of the path so
// far (successor index, rule and control of every state), so that the
// carried values are checked too.
func trace(parent uint64, i int, sc machine.Succ) uint64 {
	var h maphash.Hash
	h.SetSeed(traceSeed)
	fmt.Fprintf(&h, "%d|%d|%s|%s", parent, i, sc.Rule, sc.S.ControlKey())
	return h.Sum64()
}

func exploreBoth(t require.TestingT, p *javalite.Program, k, bound int, opt machine.Options) (ref, fast run) {
	visit := func(r *run) func(*machine.State, uint64, machine.EndKind) bool {
		return func(s *machine.State, h uint64, kind machine.EndKind) bool {
			r.ends = append(r.ends, fmt.Sprintf("%s %x\n%s", kind, h, full(s)))
			return true
		}
	}
	e := gse.New(k)
	e.Opt = opt
	var err error
	ref.st, err = machine.ExploreWith(context.Background(), machine.Initial(p), e, bound, 0, trace, visit(&ref))
	if err != nil {
		ref.err = err.Error()
	}
	ref.inits = *e.Stats

	e = gse.New(k)
	e.Opt = opt
	var kept []*machine.State
	fv := visit(&fast)
	fast.st, err = gse.ExploreWith(context.Background(), machine.Initial(p), e, bound, 0, trace,
		func(s *machine.State, h uint64, kind machine.EndKind) bool {
			kept = append(kept, s.CloneDeep())
			return fv(s, h, kind)
		})
	if err != nil {
		fast.err = err.Error()
	}
	fast.inits = *e.Stats
	// The deep copies outlive the arena's resets.
	for i, s := range kept {
		_, state, _ := strings.Cut(fast.ends[i], "\n")
		require.Equal(t, state, full(s), "end %d kept by CloneDeep", i)
	}
	return ref, fast
}

// requireSame asserts that the copy-free explorer found what
// machine.Explore found: the same stats (paths, the value/error/cut/stuck
// split, states, steps, rule counts), the same initialization counts and
// the same end states in the same order; or the same error (a mutant of
// the common rules can make a step fail) after the same ends.
func requireSame(t require.TestingT, name string, ref, fast run) {
	require.Equal(t, ref.err, fast.err, "%s: error", name)
	require.Equal(t, ref.ends, fast.ends, "%s: ends", name)
	if ref.err != "" {
		return
	}
	require.True(t, ref.st.Complete, name)
	require.Equal(t, ref.st.Complete, fast.st.Complete, name)
	require.Equal(t, ref.st.Paths, fast.st.Paths, "%s: paths", name)
	require.Equal(t, ref.st.Ends, fast.st.Ends, "%s: value/error/cut/stuck", name)
	require.Equal(t, ref.st.States, fast.st.States, "%s: states", name)
	require.Equal(t, ref.st.Steps, fast.st.Steps, "%s: steps", name)
	require.Equal(t, ref.st.Rules, fast.st.Rules, "%s: rules", name)
	require.Equal(t, ref.inits, fast.inits, "%s: initializations", name)
}

var semantics = []string{machine.SemJava, machine.SemPaper, "paper-scope", "paper-call"}

// TestExploreSameOnGenerated: on the generated stream, under every
// common-rule semantics, with and without a step bound that cuts, and at
// several k, the copy-free explorer and machine.Explore agree on every
// count and on every end state.
func TestExploreSameOnGenerated(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := gen.Program().Draw(t, "program")
		k := rapid.IntRange(0, 3).Draw(t, "k")
		bound := rapid.SampledFrom([]int{-1, 150, 40, 12}).Draw(t, "bound")
		opt, err := machine.ParseSemantics(rapid.SampledFrom(semantics).Draw(t, "semantics"))
		require.NoError(t, err)
		if bound < 0 && k == 3 {
			bound = 400 // generated programs end by themselves; a bound keeps k = 3 small
		}
		ref, fast := exploreBoth(t, p, k, bound, opt)
		requireSame(t, fmt.Sprintf("k=%d bound=%d", k, bound), ref, fast)
	})
}

// TestExploreSameOnPrograms: the same on every program of
// testdata/programs and testdata/semantics and the five-call LinkedList at
// k = 0..2, under Java and paper semantics, and
// under the mutants of the reference side (which both explorers must apply
// alike).
func TestExploreSameOnPrograms(t *testing.T) {
	var files []string
	for _, dir := range []string{"../testdata/programs", "../testdata/semantics"} {
		fs, err := filepath.Glob(filepath.Join(dir, "*.jl"))
		require.NoError(t, err)
		files = append(files, fs...)
	}
	require.NotEmpty(t, files)
	mutants := []machine.Mutation{{}, {InvokePushesCalleeEnv: true}, {BeginFirstTwice: true}, {GSEEqualsNotRecordsEq: true}}
	for _, file := range files {
		src, err := os.ReadFile(file)
		require.NoError(t, err)
		p, err := javalite.ParseAndCheck(file, src)
		if err != nil {
			continue // a program the checker rejects on purpose
		}
		for _, sem := range semantics[:2] {
			for k := 0; k <= 2; k++ {
				for mi, m := range mutants {
					if mi > 0 && (k != 1 || sem != machine.SemJava) {
						continue // the mutants once each
					}
					opt, err := machine.ParseSemantics(sem)
					require.NoError(t, err)
					opt.Mutation = m
					name := fmt.Sprintf("%s %s k=%d mutant %d", filepath.Base(file), sem, k, mi)
					ref, fast := exploreBoth(t, p, k, 120, opt)
					requireSame(t, name, ref, fast)
				}
			}
		}
	}
	p := testutil.Program(t, "../testdata/bench/linkedlist_calls5.jl")
	ref, fast := exploreBoth(t, p, 2, 26*5*3+10, machine.Options{})
	requireSame(t, "linkedlist_calls5 k=2", ref, fast)
}

// TestExploreStops: a visitor that returns false and a cancelled context
// stop the copy-free explorer with Complete false, as they stop
// machine.Explore.
func TestExploreStops(t *testing.T) {
	p := load(t, "linkedlist.jl")
	n := 0
	st, err := gse.Explore(context.Background(), machine.Initial(p), gse.New(3), 200, func(*machine.State, machine.EndKind) bool {
		n++
		return n < 5
	})
	require.NoError(t, err)
	require.False(t, st.Complete)
	require.EqualValues(t, 5, st.Paths)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	st, err = gse.Explore(ctx, machine.Initial(p), gse.New(8), 1000, nil)
	require.NoError(t, err)
	require.False(t, st.Complete)
}
