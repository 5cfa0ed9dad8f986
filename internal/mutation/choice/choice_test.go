package choice

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type inner struct{ Drop, Twist bool }

type variant struct {
	Name, Doc string
	Mode      int
	Keep      bool
	M         inner
}

func table() *Table[variant] {
	return &Table[variant]{
		Engine: "toy",
		Base:   "good",
		Label:  func(v *variant, name, doc string) { v.Name, v.Doc = name, doc },
		Rows: []Row[variant]{
			{Name: "default", Kind: Reading, Doc: "as written"},
			{Name: "mode1", Kind: Reading, Doc: "mode one", Change: func(v *variant) { v.Mode = 1 }},
			{Name: "mode2", Kind: Reading, Doc: "mode two", Change: func(v *variant) { v.Mode = 2 }, Mutant: true},
			{Name: "keep", Kind: Fix, Doc: "keep it", Change: func(v *variant) { v.Keep = true }},
			{Name: "good", Kind: Combination, Of: "mode1+keep", Doc: "the fixed one"},
			{Name: "m-drop", Kind: Mutation, Doc: "drops", Change: func(v *variant) { v.M.Drop = true }, Mutant: true},
			{Name: "m-twist", Kind: Mutation, Doc: "twists", Change: func(v *variant) { v.M.Twist = true }},
		},
	}
}

func TestLookupComposesAndLabels(t *testing.T) {
	tb := table()
	v, err := tb.Lookup("good+m-drop")
	require.NoError(t, err)
	assert.Equal(t, variant{Name: "good+m-drop", Doc: "composition of good, m-drop", Mode: 1, Keep: true, M: inner{Drop: true}}, v)

	q, err := tb.Lookup("toy:good+m-drop")
	require.NoError(t, err)
	assert.Equal(t, v, q, "the engine qualifier is accepted")

	d, err := tb.Lookup("default")
	require.NoError(t, err)
	assert.Equal(t, variant{Name: "default", Doc: "as written"}, d)

	m, err := tb.Lookup("m-twist")
	require.NoError(t, err)
	assert.Equal(t, "MUTANT (deliberately wrong): twists", m.Doc)

	_, err = tb.Lookup("mode1+mode2")
	require.ErrorContains(t, err, "disagree on Mode")
	_, err = tb.Lookup("good+mode2")
	require.ErrorContains(t, err, "disagree on Mode")
	_, err = tb.Lookup("mode1+nope")
	require.ErrorContains(t, err, "unknown variant \"nope\"")
	require.ErrorContains(t, err, "m-drop")
}

func TestDifferencesAreDerived(t *testing.T) {
	tb := table()
	for name, want := range map[string][]string{
		"default":      nil,
		"mode2":        {"mode2"},
		"good":         {"mode1", "keep"},
		"good+m-drop":  {"mode1", "keep", "m-drop"},
		"m-drop+mode2": {"mode2", "m-drop"},
	} {
		v, err := tb.Lookup(name)
		require.NoError(t, err)
		assert.Equal(t, want, tb.Differences(v), name)
	}
}

func TestMutantsAndQualify(t *testing.T) {
	tb := table()
	var names []string
	for _, r := range tb.Mutants() {
		names = append(names, r.Name)
	}
	assert.Equal(t, []string{"mode2", "m-drop"}, names)
	assert.Equal(t, "toy:good+m-drop", tb.Qualify("good+m-drop"))
	assert.Equal(t, "good", tb.Unqualify("toy:good"))
	assert.Equal(t, "other:good", tb.Unqualify("other:good"))
}

func TestCombinationCycle(t *testing.T) {
	tb := table()
	tb.Rows = append(tb.Rows, Row[variant]{Name: "loop", Kind: Combination, Of: "keep+loop"})
	_, err := tb.Lookup("loop")
	require.ErrorContains(t, err, "refers to itself")
}
