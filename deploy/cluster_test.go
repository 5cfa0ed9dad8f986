package deploy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/internal/report"
)

// TestCluster runs the Slurm scripts against a running Slurm (make
// cluster-test starts one: deploy/slurm/cluster-test.sh): a 4-shard array
// of check -gen -n 200 -seed 1 for a correct engine and for
// summary:published, whose merges must equal the unsharded runs in
// counts, verdict and exit status; then a submission with one task
// cancelled, whose merge must refuse (exit 2), name the shard and print the
// sbatch line that runs it again, and, that line run, merge to the
// unsharded run; the same with a result truncated afterwards; and a task
// signalled as at its time limit, whose merge is interrupted (143) and
// names it, until it is run again.
func TestCluster(t *testing.T) {
	if os.Getenv("LOCKSTEP_CLUSTER") == "" || os.Getenv("SLURM_CONF") == "" {
		t.Skip("needs a running Slurm: make cluster-test")
	}
	bin, err := filepath.Abs("../bin/lockstep")
	require.NoError(t, err)
	require.FileExists(t, bin, "make build first")
	base := os.Getenv("LOCKSTEP_CLUSTER_DIR")
	if base == "" {
		base = t.TempDir()
	}
	// The shrunk counterexample is not compared (its program may differ
	// with the time shrinking had), only what was found: 5 s is enough.
	flags := []string{"-seed", "1", "-shrink-time", "5s"}

	type result struct {
		g    report.Generated
		code int
	}
	wholes := map[string]result{}
	for _, eng := range []string{"summary:fixed", "summary:published"} {
		t.Run(eng, func(t *testing.T) {
			whole, code := unsharded(t, bin, 200, append(flags, "-engine", eng)...)
			wholes[eng] = result{whole, code}
			dir := filepath.Join(base, strings.ReplaceAll(eng, ":", "-"))
			// One CPU a task: two tasks at a time on the node.
			_, merge := submit(t, bin, dir, 200, 4, 1, append(flags, "-engine", eng)...)
			waitJobs(t, merge)
			requireMerged(t, dir, whole, code)
		})
	}

	// Each task takes both CPUs of the node in what follows, so the tasks
	// run one at a time: task 3 is still pending when it is cancelled, and
	// task 0 is running alone when it is signalled.
	t.Run("cancelled task", func(t *testing.T) {
		eng := "summary:published"
		w, ok := wholes[eng]
		require.True(t, ok, "needs the unsharded run of %s", eng)
		dir := filepath.Join(base, "cancelled")
		array, merge := submit(t, bin, dir, 200, 4, 2, append(flags, "-engine", eng)...)
		slurm(t, "scancel", array+"_3")
		waitJobs(t, array, merge)
		require.Equal(t, "2", readTrim(t, filepath.Join(dir, "merge.exit")), "a merge with a shard lost refuses")
		require.NoFileExists(t, filepath.Join(dir, "merged.json"))
		log := readTrim(t, filepath.Join(dir, "logs", "merge-"+merge+".out"))
		require.Contains(t, log, "no result of shard(s) 3/4 of 4")
		resubmit(t, dir, log, "3")
		requireMerged(t, dir, w.g, w.code)

		// A result truncated after the fact (a full disk, a copy cut
		// short): the merge names the file and the shard.
		f := filepath.Join(dir, "shard-1", "result.json")
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(f, b[:len(b)/2], 0o644))
		merge = slurm(t, "sbatch", "--parsable", "--output="+filepath.Join(dir, "logs", "merge-%j.out"), "merge.sbatch", dir)
		waitJobs(t, merge)
		require.Equal(t, "2", readTrim(t, filepath.Join(dir, "merge.exit")))
		log = readTrim(t, filepath.Join(dir, "logs", "merge-"+merge+".out"))
		require.Contains(t, log, f+": ")
		require.Contains(t, log, "no result of shard(s) 1/4 of 4")
		resubmit(t, dir, log, "1")
		requireMerged(t, dir, w.g, w.code)
	})

	// At its time limit Slurm signals every process of a task (SIGTERM,
	// then SIGKILL after KillWait): scancel --full --signal=TERM does the
	// same at once. The shard keeps its interrupted result; the merge is
	// interrupted (143) and names the shard to run again.
	t.Run("signalled task", func(t *testing.T) {
		eng := "summary:fixed"
		w, ok := wholes[eng]
		require.True(t, ok, "needs the unsharded run of %s", eng)
		dir := filepath.Join(base, "signalled")
		// Two shards of one worker: shard 0 checks 100 programs, seconds
		// of work, and is signalled a second after lockstep started.
		array, merge := submit(t, bin, dir, 200, 2, 2, append(flags, "-engine", eng, "-workers", "1")...)
		waitProcess(t, filepath.Join(dir, "shard-0", "cases"))
		time.Sleep(time.Second)
		slurm(t, "scancel", "--full", "--signal=TERM", array+"_0")
		waitJobs(t, array, merge)
		res := readTrim(t, filepath.Join(dir, "shard-0", "result.json"))
		require.Contains(t, res, `"interrupted": true`, "the shard keeps what it finished")
		require.Equal(t, "143", readTrim(t, filepath.Join(dir, "merge.exit")), "the merge of an interrupted shard is interrupted")
		log := readTrim(t, filepath.Join(dir, "logs", "merge-"+merge+".out"))
		require.Contains(t, log, "shard(s) 0/2 of 2 were interrupted")
		resubmit(t, dir, log, "0")
		requireMerged(t, dir, w.g, w.code)
	})
}

// resubmit runs the sbatch line the merge printed in log for the shards
// array, exactly as printed, then the merge again after it.
func resubmit(t *testing.T, dir, log, array string) {
	t.Helper()
	line := regexp.MustCompile(`(?m)^  (sbatch --array=` + array + ` .*)$`).FindStringSubmatch(log)
	require.NotNilf(t, line, "no resubmission of shards %s in the merge's log:\n%s", array, log)
	out, err := exec.Command("bash", "-c", line[1]).CombinedOutput()
	require.NoErrorf(t, err, "%s: %s", line[1], out)
	again := regexp.MustCompile(`Submitted batch job (\d+)`).FindStringSubmatch(string(out))
	require.NotNil(t, again, string(out))
	merge := slurm(t, "sbatch", "--parsable", "--dependency=afterany:"+again[1],
		"--output="+filepath.Join(dir, "logs", "merge-%j.out"), "merge.sbatch", dir)
	waitJobs(t, again[1], merge)
}

// waitProcess waits until a process runs whose command line names arg.
func waitProcess(t *testing.T, arg string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Minute)
	for {
		files, _ := filepath.Glob("/proc/[0-9]*/cmdline")
		for _, f := range files {
			if b, err := os.ReadFile(f); err == nil && bytes.Contains(b, []byte(arg)) {
				return
			}
		}
		require.Truef(t, time.Now().Before(deadline), "no process with %s", arg)
		time.Sleep(100 * time.Millisecond)
	}
}

// unsharded runs check -gen over the whole stream and returns its -json
// result and exit status. It runs with one worker: a run that stops at its
// first violation counts the programs before it, and with more workers
// also those other workers finished meanwhile (the merge reports the
// former: internal/report).
func unsharded(t *testing.T, bin string, n int, flags ...string) (report.Generated, int) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"check", "-gen", "-n", fmt.Sprint(n), "-json", "-save", t.TempDir(), "-workers", "1"}, flags...)...)
	var out bytes.Buffer
	cmd.Stdout = &out
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	var g report.Generated
	require.NoError(t, json.Unmarshal(out.Bytes(), &g))
	return g, code
}

// submit runs submit.sh and returns the ids of the array and merge jobs.
func submit(t *testing.T, bin, dir string, n, shards, cpus int, flags ...string) (array, merge string) {
	t.Helper()
	args := append([]string{"-n", fmt.Sprint(n), "-shards", fmt.Sprint(shards), "-cpus", fmt.Sprint(cpus), "-dir", dir, "-lockstep", bin, "-time", "0:20:00", "--"}, flags...)
	out, err := exec.Command("slurm/submit.sh", args...).CombinedOutput()
	require.NoErrorf(t, err, "submit.sh: %s", out)
	m := regexp.MustCompile(`array job (\d+) .*merge job (\d+)`).FindStringSubmatch(string(out))
	require.NotNilf(t, m, "submit.sh printed no job ids: %s", out)
	t.Logf("%s", out)
	return m[1], m[2]
}

// requireMerged checks the run's merge against the unsharded run: the
// merge job's status and the merged counts, verdict and counterexample.
func requireMerged(t *testing.T, dir string, whole report.Generated, code int) {
	t.Helper()
	require.Equal(t, fmt.Sprint(code), readTrim(t, filepath.Join(dir, "merge.exit")), "the merge exits with the unsharded run's status")
	var m report.Generated
	require.NoError(t, json.Unmarshal([]byte(readTrim(t, filepath.Join(dir, "merged.json"))), &m))
	require.Equal(t, code, m.ExitCode)
	type counts struct {
		Programs, Holds, Inconclusive, Violated int
		Index                                   *int
		Seed                                    *int64
		Lemma                                   string
		Undecided                               []report.Undecided
	}
	c := func(g report.Generated) counts {
		k := counts{g.Programs, g.Holds, g.Inconclusive, g.Violated, g.FailingIndex, g.FailingSeed, "", g.Undecided}
		if g.Counterexample != nil {
			k.Lemma = g.Counterexample.Lemma
		}
		return k
	}
	require.Equal(t, c(whole), c(m))
}

// waitJobs waits until the jobs have ended, in any state.
func waitJobs(t *testing.T, ids ...string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Minute)
	for _, id := range ids {
		for {
			out, _ := exec.Command("scontrol", "show", "job", "-o", id).CombinedOutput()
			st := regexp.MustCompile(`JobState=(\S+)`).FindAllStringSubmatch(string(out), -1)
			done := len(st) > 0
			for _, s := range st {
				switch s[1] {
				case "PENDING", "RUNNING", "CONFIGURING", "COMPLETING", "SUSPENDED", "REQUEUED":
					done = false
				}
			}
			if done {
				break
			}
			require.Truef(t, time.Now().Before(deadline), "job %s has not ended: %s", id, out)
			time.Sleep(time.Second)
		}
	}
}

func slurm(t *testing.T, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = "slurm"
	out, err := cmd.CombinedOutput()
	require.NoErrorf(t, err, "%s %s: %s", name, strings.Join(args, " "), out)
	return strings.TrimSpace(string(out))
}

func readTrim(t *testing.T, f string) string {
	t.Helper()
	b, err := os.ReadFile(f)
	require.NoError(t, err)
	return strings.TrimSpace(string(b))
}
