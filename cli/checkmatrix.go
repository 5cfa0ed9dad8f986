package cli

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/lockstep-dev/lockstep/checker"
	"github.com/lockstep-dev/lockstep/internal/report"
	"github.com/lockstep-dev/lockstep/javalite"
)

// checkMatrix checks every program under every engine of engines at every
// k of ks, with the other flags of check, and prints the verdicts as a
// Markdown document with the command, commit, date and machine in its
// header (report.CheckMatrix): the tables of docs/results are made so.
func checkMatrix(ctx context.Context, cf checkFlags, engines []string, ks []int, progs []*javalite.Program, cmdline string, stdout, stderr io.Writer) error {
	commit := buildCommit() // of the tree checked, before anything can change it
	m := report.CheckMatrix{}
	for _, p := range progs {
		m.Files = append(m.Files, p.File)
	}
	violated, undecided := false, false
	for _, e := range engines {
		kl := ks
		if len(kl) == 0 {
			kl = []int{defaultK} // the engine's own
		}
		for _, k := range kl {
			c := cf
			c.eng = engineFlags{engine: e, def: checker.DefaultEngine}
			if k != defaultK {
				c.k = optionalInt{v: k, set: true}
			}
			opt, err := c.options()
			if err != nil {
				return usageError("-engines %s at k = %d: %v", e, k, err)
			}
			k = opt.K
			if err := refuseData(opt.EngineSpec(), progs...); err != nil {
				return err
			}
			reps := make([]*checker.Report, len(progs))
			done := 0
			err = checker.Each(ctx, opt, len(progs), c.workers,
				func(i int) (*javalite.Program, string) { return progs[i], progs[i].File },
				func(i int, rep *checker.Report) {
					reps[i] = rep
					done++
					progressLine(stderr, "%s k=%d: %d/%d programs (%s: %s)", e, k, done, len(progs), progs[i].File, rep.Verdict.Status)
				})
			if err != nil && ctx.Err() == nil {
				return internalError{err}
			}
			col := report.CheckColumn{Engine: e, Served: opt.EngineSpec(), K: k}
			for _, rep := range reps {
				if rep == nil {
					col.Cells = append(col.Cells, report.CheckCell{Status: "not checked"})
					continue
				}
				if rep.Engine != "" {
					col.Served = rep.Engine
				}
				j := rep.JSON()
				cell := report.CheckCell{Status: j.Status, Lemma: j.Lemma, FiniteK: j.FiniteK != nil && *j.FiniteK, Reason: j.Reason, Pairs: j.Pairs, Seconds: j.Seconds}
				violated = violated || cell.Status == "violated"
				undecided = undecided || cell.Status == "inconclusive"
				col.Cells = append(col.Cells, cell)
			}
			m.Columns = append(m.Columns, col)
			if ctx.Err() != nil {
				break
			}
		}
	}
	at := "each engine's default k"
	if len(ks) > 0 {
		kl := make([]string, len(ks))
		for i, k := range ks {
			kl[i] = strconv.Itoa(k)
		}
		at = "k = " + strings.Join(kl, ", ")
	}
	title := fmt.Sprintf("lockstep check: %s under %s at %s", plural(len(progs), "program"), strings.Join(engines, ", "), at)
	if err := m.Markdown(stdout, title, report.NewProvenance(cmdline, commit)); err != nil {
		return err
	}
	if ctx.Err() != nil {
		fmt.Fprintf(stdout, "\n%s: the cells above are what finished.\n", interruptNote(ctx))
		return errInterrupted
	}
	return exitErr(report.Exit("", false, violated, undecided))
}

// defaultK marks "the engine's default k" in checkMatrix's loop (no k is
// below −1).
const defaultK = -1 << 30

// parseKs reads -ks: a comma-separated list of k-bounds (−1: none).
func parseKs(s string) ([]int, error) {
	var ks []int
	for _, f := range strings.Split(s, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return nil, fmt.Errorf("-ks: %q is not a k", f)
		}
		if err := kRange("ks", k); err != nil {
			return nil, err
		}
		ks = append(ks, k)
	}
	return ks, nil
}
