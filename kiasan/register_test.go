package kiasan

import (
	"testing"

	"github.com/lockstep-dev/lockstep/engine"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRegistered(t *testing.T) {
	for _, name := range []string{"lazier", "lazier#"} {
		info, variant, err := engine.Lookup(name)
		require.NoError(t, err)
		assert.Equal(t, "default", variant)
		var names []string
		for _, v := range info.Variants() {
			names = append(names, v.Name)
		}
		assert.Equal(t, []string{"default", "acmp-null-full", "eq-new-shortcut", "ifnull-syntactic", "alias-pending", "stamp-kbound"}, names)
	}
	u, err := engine.New("lazier#:stamp-kbound+eq-new-shortcut", engine.Config{K: 2, Machine: machine.Options{InvokeExtendsEnv: true}})
	require.NoError(t, err)
	assert.Equal(t, engine.Partition, u.Shape())
	assert.Equal(t, "lazier#:eq-new-shortcut+stamp-kbound", u.Name())
	e := u.(*Engine)
	assert.Equal(t, 2, e.K)
	assert.True(t, e.Opt.InvokeExtendsEnv)
	_, err = engine.New("lazier:nope", engine.Config{K: -1})
	assert.Error(t, err)
}
