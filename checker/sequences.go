package checker

import (
	"fmt"
	"hash/maphash"

	"github.com/lockstep-dev/lockstep/gse"
	"github.com/lockstep-dev/lockstep/machine"
)

// seqSeed makes control-flow hashes comparable across the two explorations
// of one process.
var seqSeed = maphash.MakeSeed()

// controlSequences explores eng on its own from the initial state and
// returns the multiset of control-flow sequences of its paths, each
// sequence hashed (the hash chains every state's control key, so two paths
// collide only if their whole sequences of controls are equal, up to a
// 64-bit hash collision).
func (r *run) controlSequences(eng machine.Engine) (map[uint64]int, int64, error) {
	hashOf := func(prev uint64, s *machine.State) uint64 { return seqHash(prev, s.ControlKey()) }
	s0 := machine.Initial(r.rep.Program)
	seqs := map[uint64]int{}
	var paths int64
	tooMany := false
	next := func(parent uint64, _ int, sc machine.Succ) uint64 { return hashOf(parent, sc.S) }
	visit := func(_ *machine.State, h uint64, _ machine.EndKind) bool {
		seqs[h]++
		paths++
		if r.opt.MaxPaths > 0 && paths > int64(r.opt.MaxPaths) {
			tooMany = true
			return false
		}
		return true
	}
	var st machine.Stats
	var err error
	if g, ok := eng.(*gse.Engine); ok {
		// The copy-free explorer: the paths of machine.ExploreWith.
		st, err = gse.ExploreWith(r.ctx, s0, g, r.opt.Steps, hashOf(0, s0), next, visit)
	} else {
		st, err = machine.ExploreWith(r.ctx, s0, eng, r.opt.Steps, hashOf(0, s0), next, visit)
	}
	switch {
	case err != nil:
		return nil, 0, undecided(C12, err)
	case tooMany:
		return nil, 0, &inconclusive{lemma: C12, reason: fmt.Sprintf("%s has more than %d paths", eng.Name(), r.opt.MaxPaths)}
	case !st.Complete:
		return nil, 0, &inconclusive{lemma: C12, reason: "timeout: " + r.ctx.Err().Error()}
	}
	r.lastPruned = st.Pruned
	return seqs, paths, nil
}

// sequences checks Corollaries 12 and 13 on separate explorations of the
// two engines; for a Partition engine C13 is replaced by path accounting
// (P3): a Partition engine has several paths per control-flow sequence by
// design.
func (r *run) sequences() error {
	var (
		gseq   map[uint64]int
		gpaths int64
		err    error
	)
	if w := r.walked; w != nil && w.gse != nil {
		gseq, gpaths, err = w.gse.result(r.gse.Name(), r.opt.MaxPaths)
		r.lastPruned = w.gse.pruned
		r.rep.gseWalked = true
	} else {
		gseq, gpaths, err = r.controlSequences(r.gse)
	}
	if err != nil {
		return err
	}
	r.rep.GSEPruned = r.lastPruned
	var sseq map[uint64]int
	var spaths int64
	if r.walked != nil {
		sseq, spaths, err = r.walked.result(r.eut.Name(), r.opt.MaxPaths)
		r.lastPruned = r.walked.pruned
	} else {
		sseq, spaths, err = r.controlSequences(r.eut)
	}
	if err != nil {
		return err
	}
	r.rep.EnginePruned = r.lastPruned
	r.rep.GSEPaths, r.rep.SummaryPaths, r.rep.GSESequences = gpaths, spaths, int64(len(gseq))
	onlyG, onlyS := 0, 0
	for h := range gseq {
		if _, ok := sseq[h]; !ok {
			onlyG++
		}
	}
	for h := range sseq {
		if _, ok := gseq[h]; !ok {
			onlyS++
		}
	}
	if onlyG > 0 || onlyS > 0 {
		return r.fail(Verdict{Lemma: C12, Reason: fmt.Sprintf(
			"%[1]d control-flow sequence(s) only in GSE, %[2]d only in the %[6]s engine (GSE %[3]d paths, %[4]d sequences; %[6]s %[5]d paths)",
			onlyG, onlyS, gpaths, len(gseq), spaths, r.eut.Name())})
	}
	r.rep.Checked[C12]++
	if r.partition {
		return r.accounting(gpaths)
	}
	if spaths != int64(len(gseq)) {
		return r.fail(Verdict{Lemma: C13, Reason: fmt.Sprintf(
			"the %s engine has %d paths but GSE has %d distinct control-flow sequences", r.eut.Name(), spaths, len(gseq))})
	}
	r.rep.Checked[C13]++
	return nil
}

// noWalkedSequences explores the engine on its own for C12 even where the
// lockstep walk has its sequences (TestWalkedSequencesSame compares).
var noWalkedSequences = false

// seqHash extends the control-flow hash prev of a path by a state whose
// control key is key.
func seqHash(prev uint64, key string) uint64 {
	var h maphash.Hash
	h.SetSeed(seqSeed)
	var b [8]byte
	for i := range b {
		b[i] = byte(prev >> (8 * i))
	}
	h.Write(b[:])
	h.WriteString(key)
	return h.Sum64()
}

// The engine's control-flow sequences from the lockstep walk. Outside a
// Partition engine, a lockstep that ends without a verdict has stepped
// every state the engine's own exploration would (machine.ExploreWith):
// the same initial state, the same rules and options (the engine's), every
// successor of every state made a pair, a path ended where that explorer
// ends one (a terminal state, the step bound) and a pruned end counted
// where it counts one. Each pair carries its path's hash (seqHash over the
// control keys the walk computes anyway), so the multiset of sequences,
// the paths and the pruned ends are the exploration's, and the engine is
// not explored a second time for C12 (which was about a tenth of a check
// of the LinkedList drivers, and as much as the run of the engine alone).
//
// GSE's sequences are collected along the walk too (gse): every GSE state
// of the exploration is a member of a pair's group (the initial state,
// and every successor of a member, which step puts in the group of its
// control, and forward then requires every group to be a pair), so each
// GSE path is a member's line of pairs. A member's control is its pair's
// at every step (groups are by control key), so its path's hash is its
// pair's (seq), and the path ends where GSE's explorer ends it: at a pair
// whose engine state ends a path (terminal or at the step bound), where
// every member is terminal or at the bound too (checked: a member that is
// not makes the walk's GSE sequences unusable, and GSE is explored on its
// own), or at a member with no successor, pruned (counted apart, as the
// explorer counts it) or stuck (a path of its pair's hash, as the
// explorer's EndStuck is). GSE's own exploration was as much as a
// twentieth of a check of LinkedList×4; TestWalkedSequencesSame compares
// the paths, sequences and pruned ends with it.
type walkedSequences struct {
	seqs   map[uint64]int
	paths  int64
	pruned int64
	// gse is GSE's sequences, nil when they cannot be had from the walk.
	gse *walkedSequences
}

// end counts the end of a path whose hash is seq.
func (w *walkedSequences) end(seq uint64) {
	w.seqs[seq]++
	w.paths++
}

// endPair counts the ends of the engine's path and of its group's GSE
// paths at pr, where the engine's path ends (bound: the step bound).
func (w *walkedSequences) endPair(pr pair, bound int) {
	w.end(pr.seq)
	if w.gse == nil {
		return
	}
	for _, p := range pr.P {
		if !p.Terminal() && (bound < 0 || p.Steps < bound) {
			w.gse = nil // not an end of GSE's explorer: GSE is explored on its own
			return
		}
	}
	w.gse.seqs[pr.seq] += len(pr.P)
	w.gse.paths += int64(len(pr.P))
}

// noSuccessor counts a GSE member of pr that has no successor: a pruned
// end, or a stuck path's end.
func (w *walkedSequences) noSuccessor(pr pair, pruned bool) {
	if w == nil || w.gse == nil {
		return
	}
	if pruned {
		w.gse.pruned++
		return
	}
	w.gse.end(pr.seq)
}

// result is controlSequences' answer for the engine named name.
func (w *walkedSequences) result(name string, maxPaths int) (map[uint64]int, int64, error) {
	if maxPaths > 0 && w.paths > int64(maxPaths) {
		return nil, 0, &inconclusive{lemma: C12, reason: fmt.Sprintf("%s has more than %d paths", name, maxPaths)}
	}
	return w.seqs, w.paths, nil
}
