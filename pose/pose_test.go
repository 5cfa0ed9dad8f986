package pose

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// The paper programs and lockstep's small aliasing programs: POSE-J's View
// is exact for GSE's group at every step, well formed, and INV-P holds.
func TestLockstepExact(t *testing.T) {
	for _, tc := range []struct {
		file  string
		steps int
	}{
		{"testdata/programs/swap.jl", 100},
		{"testdata/programs/alias_write_read.jl", 100},
		{"testdata/programs/alias_two_fields.jl", 100},
		{"testdata/programs/selfref.jl", 100},
		{"testdata/programs/newobj.jl", 100},
		{"testdata/programs/nullderef.jl", 100},
		{"testdata/programs/hasnull.jl", 200},
		{"testdata/programs/sum.jl", 200},
		{"testdata/programs/linkedlist.jl", 60},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			p := load(t, tc.file)
			f, n := lockstep(t, p, Variant{}, tc.steps)
			require.Nil(t, f, "%v", f)
			require.Greater(t, n, 0)
		})
	}
}

func TestMutantsFail(t *testing.T) {
	for _, m := range Mutations {
		t.Run(m.Name, func(t *testing.T) {
			var v Variant
			m.Set(&v.Mutation)
			killed := ""
			for _, file := range []string{"testdata/programs/swap.jl", "testdata/programs/alias_write_read.jl", "testdata/programs/alias_two_fields.jl", "testdata/programs/selfref.jl", "testdata/programs/nullderef.jl", "testdata/programs/linkedlist.jl"} {
				f, _ := lockstep(t, load(t, file), v, 60)
				if f != nil {
					killed = file + ": " + f.String()
					break
				}
			}
			t.Logf("%s: %s", m.Name, killed)
		})
	}
}
