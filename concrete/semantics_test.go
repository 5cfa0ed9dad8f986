package concrete_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/lockstep-dev/lockstep/concrete"
	"github.com/lockstep-dev/lockstep/gse"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
)

func semanticsPrograms(t *testing.T) map[string]*javalite.Program {
	t.Helper()
	files, err := filepath.Glob("../testdata/semantics/*.jl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no programs in testdata/semantics: %v", err)
	}
	out := map[string]*javalite.Program{}
	for _, f := range files {
		p, err := javalite.LoadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = p
	}
	return out
}

func semantics(t *testing.T, name string) machine.Options {
	t.Helper()
	opt, err := machine.ParseSemantics(name)
	if err != nil {
		t.Fatal(err)
	}
	return opt
}

// TestSemanticsRunByHand pins concrete runs of testdata/semantics under
// both semantics (RULES.md §3, V10/V11), by hand, on both interpreters.
// Heaps: o0 is the Main receiver; "f=null" and "f=o0" give this.f.
func TestSemanticsRunByHand(t *testing.T) {
	progs := semanticsPrograms(t)
	heap := func(p *javalite.Program, fields ...int) *concrete.Heap {
		return &concrete.Heap{Objects: []concrete.Object{{Class: p.Entry.Owner, Fields: fields}}}
	}
	type want struct{ java, paper string }
	for _, c := range []struct {
		file   string
		fields []int
		want   want
	}{
		// this.f null: Java throws at the call (Invoke′); paper: id(true).
		{"null_call.jl", []int{concrete.Null}, want{"error", "true"}},
		{"null_call.jl", []int{0}, want{"true", "true"}},
		// f = o0 (y aliases this): o0.g := null, then the call on o0.g.
		{"null_call_alias.jl", []int{0, 0}, want{"error", "true"}},
		// f = null: the write y.g is W′ in both.
		{"null_call_alias.jl", []int{concrete.Null, 0}, want{"error", "error"}},
		// f = null: Java throws inside the block; paper: r restored, false.
		{"null_call_in_var.jl", []int{concrete.Null}, want{"error", "false"}},
		// f = o0: Java keeps r := true; paper restores r = false.
		{"null_call_in_var.jl", []int{0}, want{"true", "false"}},
		// f = null: the second link is A′ in both.
		{"null_call_chain.jl", []int{concrete.Null}, want{"error", "error"}},
		{"null_call_chain.jl", []int{0}, want{"true", "true"}},
		{"var_assign.jl", nil, want{"false", "true"}},
		{"var_shadow.jl", nil, want{"true", "false"}},
		{"var_nested_assign.jl", nil, want{"false", "true"}},
		// r := this.f kept under Java: (r = this) is (null = o0), false.
		{"var_assign_ref.jl", []int{concrete.Null}, want{"false", "true"}},
		{"var_assign_ref.jl", []int{0}, want{"true", "true"}},
	} {
		p := progs[c.file]
		h := heap(p, c.fields...)
		for sem, w := range map[string]string{machine.SemJava: c.want.java, machine.SemPaper: c.want.paper} {
			opt := semantics(t, sem)
			for which, run := range map[string]func() (concrete.Result, error){
				"Run":       func() (concrete.Result, error) { return concrete.RunWith(p, h, -1, 500, false, opt) },
				"Interpret": func() (concrete.Result, error) { return concrete.InterpretWith(p, h, 500, opt) },
			} {
				r, err := run()
				if err != nil {
					t.Fatal(err)
				}
				got := r.Kind.String()
				if r.Kind == machine.EndValue {
					got = r.Value.String()
				}
				if got != w {
					t.Errorf("%s %s on %s (%s): got %s, want %s", c.file, which, h, sem, got, w)
				}
			}
		}
	}
}

// TestSemanticsInterpretMatchesRun: the plain interpreter and the machine
// agree rule by rule under every semantics, on testdata/semantics and on
// generated programs (which exercise calls on null and assignments to
// enclosing variables; gen.TestSemanticsRates).
func TestSemanticsInterpretMatchesRun(t *testing.T) {
	progs := semanticsPrograms(t)
	for i := uint64(0); i < 40; i++ {
		progs[fmt.Sprintf("gen-%d", i)] = mustParse(t, fmt.Sprintf("gen-%d", i), genProgram(i))
	}
	for _, sem := range machine.SemanticsNames() {
		opt := semantics(t, sem)
		for name, p := range progs {
			n := 0
			concrete.Heaps(p, 3, 2, func(h *concrete.Heap) bool {
				n++
				a, err := concrete.RunWith(p, h, -1, 300, true, opt)
				if err != nil {
					t.Fatalf("%s %s: Run on %s: %v", sem, name, h, err)
				}
				b, err := concrete.InterpretWith(p, h, 300, opt)
				if err != nil {
					t.Fatalf("%s %s: Interpret on %s: %v", sem, name, h, err)
				}
				if a.Kind != b.Kind || a.Value != b.Value || a.Steps != b.Steps || !slices.Equal(a.Rules, b.Rules) {
					t.Fatalf("%s %s on %s: machine %s %s after %d steps, plain %s %s after %d steps",
						sem, name, h, a.Kind, a.Value, a.Steps, b.Kind, b.Value, b.Steps)
				}
				return n < 100
			})
		}
	}
}

// TestSemanticsOracle: GSE under each semantics follows exactly the
// concrete runs under the same semantics (the oracle takes the engine's
// options), on testdata/semantics at k = 0..2.
func TestSemanticsOracle(t *testing.T) {
	for _, sem := range []string{machine.SemJava, machine.SemPaper} {
		for name, p := range semanticsPrograms(t) {
			for k := 0; k <= 2; k++ {
				g := gse.New(k)
				g.Opt = semantics(t, sem)
				rep, err := concrete.Compare(context.Background(), p, g, concrete.Options{K: k, Bound: 300})
				if err != nil {
					t.Fatalf("%s %s k=%d: %v", sem, name, k, err)
				}
				if !rep.OK() || rep.DupPaths > 0 {
					t.Errorf("%s %s k=%d: GSE and the oracle disagree: %s", sem, name, k, rep)
				}
			}
		}
	}
}
