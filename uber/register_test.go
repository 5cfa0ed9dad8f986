package uber

import (
	"testing"

	"github.com/lockstep-dev/lockstep/engine"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRegistration(t *testing.T) {
	solver := newSolver(t)
	info, variant, err := engine.Lookup("uber")
	require.NoError(t, err)
	assert.Equal(t, "defer", variant)
	assert.Len(t, info.Variants(), 4)
	for spec, want := range map[string]string{
		"uber":                          "uber:defer",
		"uber:defer":                    "uber:defer",
		"uber:defer+u-noalias":          "uber:defer+u-noalias",
		"uber:defer+u-newsym":           "uber:defer+u-newsym",
		"uber:defer+u-newsym+u-noalias": "uber:defer+u-noalias+u-newsym",
	} {
		e, err := engine.New(spec, engine.Config{K: -1, Solver: solver, Machine: machine.Options{VarRestoresEnv: true}})
		require.NoError(t, err, spec)
		assert.Equal(t, want, e.Name(), spec)
		assert.Equal(t, engine.OnePerControl, e.Shape())
		assert.Equal(t, machine.Options{VarRestoresEnv: true}, e.Options())
	}
	_, err = engine.New("uber:noalias", engine.Config{K: -1, Solver: solver})
	assert.Error(t, err)
	_, err = engine.New("uber", engine.Config{K: -1})
	assert.Error(t, err, "no solver")
}
