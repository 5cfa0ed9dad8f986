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
	// Also are the engines run beside GSE and the compared engine.
	Also []string `json:"also"`
	// Command is the command line that made the report.
	Command string `json:"command,omitempty"`
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

// otherCols are the CSV columns of each engine of Options.Also, after the
// fixed ones, prefixed by the engine's spec.
var otherCols = []string{"status", "paths", "value", "error", "cut", "cut_cyclic", "stuck", "states", "steps", "wall_s", "peak_heap_bytes", "solver_queries", "solver_decided_go", "solver_cache_hits", "solver_time_s"}

// pubCols are the CSV columns of the published numbers, last.
var pubCols = []string{"paper_gse_queries", "paper_lazier#_paths", "paper_pose_paths", "paper_pose_queries", "paper_refs", "paper_lazier_paths", "paper_min_cases"}

// comparedName is the registry name of the engine compared with GSE in a
// table labelled label ("summary:published", "pose"), for matching the
// published numbers.
func comparedName(label string) string {
	name, _, _ := strings.Cut(label, ":")
	if name == "" {
		return "summary"
	}
	return name
}

// WriteCSV writes one line per row with a header: the fixed columns of GSE
// and the compared engine, the columns of each engine of Options.Also
// (prefixed by its spec), then the published numbers.
func WriteCSV(w io.Writer, rows []Row) error {
	cw := csv.NewWriter(w)
	var also []string
	if len(rows) > 0 {
		for _, o := range rows[0].Others {
			also = append(also, o.Engine)
		}
	}
	header := append([]string{}, csvHeader...)
	for _, spec := range also {
		for _, c := range otherCols {
			header = append(header, spec+"_"+c)
		}
	}
	header = append(header, pubCols...)
	if err := cw.Write(header); err != nil {
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
	pub := func(r Row, eng string, val func(Pub) string) string {
		if p, ok := pubFor(r, eng); ok {
			return val(p)
		}
		return ""
	}
	pPaths := func(p Pub) string { return i(p.Paths) }
	pSecs := func(p Pub) string {
		if p.Seconds == 0 {
			return ""
		}
		return strconv.FormatFloat(p.Seconds, 'f', -1, 64)
	}
	pQueries := func(p Pub) string {
		if p.Queries < 0 {
			return ""
		}
		return i(p.Queries)
	}
	for _, r := range rows {
		rec := []string{r.Program, KString(r.K), strconv.Itoa(r.Calls), strconv.Itoa(r.Steps)}
		for _, e := range []Result{r.GSE, r.Summary} {
			rec = append(rec, string(e.Status), i(e.Paths), i(e.Value), i(e.Error), i(e.Cut), i(e.CutCyclic), i(e.Stuck), i(e.States), sec(e.Wall), strconv.FormatUint(e.PeakHeap, 10))
		}
		rec = append(rec, i(r.Summary.Queries), i(r.Summary.Decided), i(r.Summary.CacheHits), sec(r.Summary.SolverTime), ratio(r.PathRatio()), ratio(r.TimeRatio()))
		rec = append(rec, pub(r, "gse", pPaths), pub(r, "summary", pPaths), pub(r, "gse", pSecs), pub(r, "summary", pSecs))
		for _, spec := range also {
			e, _ := r.Other(spec)
			rec = append(rec, string(e.Status), i(e.Paths), i(e.Value), i(e.Error), i(e.Cut), i(e.CutCyclic), i(e.Stuck), i(e.States), i(e.Steps), sec(e.Wall),
				strconv.FormatUint(e.PeakHeap, 10), i(e.Queries), i(e.Decided), i(e.CacheHits), sec(e.SolverTime))
		}
		var refs []string
		for _, p := range r.Published {
			refs = append(refs, p.Algorithm+": "+p.Ref)
		}
		rec = append(rec, pub(r, "gse", pQueries), pub(r, "lazier#", pPaths), pub(r, "pose", pPaths), pub(r, "pose", pQueries), strings.Join(refs, "; "), pub(r, "lazier", pPaths))
		if r.LowerBound != nil {
			rec = append(rec, i(r.LowerBound.Paths))
		} else {
			rec = append(rec, "")
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteTable writes the rows as one aligned text table, one line per case
// and engine (GSE, the compared engine, labelled compared, then the
// engines of Options.Also), each with the published number of the
// algorithm it implements where a seed gives one, followed by a legend.
// budget is printed in the cells of runs cut by it.
func WriteTable(w io.Writer, rows []Row, budget time.Duration, compared string) error {
	if compared == "" {
		compared = "summary"
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "program\tk\tcalls\tengine\tpaths\tv/e/c/s\tstates\tsteps\tZ3\tGo\tcache\tsolver\twall\theap\tGSE/x paths\tGSE/x time\tmin\tpaper\tpaper paths\tpaper queries\tpaper s\tsame\tsource\t")
	flagged := false
	for _, r := range rows {
		calls := ""
		if r.Calls > 0 {
			calls = strconv.Itoa(r.Calls)
		}
		type lane struct {
			label, name string
			res         Result
		}
		lanes := []lane{{"GSE", "gse", r.GSE}, {compared, comparedName(compared), r.Summary}}
		for _, o := range r.Others {
			name, _, _ := strings.Cut(o.Engine, ":")
			lanes = append(lanes, lane{o.Engine, name, o.Result})
		}
		for i, l := range lanes {
			e := l.res
			prog, k := r.Program, KString(r.K)
			if i > 0 {
				prog, k, calls = "", "", ""
			} else if r.BoundTooSmall() {
				prog += " (!)"
				flagged = true
			}
			cells := []string{prog, k, calls, l.label,
				paths(e, budget), ends(e), count(e, e.States), count(e, e.Steps),
				count(e, e.Queries), count(e, e.Decided), count(e, e.CacheHits), dur(e, e.SolverTime),
				dur(e, e.Wall), mem(e)}
			if i == 0 {
				cells = append(cells, "", "")
			} else {
				cells = append(cells, ratio(pathRatio(r.GSE, e)), ratio(timeRatio(r.GSE, e)))
			}
			cells = append(cells, minCell(r, e))
			if p, ok := pubFor(r, l.name); ok {
				q, sec, same := "", "", "?"
				if p.Queries >= 0 {
					q = strconv.FormatInt(p.Queries, 10)
				}
				if p.Seconds > 0 {
					sec = strconv.FormatFloat(p.Seconds, 'f', -1, 64)
				}
				if agree, ok := p.Agrees(e); ok {
					same = "≠"
					if agree {
						same = "="
					}
					if p.Value {
						same += "v"
					}
				}
				cells = append(cells, p.Algorithm, pubCell(p), q, sec, same, p.Ref)
			} else {
				cells = append(cells, "", "", "", "", "", "")
			}
			fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t")
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nOne line per case and engine: GSE, the compared engine (%s), then the engines of -also, with the same k-bound, step bound and budget.\n", compared)
	fmt.Fprintf(w, "v/e/c/s: value / error / cut by the step bound / stuck (paths = their sum). states, steps: machine states created and steps taken.\n")
	fmt.Fprintf(w, "Z3 / Go: satisfiability checks answered by Z3 / by smt's Go decision procedure; cache: answered from the solver's cache; solver: time inside Z3.\n")
	fmt.Fprintf(w, "GSE/x: GSE's paths and wall time over this engine's. n/a: the case does not apply (an engine without a k-bound on a finite-k case).\n")
	fmt.Fprintf(w, "no data: the program has int/bool data and the engine has no data rules yet (PRIMITIVES.md §4); the cell fills in when it learns them.\n")
	fmt.Fprintf(w, "min: seed 002 App. B's fewest cases for the operation and tree (002 B), the bar no engine can go below; '≥' / '<' says whether\n")
	fmt.Fprintf(w, "  this engine's completed paths (value + error) meet it ('<' would be an engine losing cases).\n")
	fmt.Fprintf(w, "paper: the algorithm of the seed paper printed beside the engine that implements it (lazy initialization beside GSE, SH beside the summary engine),\n")
	fmt.Fprintf(w, "  its paths or traces, solver queries and seconds as published (their machines and tools, not ours). same: '=' if it equals our completed paths\n")
	fmt.Fprintf(w, "  (value + error; the papers count neither step-bound cuts, which are the cyclic lists their invariant excludes, nor stuck ends), '=v'/'≠v'\n")
	fmt.Fprintf(w, "  compared with our value paths (POSE has no NPE traces); '?' if our run did not finish. docs/RESULTS.md says why each '≠' differs.\n")
	fmt.Fprintf(w, "  †: not in the seed's OCR text (shared/seeds/); the source says where it comes from. Sources:\n")
	for _, ref := range Refs {
		fmt.Fprintf(w, "    %s: %s\n", ref.Ref, ref.Source)
	}
	fmt.Fprintf(w, "cut >%v: the run exceeded the time budget; its counts are lower bounds. skipped: a smaller case of the series was cut for that engine,\n", budget)
	fmt.Fprintf(w, "  or, for an engine whose rules do not stop within a rule application (uber, pose), took more than a quarter of the budget.\n")
	fmt.Fprintf(w, "heap: %s.\n", HeapNote)
	if flagged {
		for _, r := range rows {
			if r.BoundTooSmall() {
				fmt.Fprintf(w, "(!) %s k=%s: the step bound %d cut a path whose heap has no cycle; raise -steps.\n", r.Program, KString(r.K), r.Steps)
			}
		}
	}
	return nil
}

// pathRatio is g's paths over e's, 0 when either did not finish.
func pathRatio(g, e Result) float64 {
	if g.Status != Done || e.Status != Done || e.Paths == 0 {
		return 0
	}
	return float64(g.Paths) / float64(e.Paths)
}

// timeRatio is g's wall time over e's, 0 when either did not finish.
func timeRatio(g, e Result) float64 {
	if g.Status != Done || e.Status != Done || e.Wall == 0 {
		return 0
	}
	return float64(g.Wall) / float64(e.Wall)
}

// minCell prints the row's lower bound and whether e's completed paths
// meet it.
func minCell(r Row, e Result) string {
	if r.LowerBound == nil {
		return ""
	}
	n := strconv.FormatInt(r.LowerBound.Paths, 10)
	if e.Status != Done {
		return n
	}
	if e.Completed() < r.LowerBound.Paths {
		return n + " <"
	}
	return n + " ≥"
}

func paths(e Result, budget time.Duration) string {
	switch e.Status {
	case NoData:
		return "no data"
	case Skipped:
		return "skipped"
	case NotRun:
		return "n/a"
	case Budget:
		return fmt.Sprintf("≥%d cut >%v", e.Paths, budget)
	}
	return strconv.FormatInt(e.Paths, 10)
}

func ends(e Result) string {
	if !e.ran() {
		return "-"
	}
	return fmt.Sprintf("%d/%d/%d/%d", e.Value, e.Error, e.Cut, e.Stuck)
}

func count(e Result, n int64) string {
	if !e.ran() {
		return "-"
	}
	return strconv.FormatInt(n, 10)
}

func dur(e Result, d time.Duration) string {
	if !e.ran() {
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
	if !e.ran() {
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
