package checker

import (
	"fmt"
	"strconv"
	"strings"
)

// Sharding splits a program stream over machines. Program i of a stream
// (ProgramSeed(seed, i)) belongs to shard i mod n, so shard I/N checks the
// programs I, I+N, I+2N, … below the stream's length, and shards 0/N …
// N-1/N together check exactly the programs one unsharded run checks,
// each once. Every program keeps its index and seed in the stream, so
// results of shards name programs the way the unsharded run does, and a
// merge (`lockstep merge`) can pick the earliest counterexample of the
// stream the way the unsharded run picks it.

// Shard is the part I of N of a program stream. The zero value (N = 0) and
// N = 1 are the whole stream.
type Shard struct{ I, N int }

// ParseShard reads "I/N" with 0 ≤ I < N.
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("shard %q: want I/N with 0 ≤ I < N, as 0/3", s)
	}
	return Shard{I: i, N: n}, nil
}

// Whole reports whether s is the whole stream.
func (s Shard) Whole() bool { return s.N <= 1 }

// String is "I/N", or "" for the whole stream.
func (s Shard) String() string {
	if s.Whole() {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.I, s.N)
}

// Len is how many of the programs 0..total-1 belong to s.
func (s Shard) Len(total int) int {
	if s.Whole() {
		return total
	}
	if total <= s.I {
		return 0
	}
	return (total-s.I-1)/s.N + 1
}

// Index is the stream index of the j-th program of s.
func (s Shard) Index(j int) int {
	if s.Whole() {
		return j
	}
	return s.I + j*s.N
}

// Evidence is what the one-line summary of a lemma (LemmaStat.Summary) is
// made of, in plain values, so that a merge of shard results, which has
// them from JSON, writes the same line as the unsharded run.
type Evidence struct {
	Checks, Programs, Violations int
	Undecided                    []Undecided
	// Of the counterexample kept, when violated: its size found and
	// shrunk, whether rapid shrank it, the rule of its failing step and its
	// program seed.
	FoundLines, ShrunkLines int
	Shrunk                  bool
	Rule                    string
	Seed                    int64
}

// Evidence returns the evidence of s.
func (s *LemmaStat) Evidence() Evidence {
	e := Evidence{Checks: s.Checks, Programs: s.Programs, Violations: s.Violations, Undecided: s.Undecided}
	if cx := s.Counterexample; cx != nil {
		e.FoundLines, e.ShrunkLines, e.Shrunk = Lines(cx.Found.Program), Lines(cx.Shrunk.Program), cx.IsShrunk
		e.Rule, e.Seed = cx.Shrunk.Verdict.Rule, cx.Seed
	}
	return e
}

// Status is the lemma's status: Violated with any violation; Inconclusive
// when it was never checked or was undecided on some program (an
// undecided check is never a pass); Holds otherwise.
func (e Evidence) Status() Status {
	switch {
	case e.Violations > 0:
		return Violated
	case e.Checks == 0 || len(e.Undecided) > 0:
		return Inconclusive
	}
	return Holds
}

// Summary is one line for people: the status and its evidence, over a
// survey of programs programs of which stopped stopped at their first
// failure (violation or undecided check).
func (e Evidence) Summary(programs, stopped int) string {
	switch e.Status() {
	case Violated:
		how := "shrunk"
		if !e.Shrunk {
			how = "not shrunk"
		}
		return fmt.Sprintf("violated on %d of %d programs; smallest counterexample %d lines (%s from %d; rule %s, program seed %d)",
			e.Violations, programs, e.ShrunkLines, how, e.FoundLines, ruleOrNone(e.Rule), e.Seed)
	case Inconclusive:
		if e.Checks == 0 && len(e.Undecided) == 0 {
			return fmt.Sprintf("inconclusive: never checked on %d programs%s", programs, stoppedNote(stopped))
		}
		var b strings.Builder
		fmt.Fprintf(&b, "inconclusive: undecided on %d program(s)", len(e.Undecided))
		if e.Checks > 0 {
			fmt.Fprintf(&b, ", held %d checks on the %d programs where it was checked", e.Checks, e.Programs)
		} else {
			b.WriteString(", never decided")
		}
		fmt.Fprintf(&b, "; first: program %d (seed %d): %s", e.Undecided[0].Index, e.Undecided[0].Seed, e.Undecided[0].Reason)
		return b.String()
	}
	// "Holds on all N" only when every program was checked to its end:
	// a program stopped at another lemma's failure was checked for this
	// one only up to that point.
	if e.Programs == programs && stopped == 0 {
		return fmt.Sprintf("holds on %d programs (%d checks)", e.Programs, e.Checks)
	}
	return fmt.Sprintf("holds on the %d program(s) where it was checked, of %d (%d checks)%s",
		e.Programs, programs, e.Checks, stoppedNote(stopped))
}

func stoppedNote(n int) string {
	if n > 0 {
		return fmt.Sprintf("; %d program(s) stopped at their first failure (violation or undecided check), so later checks did not run on them", n)
	}
	return ""
}

// ParseShardFlag is ParseShard for a command-line flag, where "" is the
// whole stream.
func ParseShardFlag(s string) (Shard, error) {
	if s == "" {
		return Shard{}, nil
	}
	return ParseShard(s)
}
