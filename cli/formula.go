package cli

import (
	"fmt"
	"hash/fnv"
	"slices"
	"strings"

	"github.com/lockstep-dev/lockstep/smt"
)

// Formulas are DAGs: a path condition built over a thousand steps shares
// its subformulas so much that its tree, printed in full, runs to
// gigabytes (issue 25: `run -paths` on linkedlist.jl printed one line of
// 956,482 characters at 300 steps and never finished at 1000). The CLI
// prints a formula with its sharing: every compound subformula used more
// than once is named ($1, $2, …) and defined once, so the text is linear in
// the size of the DAG; on a text line it is further cut at
// maxFormulaText characters (the -json output has it whole).

// maxFormulaText bounds a formula on one line of text output.
const maxFormulaText = 2000

// sharedFormula is a formula with its shared subformulas named.
type sharedFormula struct {
	Formula string       `json:"formula"`
	Where   []formulaDef `json:"where,omitempty"` // definitions, each before its first use
	Nodes   int          `json:"nodes"`           // distinct subformulas (the DAG's size)
}

type formulaDef struct {
	Name    string `json:"name"`
	Formula string `json:"formula"`
}

// shareFormula names the compound subformulas of f that occur more than
// once. Names are given in a post-order over kids sorted by a structural
// hash, and kids print sorted by text, so the output does not depend on
// creation order (as smt.Formula.String).
func shareFormula(f *smt.Formula) sharedFormula {
	if f == nil {
		return sharedFormula{Formula: "true", Nodes: 1}
	}
	uses := map[*smt.Formula]int{}
	hash := map[*smt.Formula]uint64{}
	var count func(g *smt.Formula)
	count = func(g *smt.Formula) {
		uses[g]++
		if uses[g] > 1 {
			return
		}
		h := fnv.New64a()
		fmt.Fprint(h, g.Op())
		if g.Op() == smt.OpEq {
			a, b := g.Atom()
			fmt.Fprint(h, a, b)
		}
		var kh []uint64
		for _, k := range g.Kids() {
			count(k)
			kh = append(kh, hash[k])
		}
		slices.Sort(kh)
		for _, x := range kh {
			fmt.Fprint(h, x, ",")
		}
		hash[g] = h.Sum64()
	}
	count(f)
	out := sharedFormula{Nodes: len(uses)}
	text := map[*smt.Formula]string{}
	var write func(g *smt.Formula) string
	write = func(g *smt.Formula) string {
		if t, ok := text[g]; ok {
			return t
		}
		var t string
		switch g.Op() {
		case smt.OpAnd, smt.OpOr:
			kids := slices.Clone(g.Kids())
			slices.SortFunc(kids, func(a, b *smt.Formula) int {
				switch {
				case hash[a] < hash[b]:
					return -1
				case hash[a] > hash[b]:
					return 1
				}
				return 0
			})
			parts := make([]string, len(kids))
			for i, k := range kids {
				parts[i] = write(k)
			}
			slices.Sort(parts)
			sep := " ∧ "
			if g.Op() == smt.OpOr {
				sep = " ∨ "
			}
			t = "(" + strings.Join(parts, sep) + ")"
		case smt.OpNot:
			if k := g.Kids()[0]; k.Op() != smt.OpEq {
				t = "¬" + write(k)
				break
			}
			t = g.String()
		default:
			t = g.String()
		}
		if uses[g] > 1 && g != f && (g.Op() == smt.OpAnd || g.Op() == smt.OpOr || (g.Op() == smt.OpNot && g.Kids()[0].Op() != smt.OpEq)) {
			name := fmt.Sprintf("$%d", len(out.Where)+1)
			out.Where = append(out.Where, formulaDef{Name: name, Formula: t})
			t = name
		}
		text[g] = t
		return t
	}
	out.Formula = write(f)
	return out
}

// Text is the formula on one line, "F where $1 = …, $2 = …", cut at limit
// characters (0: no limit) with a note of what was left out.
func (s sharedFormula) Text(limit int) string {
	var b strings.Builder
	b.WriteString(s.Formula)
	for i, d := range s.Where {
		if i == 0 {
			b.WriteString(" where ")
		} else {
			b.WriteString(", ")
		}
		b.WriteString(d.Name + " = " + d.Formula)
		if limit > 0 && b.Len() > limit {
			break
		}
	}
	t := b.String()
	if limit > 0 && len(t) > limit {
		cut := limit
		for cut > 0 && !utf8Start(t[cut]) {
			cut--
		}
		return fmt.Sprintf("%s… (cut at %d characters: %d subformulas, %d shared; -json or -full prints it whole)", t[:cut], limit, s.Nodes, len(s.Where))
	}
	return t
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
