package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/lockstep-dev/lockstep/checker"
	"github.com/lockstep-dev/lockstep/gen"
	"github.com/lockstep-dev/lockstep/internal/report"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/jvm"
	"github.com/lockstep-dev/lockstep/machine"
)

func init() {
	register(&command{
		name:   "jvm-diff",
		short:  "run programs on input heaps with lockstep's interpreter and on the JVM, and report every disagreement",
		usage:  "[-gen -n N -seed S] [-k K] [-objects N] [-inputs N] [-steps N] [-json] [FILE|DIR ...]",
		runCtx: runJVMDiff,
	})
}

// runJVMDiff is the differential of package jvm: generated programs (with
// -gen, program i of the stream is the one `check -gen` draws as its i-th)
// and named files (a directory stands for every .jl under it that checks).
func runJVMDiff(ctx context.Context, fs *flag.FlagSet, args []string, stdout, stderr io.Writer) error {
	useGen := fs.Bool("gen", false, "draw generated programs (with the files, if any)")
	n := fs.Int("n", 100, "with -gen: number of programs")
	seed := fs.Int64("seed", 1, "with -gen: seed of the program stream (the stream of check -gen)")
	data := fs.String("data", "mixed", "with -gen: data in the programs: mixed or none")
	k := fs.Int("k", 2, "BFS depth of the input heaps (ORC's k-bound)")
	objects := fs.Int("objects", 3, "objects per input heap")
	inputs := fs.Int("inputs", 64, "inputs per program: all when there are fewer, else a seeded sample")
	steps := fs.Int("steps", 2000, "lockstep's step bound; a run it cuts is run again at 10× before it is compared")
	fuel := fs.Int64("fuel", jvm.DefaultFuel, "method calls one JVM case may make before it is cut")
	shrink := fs.Int("shrink", 3, "shrink the first N unexplained disagreements (0: report them as found)")
	sem := semanticsFlag(fs)
	asJSON := fs.Bool("json", false, "print one JSON document: the report (pairs, agreements by outcome, explained disagreements by category, the unexplained ones shrunk) and \"exit_code\"")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *sem != machine.SemJava {
		return usageError("-semantics %s: the JVM runs the Java semantics only (use -semantics java)", *sem)
	}
	for _, c := range []struct {
		name string
		v    int
		min  int
	}{{"n", *n, 1}, {"k", *k, 0}, {"objects", *objects, 1}, {"inputs", *inputs, 1}, {"steps", *steps, 1}, {"fuel", int(*fuel), 1}, {"shrink", *shrink, 0}} {
		if err := atLeast(c.name, c.v, c.min); err != nil {
			return err
		}
	}
	if !*useGen && fs.NArg() == 0 {
		fs.Usage()
		return usageError("no files (or use -gen)")
	}
	dataMode, err := gen.ParseDataMode(*data)
	if err != nil {
		return usageError("-data: %v", err)
	}
	if !jvm.HaveJDK() {
		return usageError("%v", jvm.ErrNoJDK)
	}
	var progs []jvm.Named
	for _, arg := range fs.Args() {
		st, err := os.Stat(arg)
		if err != nil || !st.IsDir() {
			ps, err := loadPrograms([]string{arg}, stderr)
			if err != nil {
				return err
			}
			progs = append(progs, jvm.Named{Name: arg, P: ps[0]})
			continue
		}
		// In a directory, the files that do not check (testdata/errors)
		// are no programs and are skipped.
		_ = filepath.WalkDir(arg, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".jl") {
				if p, err := javalite.LoadFile(path); err == nil {
					progs = append(progs, jvm.Named{Name: path, P: p})
				}
			}
			return nil
		})
	}
	if *useGen {
		for i := range *n {
			s := checker.ProgramSeed(*seed, i)
			progs = append(progs, jvm.Named{Name: fmt.Sprintf("check -gen -seed %d -data %s, program %d (seed %d)", *seed, dataMode, i, s), P: checker.ProgramOfData(s, dataMode)})
		}
	}
	o := jvm.Options{K: *k, MaxObjects: *objects, Bound: *steps, MaxInputs: *inputs, Seed: uint64(*seed), Fuel: *fuel, Shrink: *shrink}
	start := time.Now()
	rep, err := jvm.Diff(ctx, progs, o, func(r *jvm.Report) {
		progressLine(stderr, "%d/%d programs, %d pairs, %d unexplained", r.Programs, len(progs), r.Pairs, r.Unexplained)
	})
	if err != nil {
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			return errInterrupted
		}
		return err
	}
	code := exitOK
	if !rep.OK() {
		code = exitViolation
	}
	if *asJSON {
		type diffJSON struct {
			*jvm.Report
			LockstepSeconds float64 `json:"lockstep_seconds"`
			JavacSeconds    float64 `json:"javac_seconds"`
			JVMSeconds      float64 `json:"jvm_seconds"`
			report.Status
		}
		if err := encodeIndented(stdout, diffJSON{rep, rep.LockstepTime.Seconds(), rep.JavacTime.Seconds(), rep.JVMTime.Seconds(), report.Status{ExitCode: code}}); err != nil {
			return err
		}
		return exitErr(code)
	}
	fmt.Fprintln(stdout, rep)
	fmt.Fprintf(stdout, "time: lockstep %.1fs, javac %.1fs, jvm %.1fs (wall, total %.1fs)\n", rep.LockstepTime.Seconds(), rep.JavacTime.Seconds(), rep.JVMTime.Seconds(), time.Since(start).Seconds())
	if rep.OK() {
		fmt.Fprintln(stdout, "AGREE: every disagreement is explained")
	} else {
		fmt.Fprintf(stdout, "DISAGREE: %d unexplained disagreements\n", rep.Unexplained)
	}
	return exitErr(code)
}
