package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strconv"
	"syscall"
	"text/tabwriter"
	"time"
)

// The checker's overhead (`lockstep bench -overhead`): a check must at
// least explore both engines, so the check's CPU time over the CPU time of
// exploring each engine alone (`lockstep run -engine gse` plus `lockstep
// run -engine E`, the same k and step bound) is what the checking itself
// costs, as a factor.
//
// Each of the three commands runs as a child process of the lockstep
// binary and its CPU time is the child's user plus system time (getrusage
// of the child, os.ProcessState.SysUsage), so the figure is the one a user
// gets by timing the three commands by hand, process start and Z3's setup
// included, and other work of the measuring process never counts. The
// check runs with one worker, as the two runs do, so the ratio compares
// single-threaded work. Each command runs Runs times and the least CPU
// time counts (the least is the least disturbed by a shared machine);
// peak RSS is the check's largest.

// OverheadSteps is the step bound of a named file's case unless given:
// check's own default with a k-bound.
const OverheadSteps = 200

// OverheadTimeout is the check's time limit: far above any of the cases,
// so that a loaded machine does not cut a check short (which would make
// its CPU time meaningless; the row's status would say inconclusive).
const OverheadTimeout = "10m"

// OverheadCase is one row: a program, an engine, k and a step bound.
type OverheadCase struct {
	File   string `json:"file"`
	Engine string `json:"engine"`
	K      int    `json:"k"`
	Steps  int    `json:"steps"`
}

// OverheadCases are the three workloads of the overhead figure: the
// LinkedList driver with four calls under summary:fixed and uber at k = 3
// with 300 steps, and the BST insert under summary:fixed at k = 2.
func OverheadCases() []OverheadCase {
	return []OverheadCase{
		{File: "testdata/bench/linkedlist_calls4.jl", Engine: "summary:fixed", K: 3, Steps: 300},
		{File: "testdata/bench/linkedlist_calls4.jl", Engine: "uber", K: 3, Steps: 300},
		{File: "testdata/bench/bst_insert.jl", Engine: "summary:fixed", K: 2, Steps: 200},
	}
}

// Usage is what one child process cost.
type Usage struct {
	CPU    time.Duration // user + system
	MaxRSS int64         // peak resident set, KiB
	Exit   int
}

// Runner runs lockstep with args and reports its usage. An error is a
// failure to run it at all; a non-zero exit is in Usage.Exit.
type Runner func(ctx context.Context, args []string) (Usage, error)

// ExecRunner runs the lockstep binary exe as a child process.
func ExecRunner(exe string) Runner {
	return func(ctx context.Context, args []string) (Usage, error) {
		cmd := exec.CommandContext(ctx, exe, args...)
		cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
		err := cmd.Run()
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			return Usage{}, err
		}
		st := cmd.ProcessState
		u := Usage{CPU: st.UserTime() + st.SystemTime(), Exit: st.ExitCode()}
		if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
			u.MaxRSS = ru.Maxrss
		}
		if ctx.Err() != nil {
			return u, ctx.Err()
		}
		return u, nil
	}
}

// OverheadRow is one case measured.
type OverheadRow struct {
	OverheadCase
	// Status is the check's outcome by its exit code: holds, violated,
	// inconclusive, error.
	Status    string        `json:"status"`
	CheckCPU  time.Duration `json:"-"`
	GSECPU    time.Duration `json:"-"`
	EngineCPU time.Duration `json:"-"`
	CheckSec  float64       `json:"check_cpu_seconds"`
	GSESec    float64       `json:"gse_run_cpu_seconds"`
	EngineSec float64       `json:"engine_run_cpu_seconds"`
	// ExploreSec is GSESec + EngineSec; Ratio is CheckSec / ExploreSec.
	ExploreSec float64 `json:"explore_cpu_seconds"`
	Ratio      float64 `json:"ratio"`
	// CheckRSS is the check's peak resident set (KiB).
	CheckRSS int64 `json:"check_peak_rss_kib"`
	Runs     int   `json:"runs"`
}

// OverheadArgs are the command lines of a case: check, run of GSE, run of
// the engine.
func OverheadArgs(c OverheadCase) (check, gse, eng []string) {
	common := []string{"-k", strconv.Itoa(c.K), "-steps", strconv.Itoa(c.Steps)}
	check = append([]string{"check", "-workers", "1", "-timeout", OverheadTimeout, "-engine", c.Engine}, common...)
	gse = append([]string{"run", "-engine", "gse"}, common...)
	eng = append([]string{"run", "-engine", c.Engine}, common...)
	return append(check, c.File), append(gse, c.File), append(eng, c.File)
}

// checkStatus names a check's exit code.
func checkStatus(code int) string {
	switch code {
	case 0:
		return "holds"
	case 1:
		return "violated"
	case 3:
		return "inconclusive"
	}
	return fmt.Sprintf("error (exit %d)", code)
}

// Overhead measures every case runs times (at least once) with run.
// progress, when not nil, gets a line per case.
func Overhead(ctx context.Context, cases []OverheadCase, runs int, run Runner, progress io.Writer) ([]OverheadRow, error) {
	runs = max(runs, 1)
	var rows []OverheadRow
	for _, c := range cases {
		if progress != nil {
			fmt.Fprintf(progress, "overhead: %s %s k=%d steps=%d\n", c.File, c.Engine, c.K, c.Steps)
		}
		row := OverheadRow{OverheadCase: c, Runs: runs}
		checkArgs, gseArgs, engArgs := OverheadArgs(c)
		least := func(args []string, rss *int64, exit *int) (time.Duration, error) {
			var best time.Duration
			for i := range runs {
				u, err := run(ctx, args)
				if err != nil {
					return 0, fmt.Errorf("%s: %w", c.File, err)
				}
				if i == 0 || u.CPU < best {
					best = u.CPU
				}
				if rss != nil {
					*rss = max(*rss, u.MaxRSS)
				}
				if exit != nil {
					*exit = u.Exit
				} else if u.Exit != 0 {
					return 0, fmt.Errorf("%s: lockstep %v exited with %d", c.File, args, u.Exit)
				}
			}
			return best, nil
		}
		var err error
		exit := 0
		if row.CheckCPU, err = least(checkArgs, &row.CheckRSS, &exit); err != nil {
			return rows, err
		}
		row.Status = checkStatus(exit)
		if row.GSECPU, err = least(gseArgs, nil, nil); err != nil {
			return rows, err
		}
		if row.EngineCPU, err = least(engArgs, nil, nil); err != nil {
			return rows, err
		}
		row.CheckSec, row.GSESec, row.EngineSec = row.CheckCPU.Seconds(), row.GSECPU.Seconds(), row.EngineCPU.Seconds()
		row.ExploreSec = row.GSESec + row.EngineSec
		if row.ExploreSec > 0 {
			row.Ratio = row.CheckSec / row.ExploreSec
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// WriteOverhead prints the rows as a table, or as one JSON document.
func WriteOverhead(w io.Writer, rows []OverheadRow, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Rows []OverheadRow `json:"overhead"`
		}{slices.Clip(rows)})
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "program\tengine\tk\tsteps\tcheck CPU s\tgse run s\tengine run s\texplore s\tratio\tcheck RSS MiB\tstatus\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%.2f\t%.3f\t%.3f\t%.3f\t%.1f×\t%.0f\t%s\t\n",
			r.File, r.Engine, r.K, r.Steps, r.CheckSec, r.GSESec, r.EngineSec, r.ExploreSec, r.Ratio, float64(r.CheckRSS)/1024, r.Status)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "CPU time is user + system of each command as a child process, the least of %d run(s); ratio = check ÷ (run of gse + run of the engine)\n", runsOf(rows))
	return err
}

func runsOf(rows []OverheadRow) int {
	if len(rows) == 0 {
		return 0
	}
	return rows[0].Runs
}
