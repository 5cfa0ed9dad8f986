package cli

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckSemanticsPrograms: every lemma holds on the hand-written
// programs of testdata/semantics under variant fixed with both semantics,
// and the Java run checks L11 (Invoke, Invoke′) on the programs that call;
// the -json output names the semantics.
func TestCheckSemanticsPrograms(t *testing.T) {
	files, err := filepath.Glob("../testdata/semantics/*.jl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no programs: %v", err)
	}
	for _, sem := range []string{"java", "paper"} {
		args := append([]string{"check", "-variant", "fixed", "-k", "2", "-workers", "1", "-json", "-semantics", sem}, files...)
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != exitOK {
			t.Fatalf("%s: exit %d\n%s\n%s", sem, code, out.String(), errb.String())
		}
		var doc struct {
			Semantics string           `json:"semantics"`
			Reports   []map[string]any `json:"reports"`
			ExitCode  int              `json:"exit_code"`
		}
		if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		n := len(doc.Reports)
		if doc.Semantics != sem || doc.ExitCode != exitOK {
			t.Errorf("%s: JSON semantics %v, exit code %d", sem, doc.Semantics, doc.ExitCode)
		}
		for _, rep := range doc.Reports {
			if rep["semantics"] != sem {
				t.Errorf("%s: JSON semantics %v", sem, rep["semantics"])
			}
		}
		if n != len(files) {
			t.Errorf("%s: %d reports for %d files", sem, n, len(files))
		}
	}
	out := runOK(t, "check", "-variant", "fixed", "-k", "2", "-workers", "1", "../testdata/semantics/null_call.jl")
	if !strings.Contains(out, "L11×2") {
		t.Errorf("Java check of null_call.jl does not check L11 twice (Invoke and Invoke′):\n%s", out)
	}
}
