// Package guarded holds the rule pieces shared by the engines whose states
// are guarded value sets (RULES.md §6): summary, pose (POSE-J) and uber
// (U-DEFER). Their rules on a possibly-null reference r — Field access
// A/A′, Field write W/W′, and the Java reading's Invoke/Invoke′ (RULES.md
// §3, V11) — all have one shape:
//
//   - θ_0 is the set of null guards of L(r) satisfiable with φ_g
//     (NullGuards), and the non-null rule fires when some non-null entry of
//     L(r) is satisfiable with φ_g;
//   - the non-null rule's successor lives under φ'_g = φ_g ∧ ⋀_{φ∈θ_0} ¬φ
//     (PhiPrime);
//   - the null rule fires when θ_0 ≠ ∅ and leads to the error end
//     (L R φ_g ∧ ⋁θ_0 η error end) (ErrorEnd);
//   - both may fire (Split): the non-null rule then works on a copy, as the
//     null rule needs the state as it was.
//
// Pair is the whole skeleton: φ_g, the engine's θ_0, and Split.
//
// What differs between the engines stays with them and is passed in: how
// a satisfiability question is asked and counted (Asker.Sat), an engine's
// own check of a non-null entry (Asker.Check: uber rejects unresolved
// locations), how θ_0 is computed (Pair's Guards: pose's mutation
// null-ignored drops it), summary's reading V8 (ErrorEnd's keepPhi), and
// everything the rules do besides (the Rule closures: the engine's own
// successor, its variants, mutations, U-ST withholding and counters).
package guarded

import (
	"fmt"

	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
)

// Asker is how an engine asks NullGuards' questions and names itself in
// NullGuards' errors.
type Asker struct {
	// Name prefixes every error: "summary", "pose", "uber".
	Name string
	// Sat is the engine's S(φ); an undecided answer is an error.
	Sat func(*smt.Formula) (bool, error)
	// Show prints a guard in an error; nil prints it with %v.
	Show func(*smt.Formula) string
	// Check, if not nil, is asked about every satisfiable entry of L(r)
	// that is neither l_null nor l_un before it counts as non-null; an
	// error rejects the state.
	Check func(s *machine.State, r machine.Ref, l machine.Loc) error
}

func (a Asker) show(f *smt.Formula) string {
	if a.Show == nil {
		return fmt.Sprint(f)
	}
	return a.Show(f)
}

// NullGuards computes the premises shared by A/A′, W/W′ and Invoke/Invoke′
// on L(r) under φ_g: θ_0 (the null guards satisfiable with φ_g) and
// whether some non-null entry is satisfiable with φ_g. An empty L(r), or
// an l_un entry that is satisfiable (a stack reference to an uninitialized
// location), means the state is not well formed; no rule covers it, so it
// is reported rather than dereferenced.
func NullGuards(a Asker, s *machine.State, r machine.Ref, phiG *smt.Formula) (theta0 []*smt.Formula, nonNull bool, err error) {
	// Rule: θ_0 (RULES.md §6, premises of A/A′, W/W′; Invoke/Invoke′ of §3)
	set := s.Get(r)
	if len(set) == 0 {
		return nil, false, fmt.Errorf("%s: L(%s) is empty", a.Name, machine.RefString(r))
	}
	for _, en := range set {
		ok, err := a.Sat(smt.And(en.Guard, phiG))
		if err != nil {
			return nil, false, err
		}
		if !ok {
			continue
		}
		switch en.Loc {
		case machine.LNull:
			theta0 = append(theta0, en.Guard)
		case machine.LUn:
			return nil, false, fmt.Errorf("%s: L(%s) holds l_un under satisfiable guard %s: the state is not well formed",
				a.Name, machine.RefString(r), a.show(en.Guard))
		default:
			if a.Check != nil {
				if err := a.Check(s, r, en.Loc); err != nil {
					return nil, false, err
				}
			}
			nonNull = true
		}
	}
	return theta0, nonNull, nil
}

// Receivers are the entries of L(r) that a rule on a non-null r acts on:
// those at a location (neither l_null nor l_un) whose guard is
// satisfiable with phi (φ'_g), asked in L(r)'s order with the engine's
// sat.
func Receivers(sat func(*smt.Formula) (bool, error), s *machine.State, r machine.Ref, phi *smt.Formula) ([]machine.Entry, error) {
	var out []machine.Entry
	for _, en := range s.Get(r) {
		if en.Loc == machine.LNull || en.Loc == machine.LUn {
			continue
		}
		ok, err := sat(smt.And(en.Guard, phi))
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, en)
		}
	}
	return out, nil
}

// NotAll is ⋀_{φ∈fs} ¬φ.
func NotAll(fs []*smt.Formula) *smt.Formula {
	out := make([]*smt.Formula, len(fs))
	for i, f := range fs {
		out[i] = smt.Not(f)
	}
	return smt.And(out...)
}

// PhiPrime is φ'_g = φ_g ∧ ⋀_{φ∈θ_0} ¬φ, the path condition of the
// non-null rule's successor.
func PhiPrime(phiG *smt.Formula, theta0 []*smt.Formula) *smt.Formula {
	return smt.And(phiG, NotAll(theta0))
}

// SetPhi replaces the whole path condition of s: φ becomes phi and the
// facts GSE-style rules accumulated are dropped (phi holds all of them).
func SetPhi(s *machine.State, phi *smt.Formula) { s.Phi, s.Facts = phi, nil }

// ErrorEnd turns s into the error end of A′, W′ or Invoke′:
// (L R φ η error end) with φ = φ_g ∧ ⋁θ_0, or φ = φ_g when keepPhi (the
// summary engine's published reading of V8). It returns φ.
func ErrorEnd(s *machine.State, phiG *smt.Formula, theta0 []*smt.Formula, keepPhi bool) *smt.Formula {
	// Rule: Field access (A′), Field write (W′), Invoke′ — the error end
	phi := phiG
	if !keepPhi {
		phi = smt.And(phiG, smt.Or(theta0...))
	}
	SetPhi(s, phi)
	s.SetError()
	return phi
}

// Split is the skeleton of a rule pair on a possibly-null reference whose
// premises NullGuards computed: the non-null rule runs when nonNull, the
// null rule when θ_0 ≠ ∅, both when both hold. The non-null rule gets s
// itself, or a copy when the null rule will need s as it is; the null rule
// gets s. Either returns the successors it makes (none when it withholds
// its successor). The result lists the non-null rule's successors first.
// An error of the non-null rule is returned alone; an error of the null
// rule is returned with the non-null rule's successors.
func Split(s *machine.State, theta0 []*smt.Formula, nonNull bool,
	rule func(sn *machine.State) ([]machine.Succ, error),
	nullRule func(s *machine.State) ([]machine.Succ, error)) ([]machine.Succ, error) {
	var out []machine.Succ
	if nonNull {
		sn := s
		if len(theta0) > 0 {
			sn = s.Clone()
		}
		succ, err := rule(sn)
		if err != nil {
			return nil, err
		}
		out = append(out, succ...)
	}
	if len(theta0) > 0 {
		succ, err := nullRule(s)
		if err != nil {
			return out, err
		}
		out = append(out, succ...)
	}
	return out, nil
}

// Premises are what a rule pair reads off L(r): φ_g, θ_0, and whether a
// non-null entry of L(r) is satisfiable with φ_g.
type Premises struct {
	PhiG    *smt.Formula
	Theta0  []*smt.Formula
	NonNull bool
}

// PhiPrime is φ'_g of the premises.
func (p Premises) PhiPrime() *smt.Formula { return PhiPrime(p.PhiG, p.Theta0) }

// Guards computes θ_0 and whether a non-null entry is satisfiable, on L(r)
// under φ_g: NullGuards with the engine's Asker, and the engine's own
// choices around it.
type Guards func(s *machine.State, r machine.Ref, phiG *smt.Formula) (theta0 []*smt.Formula, nonNull bool, err error)

// Rule is one rule of a pair (Split) on the state it works on.
type Rule func(s *machine.State, p Premises) ([]machine.Succ, error)

// Pair is the whole skeleton of a rule pair on a possibly-null reference r:
// φ_g is the path condition of s, guards computes θ_0, and Split runs rule
// and nullRule as their premises say.
func Pair(s *machine.State, r machine.Ref, guards Guards, rule, nullRule Rule) ([]machine.Succ, error) {
	phiG := s.PathCondition()
	theta0, nonNull, err := guards(s, r, phiG)
	if err != nil {
		return nil, err
	}
	p := Premises{PhiG: phiG, Theta0: theta0, NonNull: nonNull}
	return Split(s, theta0, nonNull,
		func(sn *machine.State) ([]machine.Succ, error) { return rule(sn, p) },
		func(s *machine.State) ([]machine.Succ, error) { return nullRule(s, p) })
}

// WriteReceiver is r_x of Field write's redex (x $ f := * → k): the
// reference η binds x to, whose L(r_x) W/W′ split on. name prefixes the
// error for an x bound to no reference.
func WriteReceiver(name string, s *machine.State, fw *javalite.FieldWrite) (machine.Ref, error) {
	v := s.Env[fw.Slot]
	if !v.IsRef() {
		return 0, fmt.Errorf("%s: %s: %s is not bound to a reference", name, fw.Pos(), fw.VarName)
	}
	return v.Ref(), nil
}
