package cli

import (
	"flag"
	"fmt"
	"strings"

	"github.com/lockstep-dev/lockstep/machine"
	"github.com/lockstep-dev/lockstep/summary"
)

// semanticsFlag registers -semantics, the one flag that names the
// common-rule semantics (RULES.md §3, V10 and V11) of every engine a
// command runs: GSE, the engine under test and the concrete oracle.
func semanticsFlag(fs *flag.FlagSet) *string {
	p := new(string)
	semanticsVar(fs, p)
	return p
}

// semanticsVar is semanticsFlag storing into p.
func semanticsVar(fs *flag.FlagSet, p *string) {
	var doc []string
	for _, n := range machine.SemanticsNames() {
		doc = append(doc, n+": "+machine.SemanticsDoc[n])
	}
	fs.StringVar(p, "semantics", machine.SemJava, "common-rule semantics (RULES.md §3, V10/V11), one of\n"+strings.Join(doc, "\n"))
}

// withSemantics gives v the V10/V11 choices of the named semantics set; the
// variant's V9 choice is kept. The checker runs GSE with the variant's
// machine options, so both engines get the same semantics.
func withSemantics(v summary.Variant, name string) (summary.Variant, error) {
	sem, err := machine.ParseSemantics(name)
	if err != nil {
		return v, fmt.Errorf("-semantics: %w", err)
	}
	return v.WithSemantics(sem), nil
}
