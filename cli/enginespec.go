package cli

import (
	"flag"
	"fmt"

	"github.com/lockstep-dev/lockstep/engine"
	_ "github.com/lockstep-dev/lockstep/engine/builtin"
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
