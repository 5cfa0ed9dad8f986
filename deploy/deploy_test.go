// Package deploy holds no code: its tests check the files that run
// lockstep sharded on other machines, as far as that is possible without
// them. The GitHub Actions matrix (.github/workflows/lockstep.yml) and the
// Kubernetes Indexed Job (k8s-indexed-job.yaml) are parsed, their shard
// counts compared, and their shell steps run for every index with a stub
// lockstep that records its arguments, so that a matrix that skips a
// shard, a merge that misses a file or a shard count said two ways fails
// here rather than on the cluster. The Slurm scripts (slurm/) are run the
// same way against a stub sbatch, and for real by `make cluster-test`
// (cluster_test.go).
package deploy

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

// stub writes an executable that records each call's arguments, one call
// a line, in log, and prints a JSON object (a result) for lockstep's
// stream commands and merge.
func stub(t *testing.T, path, log string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	script := fmt.Sprintf(`#!/bin/sh
printf '%%s\n' "$*" >> %q
case $1 in lemmas|check|mutants|merge) echo '{}' ;; esac
exit 0
`, log)
	require.NoError(t, os.WriteFile(path, []byte(script), 0o755))
}

// calls reads a stub's log: the arguments of each call.
func calls(t *testing.T, log string) [][]string {
	t.Helper()
	b, err := os.ReadFile(log)
	require.NoError(t, err)
	var out [][]string
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		out = append(out, strings.Fields(l))
	}
	return out
}

// flagValue is the value of flag in args ("" when absent).
func flagValue(args []string, flag string) string {
	if i := slices.Index(args, flag); i >= 0 && i+1 < len(args) {
		return args[i+1]
	}
	return ""
}

// mask is a shard's arguments less the values of -shard and -save.
func mask(args []string) []string {
	out := slices.Clone(args)
	for _, f := range []string{"-shard", "-save"} {
		if i := slices.Index(out, f); i >= 0 && i+1 < len(out) {
			out[i+1] = "…"
		}
	}
	return out
}

// requireShards checks that the stream calls are one per shard of n, each
// shard once, with -json, and otherwise the same arguments.
func requireShards(t *testing.T, cs [][]string, n int) {
	t.Helper()
	require.Len(t, cs, n, "one lockstep call per shard")
	var got []string
	for _, c := range cs {
		require.Contains(t, c, "-json")
		got = append(got, flagValue(c, "-shard"))
		require.Equal(t, mask(cs[0]), mask(c), "the shards differ only in -shard (and where -save puts their cases)")
	}
	var want []string
	for i := range n {
		want = append(want, fmt.Sprintf("%d/%d", i, n))
	}
	slices.Sort(got)
	slices.Sort(want)
	require.Equal(t, want, got)
}

type workflow struct {
	Env  map[string]string `yaml:"env"`
	Jobs map[string]struct {
		Needs    any    `yaml:"needs"`
		If       string `yaml:"if"`
		Strategy struct {
			FailFast *bool `yaml:"fail-fast"`
			Matrix   struct {
				Index []int    `yaml:"index"`
				Data  []string `yaml:"data"`
			} `yaml:"matrix"`
		} `yaml:"strategy"`
		Steps []struct {
			Name string            `yaml:"name"`
			Uses string            `yaml:"uses"`
			Run  string            `yaml:"run"`
			With map[string]string `yaml:"with"`
		} `yaml:"steps"`
	} `yaml:"jobs"`
}

// TestWorkflowMatrix: the matrix has exactly the shards 0..SHARDS-1 of
// each stream (-data mixed and none), does not cancel the others when one
// fails, and its step run for each index checks that shard of that stream
// and uploads the file it wrote; the merge job, one per stream, runs after
// every shard however they ended and merges every shard's file of its
// stream, told the shard count.
func TestWorkflowMatrix(t *testing.T) {
	b, err := os.ReadFile("../.github/workflows/lockstep.yml")
	require.NoError(t, err)
	var w workflow
	require.NoError(t, yaml.Unmarshal(b, &w))
	n, err := strconv.Atoi(w.Env["SHARDS"])
	require.NoError(t, err, "env SHARDS")
	shard, merge := w.Jobs["shard"], w.Jobs["merge"]
	var want []int
	for i := range n {
		want = append(want, i)
	}
	require.Equal(t, want, shard.Strategy.Matrix.Index, "the matrix is the shards 0..SHARDS-1")
	require.ElementsMatch(t, []string{"mixed", "none"}, shard.Strategy.Matrix.Data, "both streams are surveyed")
	require.Equal(t, shard.Strategy.Matrix.Data, merge.Strategy.Matrix.Data, "one merge per stream")
	require.NotNil(t, shard.Strategy.FailFast)
	require.False(t, *shard.Strategy.FailFast, "a failing shard must not cancel the others")
	require.Equal(t, "shard", merge.Needs)
	require.Contains(t, merge.If, "!cancelled()", "the merge runs however the shards ended, to name the lost ones")

	for _, data := range shard.Strategy.Matrix.Data {
		dir := t.TempDir()
		log := filepath.Join(dir, "calls")
		stub(t, filepath.Join(dir, "bin", "lockstep"), log)
		env := append(os.Environ(), "VARIANT=fixed", "PROGRAMS=8", "SEED=1", "SHARDS="+w.Env["SHARDS"])
		expr := regexp.MustCompile(`\$\{\{\s*([^}]*?)\s*\}\}`)
		subst := func(i int) func(string) string {
			return func(s string) string {
				return expr.ReplaceAllStringFunc(s, func(m string) string {
					switch e := expr.FindStringSubmatch(m)[1]; {
					case e == "matrix.index":
						return strconv.Itoa(i)
					case e == "matrix.data":
						return data
					case strings.HasPrefix(e, "env."):
						return w.Env[strings.TrimPrefix(e, "env.")]
					default:
						t.Fatalf("unknown expression %s", m)
					}
					return ""
				})
			}
		}
		var uploaded []string
		for _, i := range shard.Strategy.Matrix.Index {
			sub := subst(i)
			ran := false
			for _, s := range shard.Steps {
				switch {
				case strings.Contains(s.Run, "-shard"):
					cmd := exec.Command("bash", "-e", "-c", sub(s.Run))
					cmd.Dir, cmd.Env = dir, env
					out, err := cmd.CombinedOutput()
					require.NoErrorf(t, err, "shard %d: %s", i, out)
					ran = true
				case strings.HasPrefix(s.Uses, "actions/upload-artifact"):
					p := sub(s.With["path"])
					require.FileExistsf(t, filepath.Join(dir, p), "shard %d uploads %s, which its step did not write", i, p)
					uploaded = append(uploaded, sub(s.With["name"]))
				}
			}
			require.True(t, ran, "no step of the shard job runs a shard")
		}
		cs := calls(t, log)
		requireShards(t, cs, n)
		for _, c := range cs {
			require.Equal(t, data, flagValue(c, "-data"), "the shard surveys its stream")
		}

		// The merge of this stream: downloads its shards' artifacts,
		// merges their files.
		require.NoError(t, os.Remove(log))
		sub := subst(-1)
		merged := false
		for _, s := range merge.Steps {
			switch {
			case strings.HasPrefix(s.Uses, "actions/download-artifact"):
				for _, u := range uploaded {
					ok, err := filepath.Match(sub(s.With["pattern"]), u)
					require.NoError(t, err)
					require.Truef(t, ok, "the merge does not download artifact %s", u)
				}
			case strings.Contains(s.Run, "lockstep merge"):
				cmd := exec.Command("bash", "-e", "-c", sub(s.Run))
				cmd.Dir, cmd.Env = dir, env
				out, err := cmd.CombinedOutput()
				require.NoErrorf(t, err, "merge: %s", out)
				merged = true
			}
		}
		require.True(t, merged, "no step of the merge job merges")
		cs = calls(t, log)
		require.Len(t, cs, 1)
		require.Equal(t, strconv.Itoa(n), flagValue(cs[0], "-shards"), "the merge is told the shard count")
		files, err := filepath.Glob(filepath.Join(dir, "lemmas-*.json"))
		require.NoError(t, err)
		require.Len(t, files, n)
		for _, f := range files {
			require.Contains(t, cs[0], filepath.Base(f))
		}
	}
}

// TestK8sIndexedJob: completions, parallelism, SHARDS and the merge's
// -shards are one number; the pod's script, run for every completion
// index, checks that shard into the volume, where the merge command of
// the header reads every result.
func TestK8sIndexedJob(t *testing.T) {
	b, err := os.ReadFile("k8s-indexed-job.yaml")
	require.NoError(t, err)
	type container struct {
		Command []string `yaml:"command"`
		Args    []string `yaml:"args"`
		Env     []struct {
			Name  string `yaml:"name"`
			Value string `yaml:"value"`
		} `yaml:"env"`
		VolumeMounts []struct {
			Name      string `yaml:"name"`
			MountPath string `yaml:"mountPath"`
		} `yaml:"volumeMounts"`
	}
	type doc struct {
		Kind     string `yaml:"kind"`
		Metadata struct {
			Name string `yaml:"name"`
		} `yaml:"metadata"`
		Spec struct {
			CompletionMode string `yaml:"completionMode"`
			Completions    int    `yaml:"completions"`
			Parallelism    int    `yaml:"parallelism"`
			Template       struct {
				Spec struct {
					Volumes []struct {
						Name string `yaml:"name"`
						PVC  struct {
							ClaimName string `yaml:"claimName"`
						} `yaml:"persistentVolumeClaim"`
					} `yaml:"volumes"`
					Containers []container `yaml:"containers"`
				} `yaml:"spec"`
			} `yaml:"template"`
		} `yaml:"spec"`
	}
	dec := yaml.NewDecoder(strings.NewReader(string(b)))
	var job *doc
	pvcs := map[string]bool{}
	for {
		var d doc
		if err := dec.Decode(&d); err != nil {
			break
		}
		switch d.Kind {
		case "Job":
			job = &d
		case "PersistentVolumeClaim":
			pvcs[d.Metadata.Name] = true
		}
	}
	require.NotNil(t, job, "no Job in the file")
	s := job.Spec
	require.Equal(t, "Indexed", s.CompletionMode)
	require.Len(t, s.Template.Spec.Containers, 1)
	c := s.Template.Spec.Containers[0]
	env := map[string]string{}
	for _, e := range c.Env {
		env[e.Name] = e.Value
	}
	n, err := strconv.Atoi(env["SHARDS"])
	require.NoError(t, err, "env SHARDS")
	require.Equal(t, n, s.Completions, "completions = SHARDS")
	require.Equal(t, n, s.Parallelism, "parallelism = SHARDS")
	for _, v := range s.Template.Spec.Volumes {
		require.Truef(t, pvcs[v.PVC.ClaimName], "volume %s claims %s, which the file does not make", v.Name, v.PVC.ClaimName)
	}
	require.Len(t, c.VolumeMounts, 1)
	mount := c.VolumeMounts[0].MountPath

	// The pod's script for every index, with the volume a directory here.
	require.Equal(t, []string{"/bin/sh", "-c"}, c.Command)
	require.Len(t, c.Args, 1)
	dir := t.TempDir()
	results := filepath.Join(dir, "results")
	require.NoError(t, os.Mkdir(results, 0o755))
	log := filepath.Join(dir, "calls")
	stub(t, filepath.Join(dir, "bin", "lockstep"), log)
	script := strings.ReplaceAll(c.Args[0], mount, results)
	for i := range s.Completions {
		cmd := exec.Command("sh", "-c", script)
		cmd.Env = append(os.Environ(), "PATH="+filepath.Join(dir, "bin")+":"+os.Getenv("PATH"), "JOB_COMPLETION_INDEX="+strconv.Itoa(i))
		for k, v := range env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		out, err := cmd.CombinedOutput()
		require.NoErrorf(t, err, "pod %d: %s", i, out)
	}
	requireShards(t, calls(t, log), n)

	// The merge command of the header: the shard count, and a glob that
	// reads every pod's result.
	m := regexp.MustCompile(`lockstep merge -shards (\d+) ([^\s"]+)"`).FindStringSubmatch(string(b))
	require.NotNil(t, m, "no `lockstep merge -shards N FILES` in the header")
	require.Equal(t, strconv.Itoa(n), m[1], "the merge's -shards = SHARDS")
	files, err := filepath.Glob(strings.ReplaceAll(m[2], mount, results))
	require.NoError(t, err)
	require.Len(t, files, n, "the merge reads every pod's result")
}

// TestSlurmScripts runs submit.sh, shard.sbatch and merge.sbatch against a
// stub sbatch and a stub lockstep: the array is the shards 0..S-1 and the
// merge depends on it with afterany; each task checks its shard into its
// own directory, with S from the run, not from the array (a resubmission
// is an array of the lost shards only); the merge reads every shard's
// file, told S, and its resubmission line, run as printed, submits the
// lost shards of the same run. make cluster-test runs them on Slurm.
func TestSlurmScripts(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	lockstepLog, sbatchLog := filepath.Join(dir, "lockstep.calls"), filepath.Join(dir, "sbatch.calls")
	stub(t, filepath.Join(bin, "lockstep"), lockstepLog)
	require.NoError(t, os.WriteFile(filepath.Join(bin, "sbatch"), []byte(fmt.Sprintf(`#!/bin/sh
printf '%%s\n' "$*" >> %q
n=$(wc -l < %q)
case "$*" in *--parsable*) echo $((100 + n)) ;; *) echo "Submitted batch job $((100 + n))" ;; esac
`, sbatchLog, sbatchLog)), 0o755))
	env := append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"))
	run := filepath.Join(dir, "run")
	cmd := exec.Command("slurm/submit.sh", "-n", "8", "-shards", "4", "-dir", run, "-lockstep", filepath.Join(bin, "lockstep"),
		"-time", "0:10:00", "-mem", "1G", "--", "-seed", "3", "-engine", "summary:fixed")
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	require.NoErrorf(t, err, "%s", out)
	require.Contains(t, string(out), "array job 101 (4 shards of 8 programs), merge job 102")
	sb := calls(t, sbatchLog)
	require.Len(t, sb, 2)
	require.Contains(t, sb[0], "--array=0-3")
	require.Contains(t, sb[0], "--time=0:10:00")
	require.Contains(t, sb[0], "--mem=1G")
	require.Equal(t, []string{filepath.Join(mustAbs(t, "slurm"), "shard.sbatch"), run}, sb[0][len(sb[0])-2:])
	require.Contains(t, sb[1], "--dependency=afterany:101")
	require.Equal(t, []string{filepath.Join(mustAbs(t, "slurm"), "merge.sbatch"), run}, sb[1][len(sb[1])-2:])

	// The tasks: the array's own count says 4 here, but 1 on a
	// resubmission; the shard is of the run's 4 either way.
	require.NoError(t, os.Remove(lockstepLog)) // submit.sh's check of the flags
	for i := range 4 {
		cmd := exec.Command(filepath.Join("slurm", "shard.sbatch"), run)
		cmd.Env = append(env, "SLURM_ARRAY_TASK_ID="+strconv.Itoa(i), "SLURM_ARRAY_TASK_COUNT=1")
		out, err := cmd.CombinedOutput()
		require.NoErrorf(t, err, "task %d: %s", i, out)
		require.FileExists(t, filepath.Join(run, fmt.Sprintf("shard-%d", i), "result.json"))
	}
	cs := calls(t, lockstepLog)
	requireShards(t, cs, 4)
	for _, c := range cs {
		require.Equal(t, []string{"-n", "8"}, c[2:4])
		require.Equal(t, "3", flagValue(c, "-seed"))
		require.Equal(t, filepath.Join(run, "shard-"+strings.Split(flagValue(c, "-shard"), "/")[0], "cases"), flagValue(c, "-save"))
	}

	// The merge, and its resubmission line with shard 2 lost.
	require.NoError(t, os.Remove(lockstepLog))
	cmd = exec.Command(filepath.Join("slurm", "merge.sbatch"), run)
	cmd.Env = env
	out, err = cmd.CombinedOutput()
	require.NoErrorf(t, err, "%s", out)
	cs = calls(t, lockstepLog)
	require.Len(t, cs, 2, "merge -json, then the report for people")
	m := cs[0]
	require.Equal(t, "merge", m[0])
	require.Equal(t, "4", flagValue(m, "-shards"))
	for i := range 4 {
		require.Contains(t, m, filepath.Join(run, fmt.Sprintf("shard-%d", i), "result.json"))
	}
	b, err := os.ReadFile(filepath.Join(run, "merge.exit"))
	require.NoError(t, err)
	require.Equal(t, "0\n", string(b))
	// The first -resubmit line, as lockstep merge prints it for shard 2.
	line := regexp.MustCompile(`-resubmit (sbatch .*?) -resubmit`).FindStringSubmatch(strings.Join(m, " "))
	require.NotNil(t, line, strings.Join(m, " "))
	cmd = exec.Command("bash", "-c", strings.ReplaceAll(line[1], "{array}", "2"))
	cmd.Env = env
	out, err = cmd.CombinedOutput()
	require.NoErrorf(t, err, "%s", out)
	sb = calls(t, sbatchLog)
	require.Contains(t, sb[2], "--array=2")
	require.Equal(t, sb[0][len(sb[0])-2:], sb[2][len(sb[2])-2:], "the same script and run")

	// -resume: the lost shards with a longer limit, and a merge after them.
	cmd = exec.Command("slurm/submit.sh", "-resume", run, "-array", "1,3", "-time", "5:00:00")
	cmd.Env = env
	out, err = cmd.CombinedOutput()
	require.NoErrorf(t, err, "%s", out)
	sb = calls(t, sbatchLog)
	require.Len(t, sb, 5)
	require.Contains(t, sb[3], "--array=1,3")
	require.Contains(t, sb[3], "--time=5:00:00")
	require.Contains(t, sb[3], "--mem=1G", "the run's memory, not given again")
	require.Equal(t, sb[0][len(sb[0])-2:], sb[3][len(sb[3])-2:])
	require.Contains(t, sb[4], "--dependency=afterany:104")
	require.Contains(t, string(out), "array job 104 (shards 1,3 of 4), merge job 105")
}

func mustAbs(t *testing.T, p string) string {
	a, err := filepath.Abs(p)
	require.NoError(t, err)
	return a
}
