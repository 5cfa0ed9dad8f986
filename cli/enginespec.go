package cli

import (
	"flag"
	"fmt"
	"strconv"

	"github.com/lockstep-dev/lockstep/engine"
	_ "github.com/lockstep-dev/lockstep/engine/builtin"
	"github.com/lockstep-dev/lockstep/engine/extern"
	"github.com/lockstep-dev/lockstep/summary"
)

// engineFlags are -engine NAME[:VARIANT] and its older shorthand
// -variant V (= -engine summary:V), shared by every subcommand that runs an
// engine.
type engineFlags struct {
	engine, variant string
	def             string // the engine when neither flag is given
}

func (e *engineFlags) register(fs *flag.FlagSet, def, what string) {
	e.def = def
	fs.StringVar(&e.engine, "engine", "", fmt.Sprintf("%s, NAME[:VARIANT] (see 'lockstep engines'; default %s)", what, def))
	fs.StringVar(&e.variant, "variant", "", "shorthand for -engine summary:VARIANT (see 'lockstep variants')")
	answerBoundFlags(fs)
}

// spec returns the selected engine as a canonical "NAME[:VARIANT]", after
// checking that it exists and that its variant builds.
func (e *engineFlags) spec() (string, error) {
	s := e.def
	switch {
	case e.engine != "" && e.variant != "":
		name, v := engine.Split(e.engine)
		if name != "summary" || (v != "" && v != e.variant) {
			return "", fmt.Errorf("-variant %s is a summary variant; with -engine %s give the variant as -engine NAME:VARIANT", e.variant, e.engine)
		}
		s = "summary:" + e.variant
	case e.engine != "":
		s = e.engine
	case e.variant != "":
		s = "summary:" + e.variant
	}
	c, err := engine.Canonical(s)
	if err != nil {
		return "", err
	}
	if name, v := engine.Split(c); name == "summary" {
		// Fail on a bad variant name now, as a usage error, rather than
		// from the first worker.
		if _, err := summary.Lookup(v); err != nil {
			return "", err
		}
	}
	return c, nil
}

// answerBoundFlags are the bounds on an outside engine's answers
// (extern.Limits, docs/PROTOCOL.md §3), on every command that can run
// one. They start from the defaults each time a command's flags are
// registered.
func answerBoundFlags(fs *flag.FlagSet) {
	extern.Bounds = extern.DefaultLimits
	for _, b := range []struct {
		name, what string
		v          *int
		max        int
	}{
		{"engine-max-line", "bytes in one answer line of an exec: engine", &extern.Bounds.Line, 1 << 40},
		// Deeper, the recursion of reading a formula could exhaust Go's
		// stack (a crash, not a failure).
		{"engine-max-depth", "nesting of JSON objects and arrays in one answer of an exec: engine (at most 100000)", &extern.Bounds.Depth, 100000},
		{"engine-max-successors", "successors in one answer of an exec: engine", &extern.Bounds.Successors, 1 << 40},
		{"engine-max-terms", "formulas in one answer of an exec: engine", &extern.Bounds.Terms, 1 << 40},
	} {
		fs.Var(positiveInt{b.v, b.max}, b.name, fmt.Sprintf("at most `N` %s (past it the engine fails: inconclusive)", b.what))
	}
}

// positiveInt is an int flag that must be at least 1 and at most max.
type positiveInt struct {
	v   *int
	max int
}

func (p positiveInt) String() string {
	if p.v == nil {
		return ""
	}
	return strconv.Itoa(*p.v)
}

func (p positiveInt) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("want an integer")
	}
	if n < 1 {
		return fmt.Errorf("must be at least 1, not %d", n)
	}
	if n > p.max {
		return fmt.Errorf("must be at most %d, not %d", p.max, n)
	}
	*p.v = n
	return nil
}
