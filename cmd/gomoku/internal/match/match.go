// Package match plays matches between two players: openings played twice with the
// colours swapped, per-move time or a game clock, concurrency, an optional SPRT stop
// and PSQ game records.
package match

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/gomoku-arena/gomoku/cmd/gomoku/internal/stats"
	"github.com/gomoku-arena/gomoku/engine"
)

// Factory creates a fresh player for one game (seed varies per game).
type Factory func(seed uint64) engine.Player

// Config is a match.
type Config struct {
	A, B      Factory // the first player (results are from its point of view) and the second
	Games     int
	Openings  []Opening // played in order, each twice (A black, then A white); cycled
	Size      int
	Rule      engine.Rule
	MoveTime  time.Duration // per-move time (when Clock is zero)
	Clock     time.Duration // game clock per side (0: per-move time)
	Increment time.Duration // Fischer increment with Clock
	// Nodes caps every search at this many nodes besides the time (0: none). The
	// built-in engines count their main thread's nodes; external brains ignore it.
	// A node cap plays the same whatever the load of the machine.
	Nodes       uint64
	Concurrency int
	SPRT        *stats.SPRT
	PSQDir      string                // write game-NNNN.psq files here ("" : none)
	Seed        uint64                // base seed for the players
	OnGame      func(Game, Summary)   // called after each game, in completion order
	Grace       time.Duration         // allowed overrun of a move before it is forfeited (default 1 s + 50%)
	Close       func(p engine.Player) // releases a player after its game (optional)
}

// Game is one finished game.
type Game struct {
	Index     int
	Opening   Opening
	AIsBlack  bool
	Black     string
	White     string
	Winner    engine.Color // Empty for a draw
	Reason    string       // "five", "draw", "time", "error: …", "illegal: …"
	Moves     []engine.Point
	MoveTimes []int64 // milliseconds, opening moves 0
}

// AScore returns the first player's score in this game (1, 0.5 or 0).
func (g Game) AScore() float64 {
	switch {
	case g.Winner == engine.Empty:
		return 0.5
	case (g.Winner == engine.Black) == g.AIsBlack:
		return 1
	}
	return 0
}

// Summary is the running total of a match.
type Summary struct {
	Total   stats.Result // from A's point of view
	AsBlack stats.Result // A playing black
	AsWhite stats.Result // A playing white
	Games   int
	SPRT    stats.Decision
	LLR     float64
}

func (s *Summary) add(g Game) {
	s.Games++
	r := &s.AsWhite
	if g.AIsBlack {
		r = &s.AsBlack
	}
	switch g.AScore() {
	case 1:
		s.Total.Wins++
		r.Wins++
	case 0:
		s.Total.Losses++
		r.Losses++
	default:
		s.Total.Draws++
		r.Draws++
	}
}

// Run plays the match and returns its summary; it stops early when ctx ends or the
// SPRT decides.
func Run(ctx context.Context, cfg Config) (Summary, error) {
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = 1
	}
	if len(cfg.Openings) == 0 {
		cfg.Openings = []Opening{{}}
	}
	if cfg.PSQDir != "" {
		if err := os.MkdirAll(cfg.PSQDir, 0o755); err != nil {
			return Summary{}, err
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan int)
	results := make(chan Game)
	var wg sync.WaitGroup
	for w := 0; w < cfg.Concurrency; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				g, err := playGame(ctx, cfg, i)
				if err != nil {
					return // cancelled
				}
				select {
				case results <- g:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := 0; i < cfg.Games; i++ {
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(results)
	}()
	var sum Summary
	var firstErr error
	for g := range results {
		sum.add(g)
		if cfg.PSQDir != "" && firstErr == nil {
			firstErr = writeGame(cfg, g)
		}
		if cfg.SPRT != nil {
			sum.LLR = cfg.SPRT.LLR(sum.Total)
			sum.SPRT = cfg.SPRT.Decide(sum.Total)
		}
		if cfg.OnGame != nil {
			cfg.OnGame(g, sum)
		}
		if sum.SPRT != stats.Continue {
			cancel()
		}
	}
	return sum, firstErr
}

func writeGame(cfg Config, g Game) error {
	f, err := os.Create(filepath.Join(cfg.PSQDir, fmt.Sprintf("game-%04d.psq", g.Index+1)))
	if err != nil {
		return err
	}
	if err := WritePSQ(f, cfg.Size, g.Moves, g.MoveTimes, g.Black, g.White); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// preparer is a player with a slow start (an external brain) that the match starts
// before the game, off the clock.
type preparer interface {
	Prepare(ctx context.Context, size int, rule engine.Rule) error
}

// errCancelled reports a game abandoned because the match stopped.
var errCancelled = errors.New("match: cancelled")

// playGame plays game i: opening i/2, A black on even i.
func playGame(ctx context.Context, cfg Config, i int) (Game, error) {
	op := cfg.Openings[(i/2)%len(cfg.Openings)]
	g := Game{Index: i, Opening: op, AIsBlack: i%2 == 0}
	seed := cfg.Seed + uint64(i)*0x9E3779B97F4A7C15
	a, b := cfg.A(seed), cfg.B(seed+1)
	if cfg.Close != nil {
		defer cfg.Close(a)
		defer cfg.Close(b)
	}
	black, white := a, b
	if !g.AIsBlack {
		black, white = b, a
	}
	g.Black, g.White = black.Name(), white.Name()
	board, err := engine.BoardFromMoves(cfg.Size, cfg.Rule, op.Moves)
	if err != nil {
		return g, err
	}
	for _, side := range []engine.Color{engine.Black, engine.White} {
		p := black
		if side == engine.White {
			p = white
		}
		if pr, ok := p.(preparer); ok {
			if err := pr.Prepare(ctx, cfg.Size, cfg.Rule); err != nil {
				if ctx.Err() != nil {
					return g, errCancelled
				}
				g.Winner, g.Reason = side.Opponent(), "error: "+err.Error()
				return g, nil
			}
		}
	}
	g.Moves = append(g.Moves, op.Moves...)
	g.MoveTimes = make([]int64, len(op.Moves))
	clocks := [3]time.Duration{0, cfg.Clock, cfg.Clock}
	grace := cfg.Grace
	if grace <= 0 {
		grace = time.Second
	}
	for {
		if o := board.Outcome(); o.Over {
			g.Winner = o.Winner
			g.Reason = "five"
			if o.Winner == engine.Empty {
				g.Reason = "draw"
			}
			return g, nil
		}
		if !board.HasLegalMove() { // renju: black has only forbidden points left
			g.Reason = "draw"
			return g, nil
		}
		side := board.ToMove()
		p := black
		if side == engine.White {
			p = white
		}
		limits := engine.Limits{Time: cfg.MoveTime}
		allowed := cfg.MoveTime
		if cfg.Clock > 0 {
			limits = engine.Limits{Clock: &engine.Clock{Left: clocks[side], Increment: cfg.Increment}}
			allowed = clocks[side]
		}
		limits.Nodes = cfg.Nodes
		mctx, mcancel := context.WithTimeout(ctx, allowed+allowed/2+grace)
		start := time.Now()
		res, err := p.Play(mctx, board.Clone(), limits, nil)
		used := time.Since(start)
		mcancel()
		if ctx.Err() != nil {
			return g, errCancelled
		}
		forfeit := func(reason string) (Game, error) {
			g.Winner, g.Reason = side.Opponent(), reason
			return g, nil
		}
		if err != nil {
			return forfeit("error: " + err.Error())
		}
		if cfg.Clock > 0 {
			clocks[side] -= used
			if clocks[side] < 0 {
				return forfeit("time")
			}
			clocks[side] += cfg.Increment
		} else if used > allowed+allowed/2+grace {
			return forfeit("time")
		}
		if err := board.Play(res.Move); err != nil {
			return forfeit(fmt.Sprintf("illegal: %s: %v", res.Move, err))
		}
		g.Moves = append(g.Moves, res.Move)
		g.MoveTimes = append(g.MoveTimes, used.Milliseconds())
	}
}
