package cli

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/engine"
)

func TestBenchUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"bench", "-json", "-csv"},
		{"bench", "-budget", "0s"},
		{"bench", "-budget", "soon"},
		{"bench", "-steps", "-1"},
		{"bench", "-variant", "no-such-variant"},
		{"bench", "extra"},
		{"bench", "-root", "/"},
		{"bench", "-also", "no-such-engine"},
		{"bench", "-also", "lazier,gse"},
		{"bench", "-also", "pose:no-such-variant"},
		{"bench", "-quick", "-data"},
		{"bench", "-data", "-plot", "/tmp"},
	} {
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != exitUsage {
			t.Errorf("%v: exit %d, want %d (stderr %q)", args, code, exitUsage, errb.String())
		}
		if out.Len() != 0 {
			t.Errorf("%v: printed %q on stdout", args, out.String())
		}
	}
}

func TestBenchQuickCSVAndOut(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	if code := run([]string{"bench", "-quick", "-csv", "-out", dir}, &out, &errb); code != exitOK {
		t.Fatalf("exit %d, stderr:\n%s", code, errb.String())
	}
	recs, err := csv.NewReader(&out).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) < 2 || recs[0][0] != "program" {
		t.Fatalf("CSV output: %v", recs)
	}
	// LinkedList k=3 is the third row: 93 GSE paths, 8 summary paths.
	if r := recs[3]; r[0] != "LinkedList" || r[1] != "3" || r[5] != "93" || r[15] != "8" {
		t.Errorf("LinkedList k=3 row: %v", r)
	}
	// The default -also engines have their columns, and the published
	// numbers theirs.
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	for _, h := range []string{"lazier_paths", "lazier#_paths", "pose_paths", "uber_paths", "paper_pose_paths"} {
		if _, ok := col[h]; !ok {
			t.Errorf("CSV header lacks %s: %v", h, recs[0])
		}
	}
	for _, f := range []string{"table.txt", "results.json", "results.csv", "fig2.png", "fig2.svg", "growth.png", "growth.svg"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("-out did not write %s: %v", f, err)
		}
	}
	table, _ := os.ReadFile(filepath.Join(dir, "table.txt"))
	// The quick suite's two programs with data: an engine without data
	// rules shows "no data" there instead of failing the run.
	for _, spec := range []string{"lazier", "lazier#", "pose"} {
		if !engine.SupportsData(spec) && !strings.Contains(string(table), "no data") {
			t.Errorf("%s has no data rules, but table.txt shows no 'no data' cell", spec)
		}
	}
	for _, want := range []string{"GSE", "hasNull", "lazier#", "dll_indexOf", "command: lockstep bench -quick -csv -out "} {
		if want == "dll_indexOf" {
			// Full suite only: a quick run must stay quick.
			if strings.Contains(string(table), want) {
				t.Errorf("table.txt has %s", want)
			}
			continue
		}
		if !strings.Contains(string(table), want) {
			t.Errorf("table.txt lacks %q:\n%s", want, table)
		}
	}
}

// bench -overhead on a named file, through the built binary (its children
// are that binary too): one row of the documented JSON shape. Timings are
// not asserted, only that they were measured.
func TestBenchOverheadFile(t *testing.T) {
	bin := cli(t)
	cmd := exec.Command(bin, "bench", "-overhead", "-runs", "1", "-json", "-engine", "summary:fixed", "-k", "1", "-steps", "100", "../testdata/programs/sum.jl")
	out, err := cmd.Output()
	require.NoError(t, err)
	var doc struct {
		Overhead []struct {
			File, Engine, Status string
			K, Steps, Runs       int
			Check                float64 `json:"check_cpu_seconds"`
			Explore              float64 `json:"explore_cpu_seconds"`
			Ratio                float64
		}
	}
	require.NoError(t, json.Unmarshal(out, &doc), string(out))
	require.Len(t, doc.Overhead, 1)
	r := doc.Overhead[0]
	require.Equal(t, "summary:fixed", r.Engine)
	require.Equal(t, "holds", r.Status)
	require.Equal(t, []int{1, 100, 1}, []int{r.K, r.Steps, r.Runs})
	require.Positive(t, r.Check)
	require.Positive(t, r.Explore)
	require.InDelta(t, r.Check/r.Explore, r.Ratio, 1e-9)
}

func TestBenchOverheadUsage(t *testing.T) {
	for _, args := range [][]string{
		{"bench", "-overhead", "-quick"},
		{"bench", "-overhead", "-csv"},
		{"bench", "-overhead", "-runs", "0"},
		{"bench", "-overhead", "-engine", "uber"},
		{"bench", "-overhead", "no-such-file.jl"},
		{"bench", "-k", "3"},
		{"bench", "-quick", "-runs", "2"},
	} {
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != exitUsage {
			t.Errorf("%v: exit %d, want %d (stderr %q)", args, code, exitUsage, errb.String())
		}
	}
}
