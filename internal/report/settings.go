package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lockstep-dev/lockstep/checker"
	"github.com/lockstep-dev/lockstep/engine/extern"
	"github.com/lockstep-dev/lockstep/gen"
)

// Settings are the flags of a run that change which programs are drawn or
// what is checked, beyond those every document names at its top (variant,
// semantics, k, steps, n, seed). Each shard records them, and a merge
// refuses parts whose settings differ, naming the flag: a shard made with
// -data none or -no-exact checks other programs or fewer claims than its
// siblings, and merged with them it would make a run that never happened,
// one that may miss the violation the unsharded run finds.
type Settings struct {
	// Engine is the engine under test as resolved (-engine, -variant),
	// Versus the engine it is compared with instead of GSE (-vs).
	Engine string `json:"engine"`
	Versus string `json:"vs,omitempty"`
	// Data is the generator's data switch (-data: none or mixed).
	Data    string `json:"data,omitempty"`
	NoExact bool   `json:"no_exact"`
	// MaxGroup and MaxPairs are the bounds past which a check is
	// inconclusive (-max-group, -max-pairs), Timeout the time limit per
	// program (-timeout).
	MaxGroup int    `json:"max_group,omitempty"`
	MaxPairs int    `json:"max_pairs,omitempty"`
	Timeout  string `json:"timeout"`
	// ConfirmTimeout and Mutants are of mutants runs: the limit of the
	// base engine's confirming run (-confirm-timeout) and the mutants
	// hunted, in order (-only).
	ConfirmTimeout string   `json:"confirm_timeout,omitempty"`
	Mutants        []string `json:"mutants,omitempty"`
	// AnswerBounds are the bounds on an outside engine's answers
	// (-engine-max-line, -engine-max-depth, -engine-max-successors,
	// -engine-max-terms), recorded when an exec: engine runs.
	AnswerBounds *AnswerBounds `json:"answer_bounds,omitempty"`
}

// AnswerBounds are extern.Limits as recorded.
type AnswerBounds struct {
	Line       int `json:"line"`
	Depth      int `json:"depth"`
	Successors int `json:"successors"`
	Terms      int `json:"terms"`
}

// SettingsOf are the settings of a run with options opt drawing programs
// with data switch data.
func SettingsOf(opt checker.Options, data gen.DataMode) *Settings {
	s := &Settings{
		Engine: opt.EngineSpec(), Versus: opt.Versus, Data: data.String(), NoExact: opt.NoExactness,
		MaxGroup: opt.MaxGroup, MaxPairs: opt.MaxPairs, Timeout: opt.Timeout.String(),
	}
	if strings.HasPrefix(s.Engine, "exec:") || strings.HasPrefix(s.Versus, "exec:") {
		b := extern.Bounds
		s.AnswerBounds = &AnswerBounds{Line: b.Line, Depth: b.Depth, Successors: b.Successors, Terms: b.Terms}
	}
	return s
}

// flagValue is one flag of a part and its value, as a user would type it.
type flagValue struct{ flag, value string }

// flags lists s by the flag that sets each field. A part without settings
// (written by a lockstep before they were recorded) has one pseudo-flag
// saying so, which differs from any recorded settings.
func (s *Settings) flags() []flagValue {
	if s == nil {
		return []flagValue{{"settings", "(none recorded: written by an older lockstep)"}}
	}
	return []flagValue{
		{"-engine", s.Engine}, {"-vs", s.Versus}, {"-data", s.Data},
		{"-no-exact", strconv.FormatBool(s.NoExact)},
		{"-max-group", strconv.Itoa(s.MaxGroup)}, {"-max-pairs", strconv.Itoa(s.MaxPairs)},
		{"-timeout", s.Timeout}, {"-confirm-timeout", s.ConfirmTimeout},
		{"-only", strings.Join(s.Mutants, ",")},
		{"-engine-max-line", bound(s.AnswerBounds, func(l AnswerBounds) int { return l.Line })},
		{"-engine-max-depth", bound(s.AnswerBounds, func(l AnswerBounds) int { return l.Depth })},
		{"-engine-max-successors", bound(s.AnswerBounds, func(l AnswerBounds) int { return l.Successors })},
		{"-engine-max-terms", bound(s.AnswerBounds, func(l AnswerBounds) int { return l.Terms })},
	}
}

// bound is one answer bound, "" when none were recorded.
func bound(l *AnswerBounds, f func(AnswerBounds) int) string {
	if l == nil {
		return ""
	}
	return strconv.Itoa(f(*l))
}

// top is the flags every document names at its top.
func top(variant, semantics string, k, steps, n int, seed int64) []flagValue {
	return []flagValue{
		{"-variant", variant}, {"-semantics", semantics}, {"-k", strconv.Itoa(k)},
		{"-steps", strconv.Itoa(steps)}, {"-n", strconv.Itoa(n)}, {"-seed", strconv.FormatInt(seed, 10)},
	}
}

// agree checks that every part was made with the same flags as the first,
// and names the first flag that differs. labels name the parts (their
// shard) for the message.
func agree(what string, labels []string, fls [][]flagValue) error {
	name := func(i int) string {
		if labels[i] == "" {
			return "the unsharded result"
		}
		return "shard " + labels[i]
	}
	for i := 1; i < len(fls); i++ {
		a, b := fls[0], fls[i]
		for j := 0; j < max(len(a), len(b)); j++ {
			if j >= len(a) || j >= len(b) || a[j].flag != b[j].flag {
				// Settings recorded by one part, not by the other.
				return fmt.Errorf("%s: %s and %s do not both record their settings (one was written by an older lockstep): merge the parts of one run, made by one lockstep", what, name(i), name(0))
			}
			if a[j].value != b[j].value {
				return fmt.Errorf("%s: %s was made with %s, %s with %s: merge only the parts of one run (every flag that changes which programs are checked, or how, must be the same)",
					what, name(i), show(b[j]), name(0), show(a[j]))
			}
		}
	}
	return nil
}

// show is a flag and its value as typed ("-data none", "-vs ”").
func show(f flagValue) string {
	switch {
	case f.value == "":
		return f.flag + " ''"
	case f.value == "true" || f.value == "false":
		return f.flag + "=" + f.value
	}
	return f.flag + " " + f.value
}
