package report

// referenceLemmasDoc defines the two lemmas about the reference side that
// the checker adds to the catalog of RULES.md §8. It is part of the
// generated docs/LEMMAS.md, so that the matrix rows GPC and ORC are
// explained where they are shown.
const referenceLemmasDoc = `## The reference side's lemmas (GPC, ORC)

RULES.md §8 relates the two engines; nothing in it checks the reference side on its own. Two
gaps follow. The relations read only the summary state's φ (Def. 16 asks S(φ_q ∧ HC)), so a
GSE that records a wrong path-condition fact passes every lemma; and both engines run the
shared common rules (package machine), so a wrong common rule changes both alike and every
lemma relating them still holds. The catalog therefore has two more claims, checked on every
program like the others:

| id | claim |
|---|---|
| GPC | a GSE state's path condition holds in its own heap and agrees with the summary state that represents it |
| ORC | each terminal GSE path agrees with the concrete interpreter run on its concretization (end kind, value, steps) |

* **GPC**, at every matched pair (P, q) whose exactness holds: (a) every p ∈ P satisfies its φ_p
  under the assignment its heap induces (every reference denotes the one location of its
  singleton set, and r = r′ holds iff the locations are equal); (b) every comparison fact of
  every p ∈ P, lifted into q (an atom r = r′ becomes ⋁ over the common locations l of L_q(r)
  and L_q(r′) of both guards), follows from φ_q: S(φ_q ∧ ¬lift(fact)) is unsatisfiable. (a)
  needs no solver and is decided once per fact; (b) asks one query per fact and summary path
  condition, mostly cache hits. Checked[GPC] counts pairs. Killed mutant: GSE's E′ recording
  r0 = r1 (m-gse-enot-records-eq).
* **ORC**, on a separate exploration of GSE: the concretization of a terminal path (value,
  error or cut) is its input heap — the input locations in creation order, l_0 first, each
  field the path read holding what the read found, every other field null (a field written
  before it was read is never observed) — and concrete.Interpret, a recursive interpreter that
  shares no code with package machine, runs the program on it under the same common-rule
  options. The end kind, the step count and the value must be equal; values are compared under
  the one numbering both sides use (input location i is object i, the n-th (new C) location is
  object inputs+n), which is heap isomorphism made concrete. A GSE step that cannot be taken
  (a common rule that leaves a variable unbound, say) violates ORC too: the interpreter runs
  every well-typed program to an end. With data (PRIMITIVES.md §6) a path's concretizations also
  value its input symbols α(l, f) from concrete.Domain (every literal of the program, ±1, and 0;
  false and true): every valuation that meets the path's data facts is run (at most 8 per path,
  from a sample of at most 512), the path's result term evaluated under it is the value to
  match, and a case whose integers leave int64 is out of range, no result. Budget: at most 2000
  runs per program, every path up to 1000, then every 16th path (checker.Options.OracleMax).
  Checked[ORC] counts the runs. Killed mutants: Invoke pushing (pop η_callee k), Begin
  evaluating its first expression twice (also on a program with data).

`
