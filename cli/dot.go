package cli

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/lockstep-dev/lockstep/engine"
	"github.com/lockstep-dev/lockstep/internal/report"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/smt"
	"github.com/lockstep-dev/lockstep/summary"
)

func init() {
	register(&command{
		name:  "dot",
		short: "draw one state of a run as a Graphviz picture",
		usage: "[-engine NAME[:VARIANT]] [-variant V] [-k K] [-steps N] (-at STEP | -final) [-path I] [-o out.dot [-svg|-png] | -json] FILE",
		run:   runDot,
	})
}

func runDot(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) error {
	engineName := fs.String("engine", "summary", "engine, NAME[:VARIANT] (see 'lockstep engines')")
	variant := fs.String("variant", "", "summary rule variant (see 'lockstep variants'; -engine summary -variant V is -engine summary:V); its common-rule options apply to gse too")
	sem := semanticsFlag(fs)
	k := fs.Int("k", 2, "k-bound (-1: unbounded)")
	steps := fs.Int("steps", 300, "step bound of the run (-1: none). Lower than run's 1000: dot keeps a copy of the state it draws along every path that reaches -at, and a picture is of a small state")
	at := fs.Int("at", -1, "draw the state after this many steps on the chosen path")
	final := fs.Bool("final", false, "draw the last state of the chosen path")
	path := fs.Int("path", 0, "the path to follow, counting from 0 in depth-first order")
	out := fs.String("o", "", "write the DOT text here (default: standard output)")
	svg := fs.Bool("svg", false, "also render an SVG next to -o (needs Graphviz's dot; without it the DOT file is written and the command to render it printed)")
	png := fs.Bool("png", false, "also render a PNG next to -o (needs Graphviz's dot; without it the DOT file is written and the command to render it printed)")
	asJSON := fs.Bool("json", false, "print one JSON document: {\"dot\" (the DOT text), \"path\", \"step\", \"exit_code\", …}")
	answerBoundFlags(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	var problems []string
	if fs.NArg() != 1 {
		problems = append(problems, "exactly one program FILE is required")
	}
	spec := *engineName
	if name, ev := engine.Split(spec); *variant != "" && name == "summary" {
		if ev != "" && ev != *variant {
			problems = append(problems, fmt.Sprintf("-engine %s and -variant %s disagree", spec, *variant))
		}
		spec = "summary:" + *variant
	}
	if *variant == "" {
		*variant = "published"
	}
	v, err := summary.Lookup(*variant)
	if err != nil {
		problems = append(problems, err.Error())
	}
	if v, err = withSemantics(v, *sem); err != nil {
		problems = append(problems, err.Error())
	}
	if c, err := engine.Canonical(spec); err != nil {
		problems = append(problems, err.Error())
	} else {
		spec = c
	}
	if (*at >= 0) == *final {
		problems = append(problems, "give exactly one of -at STEP and -final")
	}
	if *path < 0 {
		problems = append(problems, "-path must be ≥ 0")
	}
	if err := kRange("k", *k); err != nil {
		problems = append(problems, err.Error())
	}
	if *steps == 0 || *steps < -1 {
		problems = append(problems, fmt.Sprintf("-steps must be -1 (no bound) or at least 1, not %d", *steps))
	}
	if *asJSON && (*out != "" || *svg || *png) {
		problems = append(problems, "-json prints the DOT text in the JSON document: it does not take -o, -svg or -png")
	}
	if *svg && *png {
		problems = append(problems, "give at most one of -svg and -png")
	}
	if (*svg || *png) && *out == "" {
		problems = append(problems, "-svg and -png need -o (the picture is written next to the DOT file)")
	}
	if len(problems) > 0 {
		for _, p := range problems {
			fmt.Fprintf(stderr, "lockstep dot: %s\n", p)
		}
		fs.Usage()
		return errReported
	}
	format := ""
	if *svg {
		format = "svg"
	} else if *png {
		format = "png"
	}
	file := fs.Arg(0)
	prog, err := javalite.LoadFile(file)
	if err != nil {
		// A parse or type error list prints one positioned error per line.
		fmt.Fprintln(stderr, err)
		return errReported
	}
	sol, err := smt.NewSolver()
	if err != nil {
		return err
	}
	defer sol.Close()
	// Every engine runs the common rules of the chosen semantics (and the
	// variant's V9 choice), as GSE does in a check.
	cfg := engine.Config{K: *k, Solver: sol, Machine: v.MachineOptions()}
	if err := refuseData(spec, prog); err != nil {
		return err
	}
	eng, err := engine.New(spec, cfg)
	if err != nil {
		return err
	}
	name := strings.Replace(spec, ":", "/", 1)
	s, step, err := dotPick(prog, eng, *steps, *at, *path)
	if err != nil {
		return err
	}
	title := fmt.Sprintf("%s  %s  %s  k=%d  path %d  step %d", filepath.Base(file), name, v.Semantics(), *k, *path, step)
	text := machine.DOT(s, title)
	if *asJSON {
		return encodeIndented(stdout, struct {
			File   string `json:"file"`
			Engine string `json:"engine"`
			Path   int    `json:"path"`
			Step   int    `json:"step"`
			DOT    string `json:"dot"`
			report.Status
		}{file, spec, *path, step, text, report.Status{}})
	}
	if *out == "" {
		_, err := io.WriteString(stdout, text)
		return err
	}
	if err := os.WriteFile(*out, []byte(text), 0o644); err != nil {
		return err
	}
	if format == "" {
		return nil
	}
	img := strings.TrimSuffix(*out, filepath.Ext(*out)) + "." + format
	if _, err := exec.LookPath("dot"); err != nil {
		// The DOT file is the picture; rendering it is Graphviz's job, and
		// its absence is no reason to lose the state drawn.
		fmt.Fprintf(stderr, "wrote %s; no %s: Graphviz's 'dot' is not installed (apt-get install graphviz), then: dot -T%s -o %s %s\n",
			*out, strings.ToUpper(format), format, img, *out)
		return nil
	}
	cmd := exec.Command("dot", "-T"+format, "-o", img, *out)
	cmd.Stderr = stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("rendering %s with dot: %w", img, err)
	}
	fmt.Fprintf(stderr, "wrote %s and %s\n", *out, img)
	return nil
}

// dotPick runs eng depth-first from the initial state, in the same order
// as machine.Explore, and returns the state after `at` steps on the path-th
// path (or that path's last state when at < 0) and its step number. Only a
// snapshot of the state at `at` travels along each path, so the run costs
// one clone per branch that passes that step.
func dotPick(p *javalite.Program, eng machine.Engine, bound, at, path int) (*machine.State, int, error) {
	type item struct{ s, snap *machine.State }
	work := []item{{s: machine.Initial(p)}}
	opt := eng.Options()
	n := 0
	for len(work) > 0 {
		it := work[len(work)-1]
		work = work[:len(work)-1]
		s := it.s
		if at >= 0 && it.snap == nil && s.Steps == at {
			it.snap = s.Clone()
		}
		kind := ""
		switch {
		case s.Terminal():
			kind = "terminates"
		case bound >= 0 && s.Steps >= bound:
			kind = "is cut by the step bound"
		default:
			before := s.Steps
			succ, err := machine.Step(s, eng, opt)
			if err != nil {
				return nil, 0, fmt.Errorf("%s: step %d: %w", eng.Name(), before, err)
			}
			if len(succ) > 0 {
				for i := len(succ) - 1; i >= 0; i-- {
					work = append(work, item{s: succ[i].S, snap: it.snap})
				}
				continue
			}
			s.Steps = before // no rule applied
			kind = "is stuck"
		}
		if n < path {
			n++
			continue
		}
		if at < 0 {
			return s, s.Steps, nil
		}
		if it.snap == nil {
			return nil, 0, fmt.Errorf("path %d %s at step %d, before step %d", path, kind, s.Steps, at)
		}
		return it.snap, at, nil
	}
	return nil, 0, fmt.Errorf("the run has only %d paths; -path %d does not exist", n, path)
}
