package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/redis/go-redis/v9"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/engine/puzzle"
	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/protocol"
	"github.com/gomoku-arena/gomoku/room/puzzles"
)

// Puzzle trainer (docs/protocol.md, "Puzzles"): the puzzles and ratings are
// room/puzzles' (Redis), the verdict on each move the Solver's. Solver calls run on
// the AI scheduler's background lane (a live AI seat preempts them) and are bounded
// per request (puzzleBudget nodes, puzzleTimeCap), one at a time per player, a few
// per address, and a few per node (half the CPUs): beyond those, puzzle_busy.
const (
	puzzleBudget  uint64 = 2_000_000
	puzzleTimeCap        = 3 * time.Second
	puzzleWait           = 3 * time.Second // longest wait for a node slot
	puzzlePerIP          = 4
)

// puzzleTrainer serves /api/puzzles.
type puzzleTrainer struct {
	store   *puzzles.Store
	solver  puzzles.Solver
	sched   *room.Scheduler
	perIP   *ipLimiter
	perUser *ipLimiter
	slots   chan struct{}
	budget  uint64
	timeCap time.Duration
	wait    time.Duration
	bearer  func(echo.Context) (Player, error)
	metrics *Metrics
}

func newPuzzleTrainer(s *Server) *puzzleTrainer {
	sched := s.deps.Scheduler
	if sched == nil {
		sched = room.NewScheduler(0, -1)
	}
	return &puzzleTrainer{store: s.deps.Puzzles, solver: s.deps.PuzzleSolver, sched: sched,
		perIP: newIPLimiter(puzzlePerIP), perUser: newIPLimiter(1),
		slots:  make(chan struct{}, max(1, runtime.NumCPU()/2)),
		budget: puzzleBudget, timeCap: puzzleTimeCap, wait: puzzleWait, bearer: s.bearer, metrics: s.metrics}
}

// routes adds the trainer's API under api (not_found when the server has no store).
func (t *puzzleTrainer) routes(api *echo.Group) {
	api.Match(getHead, "/puzzles/next", t.next)
	api.Match(getHead, "/puzzles/:id", t.get)
	api.POST("/puzzles/:id/attempts", t.start)
	api.POST("/puzzles/attempts/:attempt/moves", t.move)
	api.POST("/puzzles/attempts/:attempt/hint", t.hint)
	api.POST("/puzzles/attempts/:attempt/solution", t.solution)
}

var errNoTrainer = protocol.NewError("server", protocol.CodeNotFound, "this server has no puzzle trainer")

// caller authenticates the request's player.
func (t *puzzleTrainer) caller(c echo.Context) (Player, error) {
	if t.store == nil {
		return Player{}, errNoTrainer
	}
	return t.bearer(c)
}

// puzzleErr turns the store's errors into protocol errors.
func puzzleErr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, puzzles.ErrNoSuchPuzzle):
		return protocol.Errorf(protocol.CodeNoSuchPuzzle, "no such puzzle")
	case errors.Is(err, puzzles.ErrNoSuchAttempt):
		return protocol.Errorf(protocol.CodeNoSuchAttempt, "no such attempt")
	case errors.Is(err, puzzles.ErrAttemptOver):
		return protocol.Errorf(protocol.CodeAttemptOver, "the attempt is over: start a new one")
	case errors.Is(err, puzzles.ErrConflict), errors.Is(err, puzzles.ErrContention):
		return protocol.Errorf(protocol.CodeConflict, "the attempt changed meanwhile: reload it")
	case errors.Is(err, puzzles.ErrBadMove):
		return protocol.Errorf(protocol.CodeBadMove, "the move cannot be played in this position")
	case errors.Is(err, puzzles.ErrBudget):
		return protocol.Errorf(protocol.CodePuzzleBusy, "the position is too hard for the solver's budget: retry later")
	case errors.Is(err, puzzles.ErrUnavailable):
		return protocol.Errorf(protocol.CodeUnavailable, "the store is unavailable: retry")
	}
	return err
}

// view answers a puzzle with the caller's rating.
func (t *puzzleTrainer) view(c echo.Context, p Player, pz puzzle.Puzzle, st puzzles.Stats) error {
	pr, err := t.store.PlayerRating(c.Request().Context(), p.ID)
	if err != nil {
		return puzzleErr(err)
	}
	return c.JSON(http.StatusOK, protocol.PuzzleView{Puzzle: t.wirePuzzle(pz, st), Player: wireRating(pr.Rating)})
}

// next serves GET /api/puzzles/next?rule=.
func (t *puzzleTrainer) next(c echo.Context) error {
	p, err := t.caller(c)
	if err != nil {
		return err
	}
	rule := c.QueryParam("rule")
	if rule == "" {
		rule = "freestyle"
	}
	if rule != "freestyle" && rule != "standard" && rule != "renju" {
		return protocol.Errorf(protocol.CodeBadRequest, `"rule" must be freestyle, standard or renju`)
	}
	pz, st, err := t.store.Next(c.Request().Context(), p.ID, rule)
	if err != nil {
		return puzzleErr(err)
	}
	return t.view(c, p, pz, st)
}

// puzzle reads the :id of a request and its puzzle.
func (t *puzzleTrainer) puzzle(c echo.Context) (puzzle.Puzzle, puzzles.Stats, error) {
	id := c.Param("id")
	if !protocol.ValidPuzzleID(id) {
		return puzzle.Puzzle{}, puzzles.Stats{}, protocol.Errorf(protocol.CodeNoSuchPuzzle, "no such puzzle")
	}
	pz, st, err := t.store.Puzzle(c.Request().Context(), id)
	return pz, st, puzzleErr(err)
}

// get serves GET /api/puzzles/{id}.
func (t *puzzleTrainer) get(c echo.Context) error {
	p, err := t.caller(c)
	if err != nil {
		return err
	}
	pz, st, err := t.puzzle(c)
	if err != nil {
		return err
	}
	return t.view(c, p, pz, st)
}

// start serves POST /api/puzzles/{id}/attempts.
func (t *puzzleTrainer) start(c echo.Context) error {
	p, err := t.caller(c)
	if err != nil {
		return err
	}
	pz, st, err := t.puzzle(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	a, err := t.store.Start(ctx, p.ID, !p.IsAccount(), pz.ID)
	if err != nil {
		return puzzleErr(err)
	}
	t.metrics.PuzzleStarted.Inc()
	pr, err := t.store.PlayerRating(ctx, p.ID)
	if err != nil {
		return puzzleErr(err)
	}
	return c.JSON(http.StatusCreated, protocol.PuzzleAttempt{Attempt: a.ID, Rated: a.Rated(),
		Puzzle: t.wirePuzzle(pz, st), Player: wireRating(pr.Rating)})
}

// attemptState is an attempt open for a step: the attempt as read (raw: its
// encoding, for the compare-and-set), its puzzle, the line as points and the board
// after it.
type attemptState struct {
	a     puzzles.Attempt
	raw   string
	pz    puzzle.Puzzle
	line  []engine.Point
	board *engine.Board
}

// open authenticates the caller and loads its attempt, which must not be over.
func (t *puzzleTrainer) open(c echo.Context) (attemptState, error) {
	p, err := t.caller(c)
	if err != nil {
		return attemptState{}, err
	}
	id := c.Param("attempt")
	if !protocol.ValidPuzzleID(id) {
		return attemptState{}, puzzleErr(puzzles.ErrNoSuchAttempt)
	}
	ctx := c.Request().Context()
	a, raw, err := t.store.Load(ctx, id)
	if err != nil {
		return attemptState{}, puzzleErr(err)
	}
	if a.Player != p.ID {
		return attemptState{}, puzzleErr(puzzles.ErrNoSuchAttempt) // another's: not even its existence
	}
	if a.Over {
		return attemptState{}, puzzleErr(puzzles.ErrAttemptOver)
	}
	pz, _, err := t.store.Puzzle(ctx, a.Puzzle)
	if err != nil {
		return attemptState{}, puzzleErr(err)
	}
	s := attemptState{a: a, raw: raw, pz: pz}
	for _, m := range a.Line {
		pt, err := engine.ParsePoint(m, pz.Size)
		if err != nil {
			return attemptState{}, err
		}
		s.line = append(s.line, pt)
	}
	s.board, err = engine.BoardFromMoves(pz.Size, pz.Rule, append(append([]engine.Point{}, pz.Moves...), s.line...))
	if err != nil {
		return attemptState{}, err
	}
	return s, nil
}

// solve runs fn under the solver bounds: it takes the caller's and a node slot (else
// puzzle_busy) and runs fn on the background lane with the time cap.
func (t *puzzleTrainer) solve(c echo.Context, player string, fn func(ctx context.Context) error) error {
	if t.solver == nil {
		return errNoTrainer
	}
	ip := c.RealIP()
	if !t.perUser.acquire(player) {
		return t.busy("player", "a puzzle request of yours is still running")
	}
	defer t.perUser.release(player)
	if !t.perIP.acquire(ip) {
		return t.busy("address", "too many puzzle requests from this address at once")
	}
	defer t.perIP.release(ip)
	wctx, cancel := context.WithTimeout(c.Request().Context(), t.wait)
	select {
	case t.slots <- struct{}{}:
		cancel()
	case <-wctx.Done():
		cancel()
		return t.busy("slots", "the puzzle solver is busy: retry in a few seconds")
	}
	defer func() { <-t.slots }()
	err := t.sched.Background(c.Request().Context(), func(ctx context.Context) error {
		ctx, cancel := context.WithTimeout(ctx, t.timeCap)
		defer cancel()
		return fn(ctx)
	})
	if err != nil && (errors.Is(err, context.DeadlineExceeded) || c.Request().Context().Err() != nil) {
		return protocol.Errorf(protocol.CodeTimeout, "the solver did not answer in time")
	}
	if errors.Is(err, puzzles.ErrBudget) {
		t.metrics.PuzzleBusy.WithLabelValues("budget").Inc()
	}
	return puzzleErr(err)
}

// busy refuses a request puzzle_busy, counted by reason.
func (t *puzzleTrainer) busy(reason, msg string) error {
	t.metrics.PuzzleBusy.WithLabelValues(reason).Inc()
	return protocol.Errorf(protocol.CodePuzzleBusy, "%s", msg)
}

// ended counts an attempt that ended. Two requests ending one attempt at once on two
// nodes count it twice: rare, as a player runs one puzzle request at a time per node
// and an attempt over is refused before the solver runs.
func (t *puzzleTrainer) ended(a puzzles.Attempt) {
	t.metrics.PuzzleEnded.WithLabelValues(a.Outcome).Inc()
}

// newPuzzleStore returns the trainer's store on c with the shipped suite, seeded into
// the rating indexes (a Redis that does not answer yet is seeded at the next start;
// the puzzles are served meanwhile, only Next finds none).
func newPuzzleStore(ctx context.Context, c redis.UniversalClient, cfg Config) (*puzzles.Store, error) {
	shipped, err := puzzle.Shipped()
	if err != nil {
		return nil, fmt.Errorf("server: the shipped puzzles: %w", err)
	}
	s := puzzles.NewStore(c, shipped, puzzles.WithRetention(cfg.Retention))
	sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := s.Seed(sctx); err != nil && cfg.Logger != nil {
		cfg.Logger.Warn("puzzles: seeding the shipped puzzles failed; next start retries", "err", err)
	}
	return s, nil
}

// startMining mines this node's finished games for puzzles (room/puzzles) on the
// rooms' scheduler's background lane until ctx ends; ends tells it of the games, and
// metrics counts what it mined.
func startMining(ctx context.Context, store *puzzles.Store, miner puzzles.Miner, sched *room.Scheduler,
	rooms gameSource, ends *analysisGameEnds, metrics *Metrics, log *slog.Logger) *puzzles.Mining {
	m := puzzles.NewMining(store, miner, sched, minedGame(rooms), log)
	m.Observe = metrics.observeMining
	ends.bindMining(m)
	go m.Run(ctx)
	return m
}

// minedGame reads a finished game of src for the mining.
func minedGame(src gameSource) puzzles.GameSource {
	return func(ctx context.Context, id string, n int) (puzzles.Game, error) {
		snap, err := src.GameSnapshot(ctx, id, n)
		if err != nil {
			return puzzles.Game{}, err
		}
		g, err := analysisGame(snap)
		return puzzles.Game{Rule: g.Rule, Size: g.Size, Moves: g.Moves}, err
	}
}
