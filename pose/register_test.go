package pose

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/engine"
)

func TestRegistered(t *testing.T) {
	info, v, err := engine.Lookup("pose")
	require.NoError(t, err)
	require.Equal(t, Default, v)
	var names []string
	for _, x := range info.Variants() {
		names = append(names, x.Name)
	}
	require.Contains(t, names, "pose-published-merge")
	require.Contains(t, names, "jpose-eq")
	require.Contains(t, names, "mut-no-update")

	cfg := engine.Config{K: -1, Solver: newSolver(t)}
	for spec, want := range map[string]Variant{
		"pose":                               {},
		"pose:world-exact":                   {},
		"pose:pose-published-merge":          {PublishedMerge: true},
		"pose:jpose-eq+pose-published-merge": {PublishedMerge: true, JPoseEq: true},
		"pose:mut-no-update":                 {Mutation: Mutation{NoUpdate: true}},
	} {
		eut, err := engine.New(spec, cfg)
		require.NoError(t, err, spec)
		require.Equal(t, engine.OnePerControl, eut.Shape())
		require.Equal(t, want, eut.(*Engine).Variant(), spec)
	}
	_, err = engine.New("pose:no-such", cfg)
	require.Error(t, err)
}
