package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/lockstep-dev/lockstep/checker"
	"github.com/lockstep-dev/lockstep/internal/report"
)

// parseFlags parses args with fs, taking flags wherever they are among the
// file names (`check swap.jl -k 3`), as people type them; "--" ends the
// flags, so a file whose name starts with '-' is given after it.
func parseFlags(fs *flag.FlagSet, args []string) error {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		if i := len(args) - len(rest) - 1; i >= 0 && args[i] == "--" {
			pos = append(pos, rest...)
			break
		}
		pos, args = append(pos, rest[0]), rest[1:]
	}
	return fs.Parse(append([]string{"--"}, pos...))
}

// usageErr is a usage error (exit 2) with a message.
type usageErr struct{ msg string }

func (e usageErr) Error() string { return e.msg }

func usageError(format string, args ...any) error {
	return usageErr{fmt.Sprintf(format, args...)}
}

// atLeast range-checks an integer flag.
func atLeast(name string, v, min int) error {
	if v < min {
		return usageError("-%s must be at least %d, not %d", name, min, v)
	}
	return nil
}

// kRange range-checks a k-bound: -1 is no bound, else at least 0.
func kRange(name string, k int) error {
	if k < -1 {
		return usageError("-%s must be -1 (no k-bound) or at least 0, not %d", name, k)
	}
	return nil
}

// positive range-checks a duration flag.
func positive(name string, d time.Duration) error {
	if d <= 0 {
		return usageError("-%s must be a positive duration (as 10s), not %s", name, d)
	}
	return nil
}

// shardOf reads -shard for a stream of n programs: a shard with no
// program of the stream (-shard 5/10 -n 3) is a usage error, not a run
// that checks nothing and holds.
func shardOf(spec string, n int) (checker.Shard, error) {
	sh, err := checker.ParseShardFlag(spec)
	if err != nil {
		return sh, usageError("-shard: %v", err)
	}
	if !sh.Whole() && sh.Len(n) == 0 {
		return sh, usageError("-shard %s of a stream of %d programs holds no program: give at most %d shards", spec, n, n)
	}
	return sh, nil
}

// interruptedStatus is the JSON status of a run ctx's signal ended.
func interruptedStatus(ctx context.Context) report.Status {
	st := report.Status{Interrupted: true, ExitCode: exitSIGINT}
	if sig := interruptedBy(ctx); sig != nil {
		st.Signal, st.ExitCode = signalName(sig), signalExit(sig)
	}
	return st
}

// statusOf is the JSON status of a run that ends with err under ctx.
func statusOf(ctx context.Context, err error) report.Status {
	if ctx.Err() != nil {
		return interruptedStatus(ctx)
	}
	return report.Status{ExitCode: exitCode(ctx, err)}
}

// exitErr is the error that makes exitCode return code (after the results
// were printed).
func exitErr(code int) error {
	switch code {
	case exitOK:
		return nil
	case exitViolation:
		return errViolation
	case exitInconclusive:
		return errInconclusive
	}
	return exitCodeError{code}
}

// endFiles ends a command over files: it sets *st, the status inside doc,
// from the worst outcome (or the interruption), then prints doc as JSON or,
// when interrupted, says that the results already printed are what
// finished; its error carries the exit code.
func endFiles(ctx context.Context, stdout io.Writer, asJSON bool, doc any, st *report.Status, violated, inconclusive bool) error {
	*st = report.Status{ExitCode: report.Exit("", false, violated, inconclusive)}
	if ctx.Err() != nil {
		*st = interruptedStatus(ctx)
	}
	if asJSON {
		if err := encodeIndented(stdout, doc); err != nil {
			return err
		}
	} else if ctx.Err() != nil {
		fmt.Fprintf(stdout, "%s: the results above are what finished\n", interruptNote(ctx))
	}
	return exitErr(st.ExitCode)
}

// exitCodeError carries an exit code read from elsewhere (a shard's JSON,
// for merge) to exitCode.
type exitCodeError struct{ code int }

func (e exitCodeError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

func encodeIndented(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// genOnly refuses the flags of a generated stream (-n, -seed, …) when
// files are checked instead: given, they would be silently ignored.
func genOnly(fs *flag.FlagSet, names ...string) error {
	for _, name := range names {
		if flagSet(fs, name) {
			return usageError("-%s is for a generated stream (-gen); with files it has no effect: drop it", name)
		}
	}
	return nil
}
