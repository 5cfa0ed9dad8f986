package checker

import (
	"context"
	"fmt"

	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/smt"
	"github.com/lockstep-dev/lockstep/summary"
)

// The default engine under test is summary:published, the heap-summary rules
// as the papers publish them, and lockstep refutes them (docs/FINDINGS.md
// F1–F3). A first check of one's own program therefore often ends VIOLATED
// for a reason that has nothing to do with the program. ExplainPublished
// says which finding the violation is and what the rules with every proposed
// fix (summary:fixed) say about the same program, so that the verdict reads
// as what it is.

// PublishedEngine and FixedEngine are the published heap-summary rules and
// the same rules with every fix of docs/FINDINGS.md.
const (
	PublishedEngine = "summary:published"
	FixedEngine     = "summary:fixed"
)

// publishedFindings are the findings of the published rules, each with the
// variant that is summary:fixed without that finding's fix: a program on
// which summary:fixed holds and that variant is violated shows the finding.
// When none does, the published rules with one fix alone that hold on the
// program name it.
var publishedFindings = []struct {
	id, about, withoutFix, fixOnly string
}{
	{"F1", "the k-bound leaves a world with no entry (fix: kbound-assume)", "summary:v7-uninit-guard+idle-null", "summary:kbound-assume"},
	{"F2", "Summarize re-initializes a field set through another alias (fix: v7-uninit-guard)", "summary:kbound-assume+idle-null", "summary:v7-uninit-guard"},
	{"F3", "an alias entry reaches a location never created in its world (fix: idle-null)", "summary:kbound-assume+v7-uninit-guard", "summary:idle-null"},
}

// PublishedNote is what ExplainPublished found.
type PublishedNote struct {
	// Finding is the finding of docs/FINDINGS.md the violation shows
	// ("F1", "F2", "F3"), and About what it is; Finding is empty when
	// none of the three shows alone on the program (summary:fixed does
	// not hold, or only with all three fixes together).
	Finding, About string
	// Fixed is the check of summary:fixed on the program, with the
	// options of the published check.
	Fixed *Report
}

// Line is the note as one line, for the text report.
func (n *PublishedNote) Line() string {
	what := "the heap-summary rules as published, which lockstep refutes (docs/FINDINGS.md"
	if n.Finding != "" {
		what += " " + n.Finding + ": " + n.About + ")"
	} else {
		what += " F1–F3)"
	}
	var fixed string
	switch v := n.Fixed.Verdict; v.Status {
	case Holds:
		fixed = "-variant fixed (every proposed fix) holds on this file"
	case Violated:
		fixed = fmt.Sprintf("-variant fixed (every proposed fix) is violated too (%s, rule %s): not a known finding", v.Lemma, v.Rule)
	default:
		fixed = fmt.Sprintf("-variant fixed (every proposed fix) is inconclusive on this file (%s: %s)", v.Lemma, v.Reason)
	}
	return "note: " + PublishedEngine + " is " + what + "; " + fixed
}

// ExplainPublished explains a violation of summary:published checked
// against GSE (rep, from Run with opt): it checks the program under
// summary:fixed with the same options, and when that holds, finds which of
// the findings F1–F3 the program shows by checking summary:fixed without
// each fix in turn (each of those checks stops at its first violation), or
// else the published rules with each fix alone. It
// returns nil for any other report. solver may be nil (a solver per check).
func ExplainPublished(ctx context.Context, p *javalite.Program, opt Options, rep *Report, solver *smt.Solver) (*PublishedNote, error) {
	if rep == nil || rep.Verdict.Status != Violated || rep.Engine != PublishedEngine || rep.Versus != "" || opt.Build != nil {
		return nil, nil
	}
	with := func(spec string) Options {
		o := opt
		o.Engine, o.Variant = spec, summary.Variant{}
		return o
	}
	fixed, err := Run(ctx, p, with(FixedEngine), solver)
	if err != nil {
		return nil, err
	}
	note := &PublishedNote{Fixed: fixed}
	if fixed.Verdict.Status != Holds {
		return note, nil
	}
	for _, f := range publishedFindings {
		if f.id == "F1" && rep.Verdict.Lemma != WF {
			// F1 is a state that is not total: WF, the first thing
			// the published rules break on such a program.
			continue
		}
		r, err := Run(ctx, p, with(f.withoutFix), solver)
		if err != nil {
			return nil, err
		}
		if r.Verdict.Status == Violated {
			note.Finding, note.About = f.id, f.about
			return note, nil
		}
	}
	for _, f := range publishedFindings {
		r, err := Run(ctx, p, with(f.fixOnly), solver)
		if err != nil {
			return nil, err
		}
		if r.Verdict.Status == Holds {
			note.Finding, note.About = f.id, f.about
			break
		}
	}
	return note, nil
}
