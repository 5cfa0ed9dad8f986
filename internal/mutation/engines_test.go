package mutation

import (
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/engine"
	"github.com/lockstep-dev/lockstep/internal/testutil"
)

// TestEngineCatalogs: every engine of the mutation catalog has mutants;
// each mutant's name is an engine spec "NAME:BASE+MUTATION" that
// engine.New builds, and the engine it builds differs from the base's
// (the mutation was applied, not silently dropped) while two builds of
// the base are alike. Lookup finds each by its three names.
func TestEngineCatalogs(t *testing.T) {
	require.Equal(t, []string{"lazier", "lazier#", "pose", "summary", "uber"}, Engines())
	solver := testutil.Solver(t)
	for _, name := range Engines() {
		ms, err := Of(name)
		require.NoError(t, err)
		require.NotEmpty(t, ms, name)
		info, _, err := engine.Lookup(name)
		require.NoError(t, err)
		for _, k := range []int{-1, 2} {
			cfg := engine.Config{K: k, Solver: solver}
			b1, err := engine.New(ms[0].Base, cfg)
			require.NoError(t, err)
			b2, err := engine.New(ms[0].Base, cfg)
			require.NoError(t, err)
			require.True(t, reflect.DeepEqual(b1, b2), "%s: two builds of the base differ", name)
			seen := map[string]bool{}
			for _, m := range ms {
				require.False(t, seen[m.Name], "duplicate %s", m.Name)
				seen[m.Name] = true
				require.Equal(t, name+":"+info.Mutants.Base+"+"+m.Mutation, m.Name)
				require.NotEmpty(t, m.Doc, m.Name)
				require.False(t, strings.Contains(m.Mutation, "+"), "%s is not one mutation", m.Name)
				e, err := engine.New(m.Name, cfg)
				require.NoError(t, err, m.Name)
				require.False(t, reflect.DeepEqual(b1, e), "%s builds the base engine", m.Name)
				if m.Equivalent != "" {
					require.Greater(t, len(m.Equivalent), 100, "%s: the equivalence argument is too short", m.Name)
				}
				_, variant := engine.Split(m.Name)
				for _, alias := range []string{m.Name, variant, m.Mutation} {
					got, err := LookupIn(name, alias)
					require.NoError(t, err)
					require.Equal(t, m.Name, got.Name)
				}
				if m.Engine != "summary" {
					got, err := Lookup(m.Name)
					require.NoError(t, err)
					require.Equal(t, m, got)
				}
			}
		}
	}
	_, err := Of("gse")
	require.ErrorContains(t, err, "no mutants")
	_, err = LookupIn("lazier", "no-such")
	require.ErrorContains(t, err, "resolve-no-alias")
}
