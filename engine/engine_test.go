package engine_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/engine"
	_ "github.com/lockstep-dev/lockstep/engine/builtin"
	"github.com/lockstep-dev/lockstep/machine"
)

// TestRegistry: specs split, default variants fill in, unknown names and
// bad registrations are refused.
func TestRegistry(t *testing.T) {
	name, v := engine.Split("summary:fixed+idle-null")
	require.Equal(t, "summary", name)
	require.Equal(t, "fixed+idle-null", v)

	c, err := engine.Canonical("summary")
	require.NoError(t, err)
	require.Equal(t, "summary:published", c)
	c, err = engine.Canonical("gse")
	require.NoError(t, err)
	require.Equal(t, "gse", c)

	_, _, err = engine.Lookup("nosuch")
	require.ErrorContains(t, err, "unknown engine")
	require.ErrorContains(t, err, "summary")

	e, err := engine.New("summary:fixed", engine.Config{K: 2})
	require.NoError(t, err)
	require.Equal(t, engine.OnePerControl, e.Shape())
	_, isInit := e.(engine.Initializer)
	require.True(t, isInit)
	_, err = engine.New("summary:nosuch", engine.Config{K: 2})
	require.Error(t, err)
	// A summary variant carries its own common-rule options.
	_, err = engine.New("summary:published", engine.Config{K: 2, Machine: machine.Options{InvokeExtendsEnv: true}})
	require.Error(t, err)
	_, err = engine.New("summary:v9-extend-env", engine.Config{K: 2, Machine: machine.Options{InvokeExtendsEnv: true}})
	require.NoError(t, err)

	g, err := engine.New("gse", engine.Config{K: 1, Machine: machine.Options{InvokeExtendsEnv: true}})
	require.NoError(t, err)
	require.True(t, g.Options().InvokeExtendsEnv)
	_, err = engine.New("gse:x", engine.Config{})
	require.Error(t, err)

	var names []string
	for _, i := range engine.Engines() {
		names = append(names, i.Name)
	}
	require.Subset(t, names, []string{"gse", "summary"})

	require.Panics(t, func() { engine.Register(engine.Info{Name: "summary", New: engine.Engines()[0].New}) })
	require.Panics(t, func() { engine.Register(engine.Info{Name: "a:b", New: engine.Engines()[0].New}) })
	require.Panics(t, func() { engine.Register(engine.Info{Name: "nonew"}) })
}

// TestBounds: every engine declares its k-bound and a default k from it;
// AtK keeps an engine with GSE's bound, or with its own, and refuses a
// finite k to one with none.
func TestBounds(t *testing.T) {
	for name, want := range map[string]engine.Bound{
		"summary": engine.BoundGSE, "gse": engine.BoundGSE,
		"lazier": engine.BoundOwn, "lazier#": engine.BoundOwn, "uber": engine.BoundOwn,
		"pose": engine.BoundNone,
	} {
		info, v, err := engine.Lookup(name)
		require.NoError(t, err)
		require.Equal(t, want, info.BoundOf(v), name)
		if want == engine.BoundGSE {
			require.Equal(t, engine.PapersK, info.DefaultK(v), name)
		} else {
			require.Equal(t, -1, info.DefaultK(v), name)
		}
		// At k = −1 every engine is itself.
		c, err := engine.AtK(name, -1)
		require.NoError(t, err)
		want, _ := engine.Canonical(name)
		require.Equal(t, want, c)
	}
	c, err := engine.AtK("summary:fixed", 2)
	require.NoError(t, err)
	require.Equal(t, "summary:fixed", c)
	c, err = engine.AtK("lazier:stamp-kbound", 1)
	require.NoError(t, err)
	require.Equal(t, "lazier:stamp-kbound", c)
	// Named without a variant, an engine is served at a finite k by its
	// variant with GSE's bound.
	c, err = engine.AtK("pose", 2)
	require.NoError(t, err)
	require.Equal(t, "pose:world-exact+kbound", c)
	c, err = engine.AtK("uber", 1)
	require.NoError(t, err)
	require.Equal(t, "uber:defer+kbound", c)
	info, _, _ := engine.Lookup("pose")
	require.Equal(t, engine.BoundGSE, info.BoundOf("jpose-eq+kbound"))
	require.Equal(t, engine.PapersK, info.DefaultK("world-exact+kbound"))
	_, err = engine.AtK("pose:jpose-eq", 2)
	require.ErrorContains(t, err, "pose:jpose-eq has no k-bound")
	require.ErrorContains(t, err, "-k -1")
}
