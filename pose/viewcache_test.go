package pose

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/engine/view"
	"github.com/lockstep-dev/lockstep/machine"
)

// TestViewCacheSameViews steps POSE-J through programs of testdata and
// requires, at every state, the engine's View (the cached one, asked twice,
// so that the second comes from the cache) to be view.Symbolic's: the
// same value sets, guards (pointers), locations, fields and control.
func TestViewCacheSameViews(t *testing.T) {
	hits := 0
	for _, path := range []string{
		"testdata/programs/pose_merge.jl",
		"testdata/programs/linkedlist.jl",
		"testdata/programs/alias_two_fields.jl",
		"testdata/data/pose_prim_merge.jl",
	} {
		p := load(t, path)
		e := New(variant(t, Default), newSolver(t), machine.Options{})
		front := []*machine.State{machine.Initial(p)}
		for steps := 0; steps < 60 && len(front) > 0; steps++ {
			var next []*machine.State
			for _, s := range front {
				for range 2 {
					got, err := e.View(s)
					require.NoError(t, err)
					want, err := view.Symbolic(s)
					require.NoError(t, err)
					require.Equal(t, want.NextFresh, got.NextFresh, path)
					require.Equal(t, want.R, got.R, path)
					require.Equal(t, want.Prim, got.Prim, path)
					require.Equal(t, want.Locs, got.Locs, path)
					require.Equal(t, len(want.L), len(got.L), path)
					for i := range want.L {
						require.Equal(t, len(want.L[i]), len(got.L[i]), path)
						for j, x := range want.L[i] {
							require.Same(t, x.Guard, got.L[i][j].Guard, path)
							require.Equal(t, x.Loc, got.L[i][j].Loc, path)
						}
					}
					require.Equal(t, s.ControlKey(), got.ControlKey(), path)
					require.Equal(t, s.Steps, got.Steps, path)
				}
				if s.Terminal() {
					continue
				}
				succ, err := machine.Step(s.Clone(), e, e.Options())
				require.NoError(t, err)
				for _, x := range succ {
					next = append(next, x.S)
				}
			}
			front = next
		}
		hits += e.views.Hits()
	}
	require.Positive(t, hits, "the cache answered no View")
}
