package engine

import (
	"sync"
	"sync/atomic"
)

// Lazy SMP: with Options.Threads > 1 the iterative deepening of a full-strength search
// (no level noise) runs on helper threads beside the main one. Every thread searches
// the whole root list; they share nothing but the transposition table, so a helper's
// results reach the main thread as TT moves, bounds and cutoffs. The threads diverge
// by depth: a helper starts at depth 2 or 3 (by its number) and, after each iteration,
// goes on one ply beyond the main thread's current iteration, so most of the time it
// fills the table a ply ahead. Each keeps its own history and killers, which reorders
// its moves further.
//
// The main thread alone runs the root tactics before the helpers start and the safety
// check after they stop, manages the time and reports progress. When it stops, the
// helpers stop within a poll interval; if one completed a deeper iteration than the
// main thread, its move and score are played (they come from the deeper search).
// Limits.Nodes counts the main thread's nodes; Info.Nodes counts every thread's.

// maxThreads bounds Options.Threads.
const maxThreads = 64

// smpShared is the state the main thread shares with its helpers during a search.
type smpShared struct {
	stop  atomic.Bool  // set by the main thread when its iterative deepening ends
	depth atomic.Int32 // the main thread's current iteration
}

// helper is a Lazy SMP helper thread's searcher and what it reports.
type helper struct {
	s     *searcher
	nodes atomic.Uint64 // the helper's node count, published at every poll
}

// newHelpers returns n helpers sharing tt.
func newHelpers(n int, tt *transTable, evals *EvalTables, par *searchParams) []*helper {
	hs := make([]*helper, n)
	for i := range hs {
		s := &searcher{tt: tt, par: par}
		s.pos.evals = evals
		hs[i] = &helper{s: s}
		s.published = &hs[i].nodes
	}
	return hs
}

// helpersEnabled reports whether this search runs helper threads: only at full
// strength (the levels' noise and blunders belong to the main thread's choice) and
// with the selective search.
func (s *searcher) helpersEnabled() bool {
	return len(s.helpers) > 0 && s.noise == 0 && s.blunder == 0 && !s.cfg.noPrune
}

// startHelpers copies the root state to the helpers and starts them on b; each
// iterates up to maxDepth until stopHelpers.
func (s *searcher) startHelpers(b *Board, maxDepth int) {
	sh := &s.smp
	sh.stop.Store(false)
	sh.depth.Store(1)
	for i, h := range s.helpers {
		hs := h.s
		hs.pos.setup(b)
		hs.cfg = s.cfg
		hs.rootN = copy(hs.root[:], s.root[:s.rootN])
		hs.nodes, hs.selDepth, hs.stopped = 0, 0, false
		hs.done, hs.start, hs.hard = s.done, s.start, s.hard
		hs.nodeLimit, hs.nextPoll, hs.report, hs.tacticsStop = 0, pollEvery, nil, s.tacticsStop
		hs.stopFlag = &sh.stop
		hs.info = Info{Best: NoPoint}
		for j := range hs.killers {
			hs.killers[j] = [2]int16{-1, -1}
		}
		for c := range hs.history {
			for j := range hs.history[c] {
				hs.history[c][j] /= 8
			}
		}
		h.nodes.Store(0)
		s.smpWG.Add(1)
		go func(id int) {
			defer s.smpWG.Done()
			hs.helperLoop(id, maxDepth, sh)
			hs.published.Store(hs.nodes)
		}(i + 1)
	}
}

// helperLoop is a helper's iterative deepening.
func (s *searcher) helperLoop(id, maxDepth int, sh *smpShared) {
	for depth := 2 + id%2; depth <= maxDepth; {
		s.selDepth = 0
		s.partial = -1
		v, ok := s.rootSearch(depth, -MateScore-1, MateScore+1)
		if !ok {
			return
		}
		s.info.Depth, s.info.SelDepth, s.info.Score = depth, s.selDepth, v
		s.info.Best = cellPoint(int(s.root[0].move))
		s.info.PV = s.info.PV[:0]
		for _, m := range s.pv[0][:s.pvLen[0]] {
			s.info.PV = append(s.info.PV, cellPoint(int(m)))
		}
		if v.IsMate() || s.rootN == 1 {
			return
		}
		depth = max(depth+1, int(sh.depth.Load())+1)
	}
}

// stopHelpers stops the helpers, waits for them, and takes the result of the deepest
// completed helper iteration when it is deeper than the main thread's.
func (s *searcher) stopHelpers() {
	s.smp.stop.Store(true)
	s.smpWG.Wait()
	for _, h := range s.helpers {
		hi := &h.s.info
		if hi.Depth <= s.info.Depth || hi.Best == NoPoint || s.info.Score.IsMate() {
			continue
		}
		s.info.Depth, s.info.SelDepth, s.info.Score, s.info.Best = hi.Depth, hi.SelDepth, hi.Score, hi.Best
		s.info.PV = append(s.info.PV[:0], hi.PV...)
	}
}

// helperNodes returns the nodes the helpers have published.
func (s *searcher) helperNodes() uint64 {
	var n uint64
	for _, h := range s.helpers {
		n += h.nodes.Load()
	}
	return n
}

// smpState is embedded in searcher: the helpers of a main thread, or a helper's link
// to the main thread.
type smpState struct {
	helpers   []*helper
	smp       smpShared
	smpWG     sync.WaitGroup
	stopFlag  *atomic.Bool   // a helper: the main thread's stop signal (nil: main)
	published *atomic.Uint64 // a helper: where poll publishes its node count
}
