package room

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/gomoku-arena/gomoku/engine"
)

// searchKey identifies the position a search is for.
type searchKey struct {
	game  int
	ply   int
	hash  uint64
	color engine.Color
	step  OpeningStep // an opening action is asked for, not a move
}

// search is a running AI search (a seat's move or a hint), owned by the actor.
type search struct {
	key    searchKey
	cancel context.CancelFunc
	hint   bool
}

// aiMsg is a search's progress report (prog set) or its result. Both travel on one
// channel so that progress never arrives after the result.
type aiMsg struct {
	s    *search
	prog *AIProgress
	res  engine.Result
	open *openingAction // the result of an opening decision (runOpening)
	err  error
}

func (r *Room) currentKey() searchKey {
	return searchKey{game: r.state.Game(), ply: r.state.Ply(), hash: r.state.Hash(), color: r.state.ToMove(), step: r.state.Opening()}
}

// syncAI cancels searches whose position stopped being current (README invariant 7) and starts
// the search of a machine seat that is to move.
func (r *Room) syncAI() {
	key := r.currentKey()
	for s, req := range r.hints {
		if s.key != key || r.state.Phase() != PhasePlaying {
			s.cancel()
			delete(r.hints, s)
			req.reply <- response{err: ErrStalePly}
		}
	}
	c := r.state.MachineToMove()
	if r.passive {
		c = engine.Empty // the active node searches
	}
	if r.search != nil && (c == engine.Empty || r.search.key != key) {
		r.search.cancel()
		r.search, r.lastAI = nil, nil
	}
	if c == engine.Empty || r.search != nil || r.pendingAI != nil {
		return
	}
	p, err := r.player(c)
	if err != nil {
		r.opts.Logger.Warn("room: AI seat has no player", "room", r.id, "err", err)
		r.forfeit(c)
		return
	}
	ctx, cancel := context.WithCancel(r.ctx)
	s := &search{key: key, cancel: cancel}
	r.search = s
	r.wg.Add(1)
	if key.step != "" {
		go r.runOpening(ctx, s, r.openingEvaluator(c, p), r.state.Board(), r.state.Settings().Opening, r.openingSeed(), r.limits(c))
		return
	}
	go r.runSearch(ctx, s, p, r.state.Board(), r.limits(c))
}

func (r *Room) forfeit(c engine.Color) {
	now := r.opts.Clock.Now()
	if _, err := r.commit(Command{Kind: CmdForfeit, Color: c.String()}, now); err != nil {
		r.retryAt = now.Add(r.opts.RetryDelay)
	}
}

// player returns (and caches) the engine.Player of machine seat c.
func (r *Room) player(c engine.Color) (engine.Player, error) {
	i := r.state.SeatOfGame1(c)
	if r.players[i] == nil {
		p, err := r.opts.Players(r.state.Seat(c).Spec)
		if err != nil {
			return nil, err
		}
		r.players[i] = p
	}
	return r.players[i], nil
}

// limits returns the search limits of seat c: the clock and the per-move limit; the
// level's own budget is applied by its player.
func (r *Room) limits(c engine.Color) engine.Limits {
	var l engine.Limits
	tc := r.state.Settings().Time
	if tc.BaseMS > 0 {
		clk, _ := r.state.Clock(r.opts.Clock.Now())
		left := clk.BlackMS
		if c == engine.White {
			left = clk.WhiteMS
		}
		l.Clock = &engine.Clock{Left: time.Duration(left) * time.Millisecond, Increment: tc.Increment()}
	}
	if pm := tc.PerMove(); pm > 0 && !r.state.FirstMovePending() {
		l.Time = pm - min(pm/5, 500*time.Millisecond)
	}
	if fm := r.state.Settings().FirstMove(); r.state.FirstMovePending() && tc.Enabled() {
		// A first move that overran would abort the game: keep it well inside.
		if t := fm / 4; l.Time == 0 || l.Time > t {
			l.Time = t
		}
	}
	l.Seed = GameSeed(r.id, r.state.Game())
	if r.opts.AILimits != nil {
		l = r.opts.AILimits(l)
	}
	return l
}

// runSearch runs one search on its own goroutine: waits for a scheduler slot, streams
// throttled progress and sends the result back to the actor unless cancelled.
func (r *Room) runSearch(ctx context.Context, s *search, p engine.Player, b *engine.Board, l engine.Limits) {
	defer r.wg.Done()
	defer s.cancel()
	base := AIProgress{Color: s.key.color.String(), Ply: s.key.ply}
	release, ok := r.acquireSlot(ctx, s, base)
	if !ok {
		return
	}
	start := r.opts.Clock.Now()
	var mu sync.Mutex
	var last time.Time
	res, err := safePlay(ctx, p, b, l, func(info engine.Info) {
		now := r.opts.Clock.Now()
		mu.Lock()
		if !last.IsZero() && now.Sub(last) < r.opts.AIProgressInterval {
			mu.Unlock()
			return
		}
		last = now
		mu.Unlock()
		r.sendProgress(s, progressOf(base, info, now.Sub(start)))
	})
	release()
	if ctx.Err() != nil {
		return
	}
	select {
	case r.aiC <- aiMsg{s: s, res: res, err: err}:
	case <-ctx.Done():
	}
}

// acquireSlot waits for a scheduler slot for s, reported as queued meanwhile and as
// thinking once it has one; false when ctx ended first.
func (r *Room) acquireSlot(ctx context.Context, s *search, base AIProgress) (release func(), ok bool) {
	release, err := r.opts.Scheduler.Acquire(ctx, func() {
		q := base
		q.Status = AIQueued
		r.sendProgress(s, q)
	})
	if err != nil {
		return nil, false
	}
	t := base
	t.Status = AIThinking
	r.sendProgress(s, t)
	return release, true
}

// safePlay runs p.Play, turning a panic of the player into an error (the seat forfeits)
// instead of a crash of the server.
func safePlay(ctx context.Context, p engine.Player, b *engine.Board, l engine.Limits, progress func(engine.Info)) (res engine.Result, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("room: player %s panicked: %v", p.Name(), v)
		}
	}()
	return p.Play(ctx, b, l, progress)
}

func (r *Room) sendProgress(s *search, p AIProgress) {
	if s.hint {
		return
	}
	select {
	case r.aiC <- aiMsg{s: s, prog: &p}:
	default: // the actor is busy: progress is ephemeral
	}
}

func progressOf(base AIProgress, info engine.Info, el time.Duration) AIProgress {
	p := base
	p.Status = AIThinking
	p.Depth, p.SelDepth = info.Depth, info.SelDepth
	p.Score, p.Mate = int(info.Score), info.Score.MatePlies()
	p.Nodes, p.NPS = info.Nodes, info.NPS
	p.PV = make([]string, len(info.PV))
	for i, q := range info.PV {
		p.PV[i] = q.String()
	}
	if info.Elapsed > 0 {
		el = info.Elapsed
	}
	p.ElapsedMS, p.BudgetMS = el.Milliseconds(), info.Budget.Milliseconds()
	return p
}

func (r *Room) aiProgress(m aiMsg) {
	if m.s != r.search {
		return
	}
	p := *m.prog
	r.lastAI = &p
	cp := p
	r.broadcast(Update{AI: &cp})
	if r.opts.Replicator != nil {
		r.opts.Replicator.AIProgress(r.id, p)
	}
}

// aiResult applies a search result: an AI move goes through Apply like a human move,
// checked against the position hash it was computed for; stale results are dropped.
func (r *Room) aiResult(m aiMsg) {
	if m.prog != nil {
		r.aiProgress(m)
		return
	}
	if m.s.hint {
		r.hintResult(m)
		return
	}
	if m.s != r.search {
		return // stale: the position changed, the search was cancelled
	}
	r.search, r.lastAI = nil, nil
	c := m.s.key.color
	if m.err != nil || (m.open == nil && m.res.Move == engine.NoPoint) {
		r.opts.Logger.Warn("room: AI player failed", "room", r.id, "err", m.err)
		r.forfeit(c)
		return
	}
	if p := r.state.PaceUntil(); r.opts.Clock.Now().Before(p) {
		r.holdAI(m, p)
		return
	}
	cmd := Command{Kind: CmdAIMove, Color: c.String(), Point: m.res.Move.String(), Ply: m.s.key.ply, Hash: m.s.key.hash}
	if m.open != nil {
		cmd = m.open.command(m.s.key)
	}
	_, err := r.exec(cmd)
	switch {
	case err == nil:
	case errors.Is(err, ErrPaced):
		r.holdAI(m, r.state.PaceUntil())
	case errors.Is(err, ErrUnavailable):
		r.pendingAI = &m
		r.retryAt = r.opts.Clock.Now().Add(r.opts.RetryDelay)
	case errors.Is(err, ErrStaleAIResult), errors.Is(err, ErrGameOver), errors.Is(err, ErrTimeUp), errors.Is(err, ErrConflict):
		r.syncAI()
	default:
		r.opts.Logger.Warn("room: AI move refused", "room", r.id, "move", cmd.Point, "err", err)
		r.forfeit(c)
	}
}

// holdAI keeps an AI vs AI move that came before the room's pace allows it until
// then (the search stays current: a change of position drops the held move).
func (r *Room) holdAI(m aiMsg, until time.Time) {
	r.search, r.paced, r.pacedAt = m.s, &m, until
}

// releaseAI applies a held AI move once its time has come.
func (r *Room) releaseAI(now time.Time) {
	m := r.paced
	if m == nil || now.Before(r.pacedAt) {
		return
	}
	r.paced, r.pacedAt = nil, time.Time{}
	if m.s == r.search {
		r.aiResult(*m)
	}
}

// retryAI re-submits an AI move whose write failed.
func (r *Room) retryAI() {
	m := r.pendingAI
	r.pendingAI = nil
	if m == nil {
		return
	}
	r.search = m.s
	r.aiResult(*m)
}

// startHint starts a hint search for the player to move; the reply is deferred until
// the search ends.
func (r *Room) startHint(req request) (Reply, error) {
	if !r.state.Settings().Hints {
		return Reply{}, ErrHintsOff
	}
	me := r.state.ColorOf(req.cmd.By.ID)
	if me == engine.Empty {
		return Reply{}, ErrNotAPlayer
	}
	switch r.state.Phase() {
	case PhaseWaiting:
		return Reply{}, ErrGameNotStarted
	case PhaseOver:
		return Reply{}, ErrGameOver
	}
	if r.state.ToMove() != me {
		return Reply{}, ErrNotYourTurn
	}
	if r.state.Opening() != "" {
		return Reply{}, ErrInOpening
	}
	if len(r.hints) >= 2 {
		return Reply{}, ErrRateLimited
	}
	p, err := r.hintEngine()
	if err != nil {
		return Reply{}, ErrHintsOff
	}
	ctx, cancel := context.WithCancel(r.ctx)
	s := &search{key: r.currentKey(), cancel: cancel, hint: true}
	r.hints[s] = req
	r.wg.Add(1)
	go r.runSearch(ctx, s, p, r.state.Board(), engine.Limits{Time: r.opts.HintTime})
	return Reply{}, errDeferred
}

// hintEngine returns (and caches) the built-in player at the hint level.
func (r *Room) hintEngine() (engine.Player, error) {
	if r.hintPlayer == nil {
		p, err := r.opts.Players(SeatSpec{Kind: AI, Level: r.opts.HintLevel})
		if err != nil {
			return nil, err
		}
		r.hintPlayer = p
	}
	return r.hintPlayer, nil
}

func (r *Room) hintResult(m aiMsg) {
	req, ok := r.hints[m.s]
	if !ok {
		return
	}
	delete(r.hints, m.s)
	if m.s.key != r.currentKey() {
		req.reply <- response{err: ErrStalePly}
		return
	}
	if m.err != nil || m.res.Move == engine.NoPoint {
		req.reply <- response{err: ErrInternal}
		return
	}
	req.reply <- response{Reply: Reply{Seq: r.state.Seq(), Hint: &Hint{Point: m.res.Move.String(), Score: int(m.res.Score)}}}
}
