package report

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/lockstep-dev/lockstep/checker"
)

// A run split over a scheduler (a Slurm job array, a Kubernetes Indexed
// Job, a CI matrix) loses tasks: one fails, is cancelled, runs out of
// time, or leaves a truncated file. A merge told how many shards the run
// has (Expect) names every shard without a usable result, so that exactly
// those are run again, instead of refusing at the first bad file.

// Unreadable is a file given to the merge that holds no usable result.
type Unreadable struct {
	File string
	Err  error
}

// Lost is the shards of a run of N with no finished result: Missing have
// no result at all (their task never wrote one, or wrote a file that
// cannot be read, among Unreadable), Interrupted stopped at a signal
// (their counts are a lower bound).
type Lost struct {
	N           int
	Missing     []int
	Interrupted []int
	Unreadable  []Unreadable
}

// Indices are the shards to run again, in order.
func (l *Lost) Indices() []int {
	ix := slices.Concat(l.Missing, l.Interrupted)
	slices.Sort(ix)
	return slices.Compact(ix)
}

// Complete reports whether every shard has a result, interrupted or not,
// and every file was read: a merge can then be made (an interrupted one
// when Interrupted is not empty).
func (l *Lost) Complete() bool { return len(l.Missing) == 0 && len(l.Unreadable) == 0 }

func (l *Lost) Error() string {
	var b strings.Builder
	for _, u := range l.Unreadable {
		fmt.Fprintf(&b, "%v (no result read from it)\n", u.Err)
	}
	if len(l.Missing) > 0 {
		fmt.Fprintf(&b, "no result of shard(s) %s of %d\n", shardList(l.Missing, l.N), l.N)
	}
	if len(l.Interrupted) > 0 {
		fmt.Fprintf(&b, "shard(s) %s of %d were interrupted: their counts are what finished\n", shardList(l.Interrupted, l.N), l.N)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func shardList(ix []int, n int) string {
	var s []string
	for _, i := range ix {
		s = append(s, fmt.Sprintf("%d/%d", i, n))
	}
	return strings.Join(s, ", ")
}

// ArrayRanges writes sorted indices the way Slurm's --array takes them:
// "0,2-4,7".
func ArrayRanges(ix []int) string {
	var parts []string
	for i := 0; i < len(ix); {
		j := i
		for j+1 < len(ix) && ix[j+1] == ix[j]+1 {
			j++
		}
		if j == i {
			parts = append(parts, strconv.Itoa(ix[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", ix[i], ix[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

// Expect compares the parts read (and the files that could not be read)
// with a run of n shards. It returns nil when every shard has exactly one
// finished result; a Lost naming the shards to run again otherwise; and an
// error for parts that cannot be of such a run (another split, an
// unsharded result, a document that is not a result), which no
// resubmission mends.
func Expect(parts []Part, bad []Unreadable, n int) (*Lost, error) {
	if n < 1 {
		return nil, fmt.Errorf("-shards %d: a run has at least one shard", n)
	}
	has := make([]bool, n)
	stopped := make([]bool, n)
	for _, p := range parts {
		var probe struct {
			Shard       string `json:"shard"`
			Interrupted bool   `json:"interrupted"`
			Surveys     []struct {
				Shard       string `json:"shard"`
				Interrupted bool   `json:"interrupted"`
			} `json:"surveys"`
		}
		if err := json.Unmarshal(p.JSON, &probe); err != nil {
			return nil, fmt.Errorf("%s: not a JSON object: %v", p.From, err)
		}
		shards := []string{probe.Shard}
		if probe.Surveys != nil {
			shards = nil
			for _, s := range probe.Surveys {
				shards = append(shards, s.Shard)
				probe.Interrupted = probe.Interrupted || s.Interrupted
			}
		}
		for _, s := range shards {
			sh := checker.Shard{N: 1}
			if s != "" {
				var err error
				if sh, err = checker.ParseShard(s); err != nil {
					return nil, fmt.Errorf("%s: %v", p.From, err)
				}
			}
			if sh.N != n && !(sh.Whole() && n == 1) {
				return nil, fmt.Errorf("%s: shard %s is not of a run of %d shards", p.From, cmpOr(s, "(unsharded)"), n)
			}
			has[sh.I] = true
			stopped[sh.I] = stopped[sh.I] || probe.Interrupted
		}
	}
	l := &Lost{N: n, Unreadable: bad}
	for i := range n {
		switch {
		case !has[i]:
			l.Missing = append(l.Missing, i)
		case stopped[i]:
			l.Interrupted = append(l.Interrupted, i)
		}
	}
	if len(l.Missing) == 0 && len(l.Interrupted) == 0 && len(l.Unreadable) == 0 {
		return nil, nil
	}
	return l, nil
}

func cmpOr(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}
