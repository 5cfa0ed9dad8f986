package javalite

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/lockstep-dev/lockstep/internal/testutil/chunked"
)

// TestErrorFiles runs every chunk of testdata/errors/*.jl through
// ParseAndCheck. Every expected error must be reported on its line, and
// every reported error must be expected: this pins both the messages and the
// absence of cascades.
func TestErrorFiles(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(errorsDir, "*.jl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no error files in %s (err %v)", errorsDir, err)
	}
	total := 0
	for _, path := range files {
		base := filepath.Base(path)
		for _, c := range chunked.Read(t, path) {
			total++
			t.Run(fmt.Sprintf("%s:%d", base, c.Line), func(t *testing.T) {
				_, err := ParseAndCheck(base, c.Src)
				errs := errorList(t, err)
				// Pair each reported error with one unused expectation on
				// its line.
				used := map[int][]bool{}
				for l, res := range c.Want {
					used[l] = make([]bool, len(res))
				}
				for _, e := range errs {
					if e.Pos.File != base {
						t.Errorf("error has file %q: %v", e.Pos.File, e)
					}
					ok := false
					for i, re := range c.Want[e.Pos.Line] {
						if !used[e.Pos.Line][i] && re.MatchString(e.Msg) {
							used[e.Pos.Line][i], ok = true, true
							break
						}
					}
					if !ok {
						t.Errorf("unexpected error: %v", e)
					}
				}
				for l, res := range c.Want {
					for i, re := range res {
						if !used[l][i] {
							t.Errorf("%s:%d: expected error matching %q, not reported", base, l, re)
						}
					}
				}
			})
		}
	}
	if total < 25 {
		t.Errorf("only %d error chunks; the suite promises at least 25", total)
	}
}
