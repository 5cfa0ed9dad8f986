package bench

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

// Report is what the JSON output holds: the settings and the rows.
type Report struct {
	Suite   string `json:"suite"`
	Variant string `json:"variant"`
	// Semantics is the common-rule semantics (V10/V11) of both engines.
	Semantics string        `json:"semantics"`
	Steps     int           `json:"step_bound"`
	Budget    time.Duration `json:"budget_ns"`
	GoMaxP    int           `json:"gomaxprocs"`
	Total     time.Duration `json:"total_wall_ns"`
	Rows      []Row         `json:"rows"`
	HeapNote  string        `json:"peak_heap_note"`
	// Interrupted: a signal stopped the run; Rows are the cases that
	// finished. ExitCode is the process's exit status (set by the CLI).
	Interrupted bool `json:"interrupted"`
	ExitCode    int  `json:"exit_code"`
}

// HeapNote says what the peak-memory columns measure.
const HeapNote = "peak Go heap (runtime/metrics /memory/classes/heap/objects:bytes, sampled every 5 ms) above the heap before the run; Z3's C heap not included"

// WriteJSON writes the report as indented JSON.
func WriteJSON(w io.Writer, r Report) error {
	r.HeapNote = HeapNote
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

var csvHeader = []string{
	"program", "k", "calls", "step_bound",
	"gse_status", "gse_paths", "gse_value", "gse_error", "gse_cut", "gse_cut_cyclic", "gse_stuck", "gse_states", "gse_wall_s", "gse_peak_heap_bytes",
	"sum_status", "sum_paths", "sum_value", "sum_error", "sum_cut", "sum_cut_cyclic", "sum_stuck", "sum_states", "sum_wall_s", "sum_peak_heap_bytes",
	"sum_solver_queries", "sum_solver_decided_go", "sum_solver_cache_hits", "sum_solver_time_s",
	"ratio_paths", "ratio_time",
	"paper_gse_paths", "paper_sum_paths", "paper_gse_s", "paper_sum_s",
}

// paperRow is seed 000's Table 1 row for a row of the five-call k series,
// if the paper has one.
func paperRow(r Row) (gse, sum, gseS, sumS string, ok bool) {
	if r.Series != SeriesLinkedList5K {
		return "", "", "", "", false
	}
	num := func(f float64) string {
		if f == 0 {
			return "-" // not published
		}
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	for _, p := range PaperLinkedList5 {
		if p.K == r.K {
			return num(p.GSE), num(p.SH), num(p.GSETime), num(p.SHTm), true
		}
	}
	return "", "", "", "", false
}

// WriteCSV writes one line per row with a header.
func WriteCSV(w io.Writer, rows []Row) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(csvHeader); err != nil {
		return err
	}
	i := func(n int64) string { return strconv.FormatInt(n, 10) }
	sec := func(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', 6, 64) }
	ratio := func(f float64) string {
		if f == 0 {
			return ""
		}
		return strconv.FormatFloat(f, 'f', 3, 64)
	}
	for _, r := range rows {
		rec := []string{r.Program, KString(r.K), strconv.Itoa(r.Calls), strconv.Itoa(r.Steps)}
		for _, e := range []Result{r.GSE, r.Summary} {
			rec = append(rec, string(e.Status), i(e.Paths), i(e.Value), i(e.Error), i(e.Cut), i(e.CutCyclic), i(e.Stuck), i(e.States), sec(e.Wall), strconv.FormatUint(e.PeakHeap, 10))
		}
		rec = append(rec, i(r.Summary.Queries), i(r.Summary.Decided), i(r.Summary.CacheHits), sec(r.Summary.SolverTime), ratio(r.PathRatio()), ratio(r.TimeRatio()))
		pg, ps, pgs, pss, _ := paperRow(r)
		rec = append(rec, strings.TrimPrefix(pg, "-"), strings.TrimPrefix(ps, "-"), strings.TrimPrefix(pgs, "-"), strings.TrimPrefix(pss, "-"))
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteTable writes the rows as one aligned text table, followed by a
// legend. budget is printed in the cells of runs cut by it.
func WriteTable(w io.Writer, rows []Row, budget time.Duration) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "program\tk\tcalls\tGSE paths\tv/e/c/s\tSH paths\tv/e/c/s\tGSE states\tSH states\tSH Z3\tSH Go\tSH cache\tSH solver\tGSE wall\tSH wall\tGSE heap\tSH heap\tpaths G/S\ttime G/S\tpaper GSE\tpaper SH\tpaper GSE s\tpaper SH s\t")
	for _, r := range rows {
		calls := ""
		if r.Calls > 0 {
			calls = strconv.Itoa(r.Calls)
		}
		g, s := r.GSE, r.Summary
		cells := []string{r.Program, KString(r.K), calls,
			paths(g, budget), ends(g), paths(s, budget), ends(s),
			count(g, g.States), count(s, s.States),
			count(s, s.Queries), count(s, s.Decided), count(s, s.CacheHits), dur(s, s.SolverTime),
			dur(g, g.Wall), dur(s, s.Wall), mem(g), mem(s),
			ratio(r.PathRatio()), ratio(r.TimeRatio())}
		if pg, ps, pgs, pss, ok := paperRow(r); ok {
			cells = append(cells, pg, ps, pgs, pss)
		} else {
			cells = append(cells, "", "", "", "")
		}
		if r.BoundTooSmall() {
			cells[0] += " (!)"
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nv/e/c/s: value / error / cut by the step bound / stuck (paths = their sum). SH = heap summaries.\n")
	fmt.Fprintf(w, "SH Z3 / SH Go: satisfiability checks answered by Z3 / by smt's Go decision procedure; SH solver: time inside Z3.\n")
	fmt.Fprintf(w, "paper: seed 000's Table 1 (five calls, JPF on the authors' machine; seconds as published), beside the five-call rows.\n")
	fmt.Fprintf(w, "cut >%v: the run exceeded the time budget; its counts are lower bounds. skipped: a smaller case of the series was cut.\n", budget)
	fmt.Fprintf(w, "heap: %s.\n", HeapNote)
	for _, r := range rows {
		if r.BoundTooSmall() {
			fmt.Fprintf(w, "(!) %s k=%s: the step bound %d cut a path whose heap has no cycle; raise -steps.\n", r.Program, KString(r.K), r.Steps)
		}
	}
	return nil
}

func paths(e Result, budget time.Duration) string {
	switch e.Status {
	case Skipped:
		return "skipped"
	case Budget:
		return fmt.Sprintf("≥%d cut >%v", e.Paths, budget)
	}
	return strconv.FormatInt(e.Paths, 10)
}

func ends(e Result) string {
	if e.Status == Skipped {
		return "-"
	}
	return fmt.Sprintf("%d/%d/%d/%d", e.Value, e.Error, e.Cut, e.Stuck)
}

func count(e Result, n int64) string {
	if e.Status == Skipped {
		return "-"
	}
	return strconv.FormatInt(n, 10)
}

func dur(e Result, d time.Duration) string {
	if e.Status == Skipped {
		return "-"
	}
	return FormatDuration(d)
}

// FormatDuration prints a duration with three significant digits.
func FormatDuration(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%.0fµs", float64(d)/float64(time.Microsecond))
	case d < time.Second:
		return fmt.Sprintf("%.1fms", float64(d)/float64(time.Millisecond))
	}
	return fmt.Sprintf("%.2fs", d.Seconds())
}

func mem(e Result) string {
	if e.Status == Skipped {
		return "-"
	}
	b := float64(e.PeakHeap)
	switch {
	case b < 1<<20:
		return fmt.Sprintf("%.0fKiB", b/(1<<10))
	case b < 1<<30:
		return fmt.Sprintf("%.1fMiB", b/(1<<20))
	}
	return fmt.Sprintf("%.2fGiB", b/(1<<30))
}

func ratio(f float64) string {
	if f == 0 {
		return "-"
	}
	if f >= 100 {
		return fmt.Sprintf("%.0f", f)
	}
	return fmt.Sprintf("%.2f", f)
}
