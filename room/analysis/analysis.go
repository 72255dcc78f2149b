// Package analysis is the post-game analysis of a finished game: every position is
// searched by the engine at full strength with a per-position budget and checked by
// its threat solvers (VCF, VCT); the moves played are then judged against that
// (mistakes, blunders, missed forced wins, threats left unanswered). The work runs on
// the background lane of the AI scheduler (Runner), so live AI seats never wait for
// it. Results are kept by a Store (Redis: RedisStore) under a lease, so one node
// computes each game's analysis once and every viewer and node shares it.
package analysis

import (
	"context"
	"errors"
	"math"
	"sync"
	"time"

	"github.com/gomoku-arena/gomoku/engine"
)

// Runner runs background engine work; room.Scheduler's Background: fn may be stopped
// (its context cancelled) and run again from the start.
type Runner interface {
	Background(ctx context.Context, fn func(ctx context.Context) error) error
}

// Budget bounds the work per position.
type Budget struct {
	Search      time.Duration // engine search time per position
	Nodes       uint64        // engine search nodes per position (0: no cap; tests use it for reproducible results)
	SolverNodes uint64        // node cap of the VCF and of the VCT solver per position
	Workers     int           // positions analysed side by side (each takes one slot)
}

// DefaultBudget analyses a 60-move game in about 20 s of two idle cores.
var DefaultBudget = Budget{Search: 400 * time.Millisecond, SolverNodes: 60_000, Workers: 2}

// Game is the game to analyse.
type Game struct {
	Size  int
	Rule  engine.Rule
	Moves []engine.Point
	// OpeningPlies is how many of the first stones an opening rule placed (swap, swap2,
	// a shipped opening): they are not judged as moves of their colour.
	OpeningPlies int
}

// Statuses of a Result.
const (
	StatusRunning = "running"
	StatusDone    = "done"
)

// Marks of a move.
const (
	MarkMistake    = "mistake"    // the mover's win probability fell by MistakeDrop or more
	MarkBlunder    = "blunder"    // … by BlunderDrop or more
	MarkMissedWin  = "missed_win" // the mover had a VCF/VCT and let it go
	MarkUnanswered = "unanswered" // the move left the opponent a forced win the mover could have stopped
)

// Thresholds of the marks, in win probability of the mover.
const (
	MistakeDrop = 0.12
	BlunderDrop = 0.25
)

// Result is a game's analysis; Positions[i] is the position before ply i (the last one
// is the final position). While Status is running it holds the positions done so far,
// in order.
type Result struct {
	Status    string     `json:"status"`
	Size      int        `json:"size"`
	Rule      string     `json:"rule"`
	Moves     []string   `json:"moves"`
	BudgetMS  int64      `json:"budget_ms"`
	Total     int        `json:"total"` // positions to analyse: len(Moves)+1
	Positions []Position `json:"positions"`
}

// Position is the analysis of one position and the judgement of the move played from it.
type Position struct {
	Ply    int    `json:"ply"`
	ToMove string `json:"to_move"`
	// Score is the engine's score for the side to move (centi-stones); Mate the plies to
	// a forced end (> 0: the side to move wins), 0 when none was proven.
	Score int `json:"score"`
	Mate  int `json:"mate,omitempty"`
	// Black is black's win probability.
	Black  float64  `json:"black"`
	Best   string   `json:"best,omitempty"`
	PV     []string `json:"pv,omitempty"`
	Depth  int      `json:"depth,omitempty"`
	Forced *Forced  `json:"forced,omitempty"`
	Played string   `json:"played,omitempty"`
	Mark   string   `json:"mark,omitempty"`
	// Drop is how much the move played lowered the mover's win probability.
	Drop float64 `json:"drop,omitempty"`
}

// Forced is a forced win of the side to move found by the threat solvers.
type Forced struct {
	Kind  string   `json:"kind"` // vcf or vct
	Plies int      `json:"plies"`
	Line  []string `json:"line"`
}

// ErrBadGame is returned for a game that does not replay.
var ErrBadGame = errors.New("analysis: the game does not replay")

// winScale is the score (centi-stones) at which the side to move wins about 73% of its
// games: the logistic curve of the win probability.
const winScale = 500.0

// WinProbability returns the side to move's win probability for a score.
func WinProbability(score engine.Score) float64 {
	switch m := score.MatePlies(); {
	case m > 0:
		return 1
	case m < 0:
		return 0
	}
	return 1 / (1 + math.Exp(-float64(score)/winScale))
}

// Analyse analyses every position of g within budget on r. progress (optional) gets
// the result so far after each position, in order. It returns the finished result
// (marks included), or ctx's error. Positions already in prev (a partial result of an
// interrupted run, same moves) are kept.
func Analyse(ctx context.Context, r Runner, g Game, budget Budget, prev *Result, progress func(Result)) (Result, error) {
	boards, err := replay(g)
	if err != nil {
		return Result{}, err
	}
	res := Result{Status: StatusRunning, Size: g.Size, Rule: g.Rule.String(), BudgetMS: budget.Search.Milliseconds(),
		Total: len(boards), Moves: make([]string, len(g.Moves))}
	for i, m := range g.Moves {
		res.Moves[i] = m.String()
	}
	done := make([]*Position, len(boards))
	next := 0
	if prev != nil && equalMoves(prev.Moves, res.Moves) {
		for i := range prev.Positions {
			if i < len(done) {
				p := prev.Positions[i]
				done[i] = &p
				next = i + 1
			}
		}
	}
	var mu sync.Mutex
	emit := func() { // called with mu held: the contiguous prefix
		res.Positions = res.Positions[:0]
		for _, p := range done {
			if p == nil {
				break
			}
			res.Positions = append(res.Positions, *p)
		}
		judge(res.Positions, g)
		if progress != nil {
			progress(cloneResult(res))
		}
	}
	workers := max(1, budget.Workers)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	errC := make(chan error, workers)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			eng := engine.New(engine.Options{LongVCT: true})
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= len(boards) {
					return
				}
				job := &posJob{eng: eng, b: boards[i], budget: budget}
				err := r.Background(ctx, func(ctx context.Context) error {
					job.run(ctx)
					return ctx.Err()
				})
				p := job.position()
				if err != nil {
					errC <- err
					cancel()
					return
				}
				mu.Lock()
				done[i] = &p
				emit()
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	select {
	case err := <-errC:
		return Result{}, err
	default:
	}
	mu.Lock()
	defer mu.Unlock()
	emit()
	res.Status = StatusDone
	return cloneResult(res), nil
}

func equalMoves(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func cloneResult(r Result) Result {
	r.Positions = append([]Position(nil), r.Positions...)
	return r
}

// replay returns the board before each ply and the final board.
func replay(g Game) ([]*engine.Board, error) {
	b, err := engine.NewBoard(g.Size, g.Rule)
	if err != nil {
		return nil, errors.Join(ErrBadGame, err)
	}
	out := []*engine.Board{b.Clone()}
	for _, m := range g.Moves {
		if err := b.Play(m); err != nil {
			return nil, errors.Join(ErrBadGame, err)
		}
		out = append(out, b.Clone())
	}
	return out, nil
}

// posJob analyses one position across preemptions: a solver answer is kept, and the
// search time already spent counts against the budget (the engine's transposition
// table keeps what an interrupted search learnt), so a position finishes even when
// live searches preempt it often.
type posJob struct {
	eng    *engine.Engine
	b      *engine.Board
	budget Budget
	solved bool
	win    engine.ForcedWin
	winOK  bool
	spent  time.Duration
	last   engine.Result
	have   bool
}

// run does what is left of the position's work within ctx (one slot's tenure).
func (j *posJob) run(ctx context.Context) {
	if j.b.Outcome().Over {
		return
	}
	if !j.solved {
		w, ok := j.eng.Solve(ctx, j.b, j.budget.SolverNodes, true)
		if ctx.Err() != nil {
			return // interrupted: solve again
		}
		j.win, j.winOK, j.solved = w, ok, true
	}
	if j.winOK {
		return
	}
	l := engine.Limits{Nodes: j.budget.Nodes}
	if full := j.budget.Search; full > 0 {
		l.Time = full - j.spent
		if l.Time < full/10 {
			if j.have {
				return // the budget is spent: the deepest result so far stands
			}
			l.Time = full / 10
		}
	}
	start := time.Now()
	r := j.eng.Search(ctx, j.b, l, nil)
	j.spent += time.Since(start)
	if r.Move == engine.NoPoint || (ctx.Err() != nil && r.Depth == 0) {
		return
	}
	if !j.have || ctx.Err() == nil || r.Depth >= j.last.Depth {
		j.last, j.have = r, true
	}
}

// position is the analysis of the position once run has finished.
func (j *posJob) position() Position {
	b := j.b
	p := Position{Ply: b.Ply(), ToMove: b.ToMove().String()}
	if o := b.Outcome(); o.Over {
		// The game ended here: the previous mover made five (or the board is full).
		switch o.Winner {
		case engine.Black:
			p.Black = 1
		case engine.White:
			p.Black = 0
		default:
			p.Black = 0.5
		}
		return p
	}
	var score engine.Score
	if j.winOK {
		w := j.win
		kind := "vcf"
		if w.VCT {
			kind = "vct"
		}
		p.Forced = &Forced{Kind: kind, Plies: w.Plies, Line: pointStrings(w.Line)}
		score = engine.MateScore - engine.Score(w.Plies)
		p.Best, p.PV, p.Depth = w.Line[0].String(), p.Forced.Line, w.Plies
	} else {
		r := j.last
		score = r.Score
		p.Depth = r.Depth
		if r.Move != engine.NoPoint {
			p.Best = r.Move.String()
		}
		p.PV = pointStrings(r.PV)
	}
	p.Score, p.Mate = int(score), score.MatePlies()
	p.Black = WinProbability(score)
	if b.ToMove() != engine.Black {
		p.Black = 1 - p.Black
	}
	return p
}

func pointStrings(ps []engine.Point) []string {
	out := make([]string, 0, len(ps))
	for _, q := range ps {
		if q == engine.NoPoint {
			out = append(out, "")
			continue
		}
		out = append(out, q.String())
	}
	return out
}
