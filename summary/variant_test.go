package summary

import (
	"context"
	"crypto/sha256"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/gse"
	"github.com/lockstep-dev/lockstep/internal/testutil"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
)

func TestVariantsCatalog(t *testing.T) {
	vs := Variants()
	if vs[0].Name != "published" || !vs[0].IsPublished() {
		t.Fatalf("first variant is %q (published=%v)", vs[0].Name, vs[0].IsPublished())
	}
	if len(vs[0].Differences()) != 0 {
		t.Errorf("published differs: %v", vs[0].Differences())
	}
	want := []string{"published", "v1-all-candidates", "v2-keep-phi", "v3-stuck", "v4-init-before-write",
		"v5-literal-outer", "v5-literal-inner", "v6-min-ref", "v7-uninit-guard", "v8-keep-phi",
		"v9-extend-env", "d1-if-sym-values", "kbound-assume", "idle-null", "fixed", "seed000"}
	seen := map[string]bool{}
	for _, v := range append(Variants(), Mutants()...) {
		if seen[v.Name] {
			t.Errorf("duplicate name %q", v.Name)
		}
		seen[v.Name] = true
		if v.Doc == "" {
			t.Errorf("%s has no doc", v.Name)
		}
		got, err := Lookup(v.Name)
		if err != nil || got != v {
			t.Errorf("Lookup(%q) = %v, %v", v.Name, got.Name, err)
		}
		// Every single-deviation variant and every mutant changes exactly
		// one choice, so each can be tested alone.
		n := len(v.Differences())
		switch {
		case v.Name == "published":
		case v.Name == "seed000":
			if n != 5 {
				t.Errorf("seed000 differs in %d choices, want 5: %v", n, v.Differences())
			}
		case v.Name == "fixed":
			// Every proposed fix of docs/FINDINGS.md, and nothing else.
			if n != 3 {
				t.Errorf("fixed differs in %d choices, want 3: %v", n, v.Differences())
			}
		case n != 1:
			t.Errorf("%s differs in %d choices, want 1: %v", v.Name, n, v.Differences())
		}
	}
	for _, n := range want {
		if !seen[n] {
			t.Errorf("variant %q missing", n)
		}
	}
	if len(vs) != len(want) {
		t.Errorf("Variants() lists %d, want %d", len(vs), len(want))
	}
	for _, m := range Mutants() {
		for _, v := range vs {
			if v.Name == m.Name {
				t.Errorf("mutant %q listed by Variants()", m.Name)
			}
		}
	}
	if _, err := Lookup("no-such"); err == nil || !strings.Contains(err.Error(), "published") {
		t.Errorf("Lookup of an unknown name: %v", err)
	}
	v9 := lookup(t, "v9-extend-env")
	if !v9.MachineOptions().InvokeExtendsEnv || lookup(t, "published").MachineOptions().InvokeExtendsEnv {
		t.Error("MachineOptions does not carry V9")
	}
	if !strings.Contains(lookup(t, "v7-uninit-guard").Doc, "PROPOSED FIX") {
		t.Error("v7-uninit-guard must be documented as a proposed fix")
	}
}

// Every variant and mutant runs the small programs to the end without an
// engine error (errors would mean a rule built an ill-formed state).
func TestAllVariantsRun(t *testing.T) {
	progs := map[string]string{"read": progRead, "tworeads": progTwoReads, "write": progWrite,
		"nullderef": progNullDeref, "onlynull": progOnlyNull, "v7": progReadAfterAliasedWrite, "linkedlist": progLinkedList}
	sol := newSolver(t) // creating a Z3 context per run would dominate the test
	all := append(Variants(), Mutants()...)
	for _, name := range []string{"u-st", "u-eqand", "fixed+u-st"} { // seed 004's readings
		all = append(all, lookup(t, name))
	}
	for _, v := range all {
		for name, src := range progs {
			p := parse(t, src)
			eng := New(v, 2, sol)
			st, err := machine.Explore(context.Background(), machine.Initial(p), eng, 200, nil)
			if err != nil {
				t.Errorf("%s on %s: %v", v.Name, name, err)
				continue
			}
			if st.Paths == 0 || !st.Complete {
				t.Errorf("%s on %s: %d paths, complete=%v", v.Name, name, st.Paths, st.Complete)
			}
		}
	}
}

// progLinkedList is the LinkedList of seed 000 Fig. 1 with the brief's null test
// on this; its text is kept once, in testdata.
var progLinkedList = testutil.Source("../testdata/programs/linkedlist_guarded.jl")

// The point of heap summaries: on LinkedList the number of summary paths
// stays far below GSE's, which branches on every aliasing choice.
func TestLinkedListPathCounts(t *testing.T) {
	const bound = 300
	p := parse(t, progLinkedList)
	for k := 1; k <= 4; k++ {
		g, err := machine.Explore(context.Background(), machine.Initial(p), gse.New(k), bound, nil)
		if err != nil {
			t.Fatal(err)
		}
		eng := New(lookup(t, "published"), k, newSolver(t))
		s, err := machine.Explore(context.Background(), machine.Initial(p), eng, bound, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("k=%d  GSE %d paths (%d cut)  summary %d paths (%d cut, %d error)  Summarize=%d",
			k, g.Paths, g.Ends[machine.EndCut], s.Paths, s.Ends[machine.EndCut], s.Ends[machine.EndError], eng.Stats().Summarize)
		if !g.Complete || !s.Complete {
			t.Fatalf("k=%d: exploration incomplete", k)
		}
		if k >= 2 && 4*s.Paths > g.Paths {
			t.Errorf("k=%d: summary %d paths is not far below GSE's %d", k, s.Paths, g.Paths)
		}
		if s.Paths > g.Paths {
			t.Errorf("k=%d: summary %d paths exceeds GSE's %d", k, s.Paths, g.Paths)
		}
		// Corollary 13 on this program (it has no writes, so the suspect
		// rule V7 plays no part): one summary path per distinct GSE
		// control-flow sequence.
		if cf := distinctControlFlows(t, p, gse.New(k), bound); int64(cf) != s.Paths {
			t.Errorf("k=%d: %d summary paths, %d distinct GSE control-flow sequences", k, s.Paths, cf)
		}
	}
}

// distinctControlFlows counts the distinct sequences of controls (η e k)
// over the paths of eng, each sequence kept as a running hash.
func distinctControlFlows(t *testing.T, p *javalite.Program, eng machine.Engine, bound int) int {
	t.Helper()
	type item struct {
		s *machine.State
		h [32]byte
	}
	work := []item{{s: machine.Initial(p)}}
	seqs := map[[32]byte]bool{}
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		h := sha256.Sum256(append(x.h[:], x.s.ControlKey()...))
		if x.s.Terminal() || x.s.Steps >= bound {
			seqs[h] = true
			continue
		}
		succ, err := machine.Step(x.s, eng, eng.Options())
		if err != nil {
			t.Fatal(err)
		}
		if len(succ) == 0 {
			seqs[h] = true
		}
		for _, y := range succ {
			work = append(work, item{y.S, h})
		}
	}
	return len(seqs)
}

func TestLookupComposes(t *testing.T) {
	v, err := Lookup("kbound-assume+v7-uninit-guard+idle-null")
	if err != nil {
		t.Fatal(err)
	}
	fixed := lookup(t, "fixed")
	v.Name, v.Doc, fixed.Name, fixed.Doc = "", "", "", ""
	if v != fixed {
		t.Errorf("the three fixes composed differ from fixed: %v", v.Differences())
	}
	if _, err := Lookup("v5-literal-outer+v5-literal-inner"); err == nil {
		t.Error("two different readings of V5 composed without error")
	}
	if _, err := Lookup("published+no-such"); err == nil {
		t.Error("unknown part accepted")
	}
}

// TestTableCoversEveryChoice: every rule-choice field of Variant (and of
// Mutation) is set by some row of Table, every row with a Change sets
// exactly one field, and no two rows make the same choice, so Differences,
// derived from the table, names every choice a variant makes exactly once.
func TestTableCoversEveryChoice(t *testing.T) {
	var paths func(v reflect.Value, prefix string, out map[string]bool)
	paths = func(v reflect.Value, prefix string, out map[string]bool) {
		for i := 0; i < v.NumField(); i++ {
			name := v.Type().Field(i).Name
			if name == "Name" || name == "Doc" {
				continue
			}
			if f := v.Field(i); f.Kind() == reflect.Struct {
				paths(f, prefix+name+".", out)
			} else if !f.IsZero() {
				out[prefix+name] = true
			}
		}
	}
	covered := map[string]bool{}
	seen := map[Variant]string{}
	for _, r := range Table.Rows {
		if r.Change == nil {
			continue
		}
		var v Variant
		r.Change(&v)
		set := map[string]bool{}
		paths(reflect.ValueOf(v), "", set)
		require.Len(t, set, 1, "row %s sets %v", r.Name, set)
		for p := range set {
			covered[p] = true
		}
		if other, dup := seen[v]; dup {
			t.Errorf("rows %s and %s make the same choice", other, r.Name)
		}
		seen[v] = r.Name
		got, err := Lookup(r.Name)
		require.NoError(t, err)
		assert.Equal(t, []string{r.Name}, got.Differences(), r.Name)
	}
	// Every field, as a set of field paths with any non-zero value.
	all := map[string]bool{}
	var fields func(tp reflect.Type, prefix string)
	fields = func(tp reflect.Type, prefix string) {
		for i := 0; i < tp.NumField(); i++ {
			f := tp.Field(i)
			if f.Name == "Name" || f.Name == "Doc" {
				continue
			}
			if prefix == "" && (f.Name == "VarRestoresEnv" || f.Name == "NullCallProceeds") {
				// V10/V11 are the common-rule semantics, the same for every
				// engine of a check: set by WithSemantics from -semantics
				// (engine.Config.Machine), never by a row of one engine.
				continue
			}
			if f.Type.Kind() == reflect.Struct {
				fields(f.Type, prefix+f.Name+".")
			} else {
				all[prefix+f.Name] = true
			}
		}
	}
	fields(reflect.TypeOf(Variant{}), "")
	for p := range all {
		assert.True(t, covered[p], "no row of Table sets %s", p)
	}
}
