package checker

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockstep-dev/lockstep/internal/testutil"
	"github.com/lockstep-dev/lockstep/internal/testutil/chunked"
	"github.com/lockstep-dev/lockstep/javalite"
)

// TestCompareClaim: the decision of one claim from two explorations,
// including the undecided ones, whose counts are lower bounds.
func TestCompareClaim(t *testing.T) {
	c := OrderClaim{Less: "lazier#", More: "lazier"}
	done := func(v, e int64) PathCounts { return PathCounts{Value: v, Error: e} }
	open := func(v, e int64) PathCounts { return PathCounts{Value: v, Error: e, Undecided: "timeout"} }
	for _, tc := range []struct {
		less, more PathCounts
		want       Status
	}{
		{done(3, 0), done(7, 0), Holds},
		{done(3, 1), done(3, 1), Holds},
		{done(4, 1), done(3, 1), Violated},
		{PathCounts{Value: 1, Cut: 9}, PathCounts{Value: 2}, Holds}, // cut ends are not paths
		{PathCounts{Value: 2, Stuck: 3}, PathCounts{Value: 2}, Holds},
		{open(3, 0), done(7, 0), Inconclusive}, // less may grow past 7
		{done(3, 0), open(1, 0), Inconclusive}, // more may grow past 3
		{done(3, 0), open(5, 0), Holds},        // more is at least 5
		{open(9, 0), done(5, 0), Violated},     // less is at least 9
		{open(1, 0), open(9, 0), Inconclusive},
	} {
		r := compareClaim(c, tc.less, tc.more)
		assert.Equal(t, tc.want, r.Status, "%v vs %v: %s", tc.less, tc.more, r.Reason)
		assert.Equal(t, tc.less.Cut > 0 || tc.more.Cut > 0, r.Cut)
	}
}

// TestOrderOptions: the claims at a finite k leave out POSE-J (no
// k-bound), and the engines come in the chain's order.
func TestOrderOptions(t *testing.T) {
	o := DefaultOrderOptions()
	assert.Equal(t, -1, o.K)
	assert.Equal(t, []string{"summary:fixed", "pose", "lazier#", "lazier", "gse"}, o.Engines())
	o.K = 2
	assert.Equal(t, []string{"summary:fixed", "lazier#", "lazier", "gse"}, o.Engines())
	assert.Len(t, o.claims(), 3)
	o.Claims = []OrderClaim{{Less: "lazier", More: "gse"}}
	assert.Equal(t, []string{"lazier", "gse"}, o.Engines())
}

// TestOrderPaperPrograms: on the paper programs at k = −1 every claim of
// P4 holds, with the counts of docs/KIASAN.md "Counts" (kiasan's
// TestPublishedCounts asserts them too).
func TestOrderPaperPrograms(t *testing.T) {
	solver := testutil.Solver(t)
	opt := DefaultOrderOptions()
	opt.Steps = 1000
	for _, c := range []struct {
		file                          string
		summary, lazierS, lazier, gse int64
	}{
		{"swap.jl", 2, 3, 7, 8},
		{"sum.jl", 4, 23, 124, 220},
		{"hasnull.jl", 6, 16, 16, 21},
	} {
		p := testutil.Program(t, filepath.Join("..", "testdata", "programs", c.file))
		rep, err := Order(context.Background(), p, opt, solver)
		require.NoError(t, err)
		assert.Equal(t, Holds, rep.Status(), "%s:\n%s", c.file, rep.Text())
		got := []int64{rep.Counts["summary:fixed"].Paths(), rep.Counts["lazier#"].Paths(), rep.Counts["lazier"].Paths(), rep.Counts["gse"].Paths()}
		assert.Equal(t, []int64{c.summary, c.lazierS, c.lazier, c.gse}, got, c.file)
		assert.Equal(t, rep.Counts["summary:fixed"], rep.Counts["pose"], c.file)
	}
}

// orderCase is one chunk of testdata/order: a program with its k and step
// bound, the expected ends of each engine, and the claims that hold and
// fail on it.
type orderCase struct {
	k, steps int
	counts   map[string]PathCounts
	holds    []OrderClaim
	fails    []OrderClaim
}

var (
	orderKV    = regexp.MustCompile(`^;\s*(k|steps):\s*(-?\d+)\s*$`)
	orderCount = regexp.MustCompile(`^;\s*count\s+(\S+):\s*(\d+)v\s+(\d+)e(?:\s+(\d+)cut)?(?:\s+(\d+)stuck)?\s*$`)
	orderClaim = regexp.MustCompile(`^;\s*(holds|fails):\s*(\S+)\s*≤\s*(\S+)\s*$`)
)

func parseOrderCase(text string) (orderCase, error) {
	c := orderCase{k: -1, steps: DefaultSteps, counts: map[string]PathCounts{}}
	num := func(s string) int64 {
		if s == "" {
			return 0
		}
		n, _ := strconv.ParseInt(s, 10, 64)
		return n
	}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if m := orderKV.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[2])
			if m[1] == "k" {
				c.k = n
			} else {
				c.steps = n
			}
		} else if m := orderCount.FindStringSubmatch(line); m != nil {
			c.counts[m[1]] = PathCounts{Value: num(m[2]), Error: num(m[3]), Cut: num(m[4]), Stuck: num(m[5])}
		} else if m := orderClaim.FindStringSubmatch(line); m != nil {
			cl := OrderClaim{Less: m[2], More: m[3]}
			for _, p := range P4Claims {
				if p.Less == cl.Less && p.More == cl.More {
					cl = p
				}
			}
			if m[1] == "holds" {
				c.holds = append(c.holds, cl)
			} else {
				c.fails = append(c.fails, cl)
			}
		} else if strings.HasPrefix(line, "; count") || strings.HasPrefix(line, "; holds") || strings.HasPrefix(line, "; fails") {
			return c, fmt.Errorf("malformed expectation %q", line)
		}
	}
	if len(c.holds)+len(c.fails) == 0 {
		return c, fmt.Errorf("no claim (; holds: A ≤ B or ; fails: A ≤ B)")
	}
	return c, nil
}

// TestOrderCases replays testdata/order: the shrunk programs on which a
// claim of P4 fails (and the ones on which it holds), each with the exact
// ends of every engine, so that a change of any engine's path count shows.
func TestOrderCases(t *testing.T) {
	files, err := filepath.Glob("../testdata/order/*.jl")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	solver := testutil.Solver(t)
	for _, f := range files {
		for _, ch := range chunked.Read(t, f) {
			name := fmt.Sprintf("%s:%d", filepath.Base(f), ch.Line)
			t.Run(name, func(t *testing.T) {
				c, err := parseOrderCase(ch.Text)
				require.NoError(t, err, name)
				p, err := javalite.ParseAndCheck(f, ch.Src)
				require.NoError(t, err, name)
				opt := DefaultOrderOptions()
				opt.K, opt.Steps, opt.Timeout = c.k, c.steps, 0
				opt.Claims = append(append([]OrderClaim{}, c.holds...), c.fails...)
				rep, err := Order(context.Background(), p, opt, solver)
				require.NoError(t, err, name)
				for e, want := range c.counts {
					got, ok := rep.Counts[e]
					require.True(t, ok, "%s: no claim compares %s", name, e)
					assert.Equal(t, want, got, "%s: %s", name, e)
				}
				for _, r := range rep.Claims {
					want := Holds
					for _, fc := range c.fails {
						if fc == r.OrderClaim {
							want = Violated
						}
					}
					assert.Equal(t, want, r.Status, "%s: %s: %s\n%s", name, r.OrderClaim, r.Reason, rep.Text())
				}
			})
		}
	}
}
