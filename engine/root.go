package engine

import (
	"context"
	"time"
)

// Root driver: root tactics (a five, a forced block, VCF, VCT), then iterative
// deepening over the root move list, re-ordered after every iteration.

// splitmix advances a splitmix64 state and returns the next value.
func splitmix(s *uint64) uint64 {
	*s += 0x9E3779B97F4A7C15
	z := *s
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// rootNoise returns the level noise of root move m (0 at full strength).
func (s *searcher) rootNoise(m int) Score {
	if s.noise <= 0 {
		return 0
	}
	k := s.noiseKey ^ uint64(m)*0x9E3779B97F4A7C15
	return Score(splitmix(&k) % uint64(s.noise+1))
}

// run performs a whole search on b and returns its result.
func (s *searcher) run(ctx context.Context, b *Board, limits Limits, progress func(Info)) Result {
	res := Result{Move: NoPoint}
	res.Best = NoPoint
	if b.Outcome().Over || b.Ply() >= b.Size()*b.Size() {
		return res
	}
	p := &s.pos
	p.setup(b)
	s.tt.newSearch()
	s.vtt.clear()
	s.nodes, s.selDepth, s.stopped = 0, 0, false
	s.done = ctx.Done()
	s.start = time.Now()
	optimum, hard := budget(limits)
	s.tm.reset(optimum, hard, limits.Clock == nil)
	// The root tactics and the depth-capped levels plan on the optimum: the whole
	// move when its time is fixed (budget), the clock's share otherwise.
	soft := optimum
	s.hard = time.Time{}
	if hard > 0 {
		s.hard = s.start.Add(hard)
	}
	s.nodeLimit = limits.Nodes
	s.nextPoll = pollEvery
	s.info = Info{Best: NoPoint, Budget: optimum}
	s.report = nil
	s.nextReport = s.start.Add(100 * time.Millisecond)
	if progress != nil {
		s.report = func() {
			s.nextReport = time.Now().Add(100 * time.Millisecond)
			progress(s.snapshot(true))
		}
	}
	if limits.Seed != 0 {
		s.rng = limits.Seed ^ p.hash // noise and blunders of this search follow the seed alone
	}
	s.noiseKey = splitmix(&s.rng) ^ p.hash
	for i := range s.killers {
		s.killers[i] = [2]int16{-1, -1}
	}
	for c := range s.history {
		for i := range s.history[c] {
			s.history[c][i] /= 8
		}
	}

	// Root tactics may spend about a sixth of the budget (at ~1M nodes/s), and at
	// most a fifth of the planned time.
	s.tacticsNodes = 200_000
	if soft > 0 {
		s.tacticsNodes = min(max(uint64(soft.Seconds()*150_000), 3000), 2_000_000)
	}
	if limits.Nodes > 0 {
		// A node-capped search keeps most of its nodes for the main search too.
		s.tacticsNodes = min(s.tacticsNodes, max(limits.Nodes/5, 1000))
	}
	s.genRoot()
	if s.rootN == 0 {
		return res
	}
	if s.rootN == 1 && p.cnt[p.side-1][lvFive] > 0 {
		s.info.Depth, s.info.SelDepth, s.info.Score = 1, 1, mateIn(1)
		s.info.Best = cellPoint(int(s.root[0].move))
		s.info.PV = append(s.info.PV[:0], s.info.Best)
		return s.finish(progress)
	}
	best := int(s.root[0].move)
	s.info.Best = cellPoint(best)
	s.info.PV = nil

	s.tacticsStop = time.Time{}
	if soft > 0 {
		s.tacticsStop = s.start.Add(soft / 5)
	}
	tactics := s.rootN > 1 && !s.cfg.noPrune && s.rootTactics()
	s.tacticsStop = time.Time{}
	if tactics {
		return s.finish(progress)
	}
	// Keep a share of the time and of the node cap for the safety check.
	safety := s.safetyEnabled()
	if safety {
		if hard > 0 {
			s.hard = s.start.Add(hard - hard/safetyShare)
		}
		s.nodeLimit -= s.nodeLimit / safetyShare
	}
	maxDepth := maxDepthCap
	if limits.Depth > 0 && limits.Depth < maxDepth {
		maxDepth = limits.Depth
	}
	prev := Score(0)
	s.tm.begin(time.Since(s.start))
	smp := s.helpersEnabled() && s.rootN > 1
	if smp {
		s.startHelpers(b, maxDepth)
	}
	for depth := 1; depth <= maxDepth; depth++ {
		if smp {
			s.smp.depth.Store(int32(depth))
		}
		s.selDepth = 0
		s.partial = -1
		v, ok := s.aspirate(depth, prev)
		if !ok {
			s.usePartial()
			break
		}
		prev = v
		s.info.Depth = depth
		s.info.SelDepth = s.selDepth
		s.info.Score = v
		s.info.Best = cellPoint(int(s.root[0].move))
		s.info.PV = s.info.PV[:0]
		for _, m := range s.pv[0][:s.pvLen[0]] {
			s.info.PV = append(s.info.PV, cellPoint(int(m)))
		}
		if s.report != nil && !time.Now().Before(s.nextReport) {
			s.report()
		}
		elapsed := time.Since(s.start)
		more := s.tm.more(elapsed, int(s.root[0].move), v)
		if limits.Depth > 0 {
			// A depth-capped search (the levels below master) keeps the plain rule, so
			// that the levels play as they were measured: no iteration starts after
			// half the planned time.
			more = soft == 0 || elapsed < soft/2
		}
		if limits.Nodes > 0 {
			// A node-capped search plans by nodes, not by the clock, so that it plays
			// the same on a busy machine; the time limit still stops it.
			more = s.nodes < s.nodeLimit/2
		}
		if v.IsMate() || s.rootN == 1 || !more {
			break
		}
	}
	if smp {
		s.stopHelpers()
	}
	if safety {
		s.hard = time.Time{}
		if hard > 0 {
			s.hard = s.start.Add(hard)
		}
		s.nodeLimit, s.stopped = limits.Nodes, false
		s.safetyCheck()
	}
	return s.finish(progress)
}

// finish builds the result from the last completed iteration and sends the final
// report.
func (s *searcher) finish(progress func(Info)) Result {
	info := s.snapshot(false)
	if info.Best == NoPoint {
		info.Best = cellPoint(int(s.root[0].move))
	}
	if progress != nil {
		progress(s.snapshot(true))
	}
	return Result{Info: info, Move: info.Best}
}

// snapshot returns the current report; with copyPV its PV does not alias s.info.
func (s *searcher) snapshot(copyPV bool) Info {
	in := s.info
	in.Nodes = s.nodes + s.helperNodes()
	in.Elapsed = time.Since(s.start)
	if in.Elapsed > 0 {
		in.NPS = uint64(float64(in.Nodes) / in.Elapsed.Seconds())
	}
	if in.SelDepth < in.Depth {
		in.SelDepth = in.Depth
	}
	if copyPV {
		in.PV = append([]Point(nil), s.info.PV...)
	}
	return in
}

// genRoot fills the root move list, falling back to every legal point when the
// threat-aware generation leaves nothing (a lost position), and applies the level's
// blunders.
func (s *searcher) genRoot() {
	p := &s.pos
	op := 2 - int(p.side)
	buf := s.root[:]
	n := 0
	if f := p.findLevel(int(p.side-1), lvFive, false); f >= 0 {
		buf[0] = scoredMove{int16(f), 0}
		s.rootN = 1
		return
	}
	if f := p.findLevel(op, lvFive, false); f >= 0 && !s.cfg.noPrune && p.legal(f) &&
		!(s.blunder > 0 && int(splitmix(&s.rng)%3000) < s.blunder) {
		buf[0] = scoredMove{int16(f), 0}
		s.rootN = 1
		return
	}
	prune := !s.cfg.noPrune
	if s.blunder > 0 && int(splitmix(&s.rng)%1000) < s.blunder {
		prune = false
		n = s.genMoves(buf, false, 0, -1)
		// Overlook the opponent's threes: drop the defences that are not own threats.
		k := 0
		for _, sm := range buf[:n] {
			m := int(sm.move)
			if p.lvl[m][op] >= lvThree && p.lvl[m][1-op] < lvThree {
				continue
			}
			buf[k] = sm
			k++
		}
		if k > 0 {
			n = k
		}
	} else {
		n = s.genMoves(buf, prune, 0, -1)
		if n == 0 && prune {
			n = s.genMoves(buf, false, 0, -1)
		}
	}
	if n == 0 { // every candidate forbidden: any legal point
		for y := 0; y < p.size; y++ {
			for x := 0; x < p.size; x++ {
				if m := cellIndex(x, y); p.cell[m] == 0 && p.legal(m) {
					buf[n] = scoredMove{int16(m), 0}
					n++
				}
			}
		}
	}
	s.rootN = s.dropExcluded(buf[:n])
	sortMoves(buf[:s.rootN])
}

// sortMoves sorts by descending score (insertion sort: stable, small lists).
func sortMoves(ms []scoredMove) {
	for i := 1; i < len(ms); i++ {
		x := ms[i]
		j := i
		for j > 0 && ms[j-1].score < x.score {
			ms[j] = ms[j-1]
			j--
		}
		ms[j] = x
	}
}

// rootTactics runs the root VCF and VCT; it reports whether one found a win, in
// which case s.info holds the result.
func (s *searcher) rootTactics() bool {
	p := &s.pos
	me := int(p.side - 1)
	if p.cnt[me][lvFive] > 0 || p.cnt[1-me][lvFive] > 0 {
		return false // the main search handles these at once
	}
	win := func(m int, d int, line []int16) bool {
		if !s.isRootMove(m) {
			return false
		}
		s.info.Depth, s.info.SelDepth = d, d
		s.info.Score = mateIn(d)
		s.info.Best = cellPoint(m)
		s.info.PV = s.info.PV[:0]
		for _, q := range line {
			if q >= 0 {
				s.info.PV = append(s.info.PV, cellPoint(int(q)))
			}
		}
		return true
	}
	if !s.cfg.noVCF {
		// Iterative deepening finds the shortest VCF first.
		s.vcfStop = s.nodes + s.tacticsNodes
		for depth := 3; depth <= maxPly-40 && s.nodes < s.vcfStop && !s.stopped; depth += 2 {
			s.vcfCut = false
			if d := s.vcf(0, depth); d > 0 && !s.stopped {
				return win(int(s.vcfLine[0]), d, s.vcfLine[:d])
			}
			if !s.vcfCut {
				break // no line reached the depth limit: no VCF at any depth
			}
		}
	}
	if !s.cfg.noVCT && !s.stopped {
		s.vctStop = s.nodes + s.tacticsNodes
		if d := s.vctDeepening(0); d > 0 && !s.stopped {
			return win(int(s.vctMove[0]), d, s.vctMove[:1])
		}
	}
	s.stopped = false
	return false
}

// isRootMove reports whether m is in the root list.
func (s *searcher) isRootMove(m int) bool {
	for _, sm := range s.root[:s.rootN] {
		if int(sm.move) == m {
			return true
		}
	}
	return false
}

// rootSearch searches every root move to depth and re-orders the list. It returns
// the best score and false when the iteration was interrupted.
func (s *searcher) rootSearch(depth int, alpha, beta Score) (Score, bool) {
	p := &s.pos
	best := -MateScore - 1
	s.pvLen[0] = 0
	for i := 0; i < s.rootN; i++ {
		m := int(s.root[i].move)
		nz := s.rootNoise(m)
		s.nodes++
		p.make(m)
		var v Score
		if i == 0 || s.noise > 0 || s.cfg.noPrune {
			v = -s.search(-beta, -(alpha - s.noise), depth-1, 1, 0, true)
		} else {
			v = -s.search(-alpha-1, -alpha, depth-1, 1, 0, false)
			if v > alpha && !s.stopped {
				v = -s.search(-beta, -alpha, depth-1, 1, 0, true)
			}
		}
		p.unmake()
		if s.stopped {
			return best, false
		}
		if !v.IsMate() {
			v += nz
		}
		s.root[i].score = int32(v)
		if v > best {
			best = v
			s.pv[0][0] = int16(m)
			copy(s.pv[0][1:s.pvLen[1]], s.pv[1][1:s.pvLen[1]])
			s.pvLen[0] = max(s.pvLen[1], 1)
			if i > 0 {
				s.partial, s.partialScore = int16(m), v
				s.partialLen = copy(s.partialPV[:], s.pv[0][:s.pvLen[0]])
			}
			// Move the new best to the front, keeping the others' order.
			x := s.root[i]
			copy(s.root[1:i+1], s.root[:i])
			s.root[0] = x
		}
		if best >= beta {
			return best, true // aspiration fail-high: the caller re-searches
		}
		alpha = max(alpha, v)
	}
	return best, true
}

// usePartial takes the result of an interrupted iteration when a move fully searched
// in it beat the previous best: a deeper search preferred it, so it is the better
// guess. The reported depth stays that of the last finished iteration.
func (s *searcher) usePartial() {
	if s.partial < 0 || s.info.Depth == 0 || s.info.Score.IsMate() {
		return
	}
	s.info.Best = cellPoint(int(s.partial))
	s.info.Score = s.partialScore
	s.info.PV = s.info.PV[:0]
	for _, m := range s.partialPV[:s.partialLen] {
		s.info.PV = append(s.info.PV, cellPoint(int(m)))
	}
}

// aspirate runs a root iteration, with an aspiration window around the previous
// score when enabled (re-searching with the full window when the score falls outside).
func (s *searcher) aspirate(depth int, prev Score) (Score, bool) {
	full := func() (Score, bool) { return s.rootSearch(depth, -MateScore-1, MateScore+1) }
	if !s.cfg.aspiration || depth < 4 || s.noise > 0 || prev.IsMate() {
		return full()
	}
	const window = 60
	v, ok := s.rootSearch(depth, prev-window, prev+window)
	if !ok || (v > prev-window && v < prev+window) {
		return v, ok
	}
	return full()
}
