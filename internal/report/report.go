// Package report holds the machine-readable results of the lockstep
// commands that check a program stream (check -gen, lemmas, mutants), the
// merge of their shards (lockstep merge), and the lemma matrix that
// `lockstep lemmas -all` writes (docs/LEMMAS.md). It is library code so
// that each is tested without a process; package cli only parses flags
// and prints.
//
// # One JSON contract
//
// Every document here ends in the same three fields: "interrupted" (a
// signal stopped the run: the counts are what finished, a lower bound),
// "signal" (which one) and "exit_code", the exit status of the process that
// wrote it (README.md, "Exit status": 0 holds, 1 violated, 2 usage, 3
// inconclusive, 130/143 interrupted). A CI that reads only the JSON
// branches on exit_code and gets what the process's status says.
//
// # Merging
//
// Program i of a stream belongs to shard i mod N and keeps its index and
// seed there (checker.Shard), so a merge of the N parts of a run is the
// unsharded run: the counts summed, every list in stream order, and where a
// hunt stops at its first violation (check -gen, a mutant), the earliest
// counterexample of the stream with the counts of the programs before it,
// which is what an unsharded run with one worker reports. Only time cannot
// be the same: seconds are the longest shard's. Parts that do not make up
// one run (a missing or repeated shard, a shard of another split or of
// other settings, counts a shard cannot have checked) are refused with an
// error (exit 2); an interrupted part makes the merge interrupted, with its
// exit code.
package report

import (
	"github.com/lockstep-dev/lockstep/checker"
	"github.com/lockstep-dev/lockstep/internal/mutation"
)

// Exit codes (README.md, "Exit status").
const (
	ExitOK           = 0
	ExitViolated     = 1
	ExitUsage        = 2
	ExitInconclusive = 3
	ExitSIGINT       = 130
	ExitSIGTERM      = 143
)

// Status is the end of every document: whether a signal cut the run
// short, which one, and the exit status of the process.
type Status struct {
	// Interrupted: a signal stopped the run; the counts are what finished.
	Interrupted bool   `json:"interrupted"`
	Signal      string `json:"signal,omitempty"`
	// ExitCode is the process's exit status (README.md, "Exit status").
	ExitCode int `json:"exit_code"`
}

// Exit is the exit status of a run that was interrupted by signal sig
// ("" when not interrupted), found a violation, or left checks undecided:
// an interruption wins (the output is partial), then a violation, then an
// undecided check.
func Exit(signal string, interrupted, violated, inconclusive bool) int {
	switch {
	case interrupted && signal == "SIGTERM":
		return ExitSIGTERM
	case interrupted:
		return ExitSIGINT
	case violated:
		return ExitViolated
	case inconclusive:
		return ExitInconclusive
	}
	return ExitOK
}

// Undecided is one inconclusive program of a generated run (check -gen,
// lemmas).
type Undecided struct {
	Index  int    `json:"index"`
	Seed   int64  `json:"program_seed"`
	Lemma  string `json:"lemma,omitempty"`
	Reason string `json:"reason"`
}

// Generated is the -json result of `check -gen`. Field names are those of
// the flags that set them (k, steps, n, seed, shard: the step bound, the
// length of the whole stream, the stream's seed, this part of it); counts
// are of programs, each counted once by how its check ended.
type Generated struct {
	Variant    string `json:"variant"`
	Semantics  string `json:"semantics"`
	K          int    `json:"k"`
	Steps      int    `json:"steps"` // the step bound (-steps)
	N          int    `json:"n"`     // programs in the whole stream (-n), over every shard
	StreamSeed int64  `json:"seed"`  // the stream's seed (-seed); each program's is failing_seed, program_seed
	Shard      string `json:"shard,omitempty"`
	// Programs checked, and how their checks ended (each program counts
	// once, by its first failure).
	Programs     int     `json:"programs"`
	Holds        int     `json:"holds"`
	Inconclusive int     `json:"inconclusive"`
	Violated     int     `json:"violated"`
	Seconds      float64 `json:"seconds"`
	PerSecond    float64 `json:"programs_per_second"`
	// The counterexample (shrunk when Shrunk), the program of the stream
	// it was found on (FailingIndex, FailingSeed; present whenever there
	// is a counterexample, index 0 included) and its size as found.
	Counterexample *checker.JSONReport `json:"counterexample,omitempty"`
	Shrunk         bool                `json:"shrunk"`
	FailingSeed    *int64              `json:"failing_seed,omitempty"`
	FailingIndex   *int                `json:"failing_index,omitempty"`
	FoundLines     int                 `json:"found_lines,omitempty"`
	// Saved is the case file the counterexample was written to (check
	// -gen -save DIR, or a temporary directory).
	Saved string `json:"saved,omitempty"`
	// Undecided lists the inconclusive programs: their index in the
	// stream (check one alone with -shard INDEX/N), the lemma and why.
	Undecided []Undecided `json:"inconclusive_programs,omitempty"`
	// Slowest are the programs whose checks took longest, slowest first
	// (checker.SlowestKept of them), and CheckSeconds the checks' summed
	// time (over the workers; 0 when a merge cannot know it).
	Slowest      []Timed `json:"slowest_programs,omitempty"`
	CheckSeconds float64 `json:"check_seconds,omitempty"`
	// Settings are the other flags that change what is checked; the
	// shards of one run must agree on them.
	Settings *Settings `json:"settings,omitempty"`
	Status
}

// Timed is one of the slowest programs of a `check -gen` run.
type Timed struct {
	Index   int     `json:"index"`
	Seed    int64   `json:"program_seed"`
	Seconds float64 `json:"seconds"`
	Status  string  `json:"status"`
}

// Survey is the -json result of `lemmas` for one engine or variant.
type Survey struct {
	Variant   string `json:"variant"`
	Semantics string `json:"semantics"`
	Engine    string `json:"engine,omitempty"`
	K         int    `json:"k"`
	Steps     int    `json:"steps"`
	Seed      int64  `json:"seed"`
	N         int    `json:"n"`
	Shard     string `json:"shard,omitempty"`
	Timeout   string `json:"timeout"`
	// Data is the stream's data switch: "mixed" or "none" (gen.DataMode).
	Data         string  `json:"data"`
	Programs     int     `json:"programs"`
	Holds        int     `json:"holds"`
	Violated     int     `json:"violated"`
	Inconclusive int     `json:"inconclusive"`
	Verdict      string  `json:"status"`
	Seconds      float64 `json:"seconds"`
	Lemmas       []Lemma `json:"lemmas"`
	// Settings are the other flags that change what is checked; the
	// shards of one run must agree on them.
	Settings *Settings `json:"settings,omitempty"`
	Status
}

// Lemma is one lemma of a survey.
type Lemma struct {
	Lemma          string              `json:"lemma"`
	Claim          string              `json:"claim"`
	Status         string              `json:"status"`
	Summary        string              `json:"summary"`
	Checks         int                 `json:"checks"`
	Programs       int                 `json:"programs_checked"`
	Violations     int                 `json:"violations"`
	Undecided      []Undecided         `json:"undecided,omitempty"`
	Counterexample *checker.JSONReport `json:"counterexample,omitempty"`
	Shrunk         bool                `json:"shrunk,omitempty"`
	FoundLines     int                 `json:"found_lines,omitempty"`
	ProgramSeed    int64               `json:"program_seed,omitempty"`
	ProgramIndex   int                 `json:"program_index"`
}

// Surveys is the -json result of `lemmas -all` and `lemmas -engines`: every
// column's survey, and the status of the run.
type Surveys struct {
	Surveys []Survey `json:"surveys"`
	Status
}

// Mutants is the -json result of `mutants`.
type Mutants struct {
	Engine  string            `json:"engine"`
	Base    string            `json:"base"`
	Sem     string            `json:"semantics"`
	N       int               `json:"n"`
	Seed    int64             `json:"seed"`
	Shard   string            `json:"shard,omitempty"`
	Steps   int               `json:"steps"`
	Workers int               `json:"workers"`
	K       int               `json:"k"`
	Date    string            `json:"date"`
	Results []mutation.Result `json:"results"`
	Summary mutation.Summary  `json:"summary"`
	// Settings are the other flags that change what is checked; the
	// shards of one run must agree on them.
	Settings *Settings `json:"settings,omitempty"`
	Status
}

// MutantsExit is the exit status of a mutants run with summary sum (not
// interrupted): a failed hunt decided nothing (3); a surviving
// non-equivalent mutant, or a kill of one argued equivalent, is a finding
// about the checker (1).
func MutantsExit(sum mutation.Summary) int {
	switch {
	case sum.Errors > 0:
		return ExitInconclusive
	case sum.Survived > 0 || sum.KilledEquivalent > 0:
		return ExitViolated
	}
	return ExitOK
}

// SurveyOf is the JSON form of a survey.
func SurveyOf(sv *checker.Survey) Survey {
	j := Survey{
		Variant: sv.Variant, Engine: sv.Engine, Semantics: sv.Options.SemanticsName(), K: sv.Options.K, Steps: sv.Options.Steps, Seed: sv.Seed, N: sv.N, Shard: sv.Shard.String(), Timeout: sv.Options.Timeout.String(), Data: sv.Data.String(),
		Programs: sv.Programs, Holds: sv.Holds, Violated: sv.Violated, Inconclusive: sv.Inconclusive,
		Verdict: sv.Status().String(), Seconds: sv.Elapsed.Seconds(), Settings: SettingsOf(sv.Options, sv.Data),
	}
	st := sv.Status()
	j.ExitCode = Exit("", false, st == checker.Violated, st == checker.Inconclusive)
	for _, s := range sv.Lemmas {
		lj := Lemma{
			Lemma: string(s.Lemma), Claim: checker.Claim[s.Lemma], Status: s.Status().String(),
			Summary: s.Summary(sv), Checks: s.Checks, Programs: s.Programs, Violations: s.Violations,
		}
		for _, u := range s.Undecided {
			lj.Undecided = append(lj.Undecided, Undecided{Index: u.Index, Seed: u.Seed, Reason: u.Reason})
		}
		if cx := s.Counterexample; cx != nil {
			r := cx.Shrunk.JSON()
			lj.Counterexample, lj.Shrunk = &r, cx.IsShrunk
			lj.FoundLines, lj.ProgramSeed, lj.ProgramIndex = checker.Lines(cx.Found.Program), cx.Seed, cx.Index
		}
		j.Lemmas = append(j.Lemmas, lj)
	}
	return j
}

// SurveysExit is the exit status of a lemmas run over these surveys (not
// interrupted): the worst status of any.
func SurveysExit(svs []Survey) int {
	v, i := false, false
	for _, s := range svs {
		v = v || s.Verdict == checker.Violated.String()
		i = i || s.Verdict == checker.Inconclusive.String()
	}
	return Exit("", false, v, i)
}
