package server

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/engine/puzzle"
	"github.com/gomoku-arena/gomoku/room/protocol"
	"github.com/gomoku-arena/gomoku/room/puzzles"
)

// scriptLine is the test puzzle's winning line: black's open four k8, white's block
// g8, black's five l8 (from h8 i8 j8).
var scriptLine = []string{"k8", "g8", "l8"}

// scriptSolver answers as if scriptLine were the only win. gate, when set, holds
// every call until it is closed (entered is told first).
type scriptSolver struct {
	mu      sync.Mutex
	gate    chan struct{}
	entered chan struct{}
}

func (s *scriptSolver) wait(ctx context.Context) error {
	s.mu.Lock()
	gate, entered := s.gate, s.entered
	s.mu.Unlock()
	if gate == nil {
		return nil
	}
	entered <- struct{}{}
	select {
	case <-gate:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func scriptPoints(from int) []engine.Point {
	out := []engine.Point{}
	for _, m := range scriptLine[from:] {
		p, _ := engine.ParsePoint(m, 15)
		out = append(out, p)
	}
	return out
}

func (s *scriptSolver) Check(ctx context.Context, _ puzzle.Puzzle, line []engine.Point, move engine.Point, _ uint64) (puzzle.Step, error) {
	if err := s.wait(ctx); err != nil {
		return puzzle.Step{}, err
	}
	n := len(line)
	if move.String() != scriptLine[n] {
		return puzzle.Step{Result: puzzle.Wrong, Solution: scriptPoints(n)}, nil
	}
	if n+1 == len(scriptLine) {
		return puzzle.Step{Result: puzzle.Solved}, nil
	}
	return puzzle.Step{Result: puzzle.Continue, Reply: scriptPoints(n + 1)[0]}, nil
}

func (s *scriptSolver) Hint(ctx context.Context, _ puzzle.Puzzle, line []engine.Point, _ uint64) (engine.Point, error) {
	return scriptPoints(len(line))[0], s.wait(ctx)
}

func (s *scriptSolver) Solution(ctx context.Context, _ puzzle.Puzzle, line []engine.Point, _ uint64) ([]engine.Point, error) {
	return scriptPoints(len(line)), s.wait(ctx)
}

// testPuzzleStore is the trainer's store of the test servers: one shipped puzzle.
func testPuzzleStore(t testing.TB, c redis.UniversalClient) *puzzles.Store {
	moves, err := engine.ParseMoves("h8 a1 i8 a2 j8 a3", 15)
	require.NoError(t, err)
	// j8 is a double three, forbidden to black under renju.
	trap, err := engine.ParseMoves("h8 a1 i8 a2 j9 a3 j10 a4", 15)
	require.NoError(t, err)
	s := puzzles.NewStore(c, []puzzle.Puzzle{
		{ID: "vcf-test", Category: "vcf", Rule: engine.Freestyle, Size: 15, ToMove: engine.Black, Moves: moves},
		{ID: "renju-test", Category: "renju-trap", Rule: engine.Renju, Size: 15, ToMove: engine.Black, Moves: trap},
	})
	require.NoError(t, s.Seed(context.Background()))
	return s
}

type apiError struct{ Error protocol.Error }

func TestPuzzleRoutesNeedToken(t *testing.T) {
	e := newEnv(t, nil)
	for _, r := range []struct{ method, path string }{
		{"GET", "/api/puzzles/next"}, {"GET", "/api/puzzles/vcf-test"}, {"POST", "/api/puzzles/vcf-test/attempts"},
		{"POST", "/api/puzzles/attempts/x/moves"}, {"POST", "/api/puzzles/attempts/x/hint"}, {"POST", "/api/puzzles/attempts/x/solution"},
	} {
		var er apiError
		assert.Equal(t, http.StatusUnauthorized, e.do(r.method, r.path, "", nil, &er), r.path)
		assert.Equal(t, protocol.CodeUnauthorized, er.Error.Code, r.path)
	}
}

func TestPuzzleLookups(t *testing.T) {
	e := newEnv(t, nil)
	p := e.player("Ann")
	tests := []struct {
		path   string
		status int
		code   string
	}{
		{"/api/puzzles/next", http.StatusOK, ""},
		{"/api/puzzles/next?rule=freestyle", http.StatusOK, ""},
		{"/api/puzzles/vcf-test", http.StatusOK, ""},
		{"/api/puzzles/next?rule=standard", http.StatusNotFound, protocol.CodeNoSuchPuzzle},
		{"/api/puzzles/next?rule=chess", http.StatusBadRequest, protocol.CodeBadRequest},
		{"/api/puzzles/nope", http.StatusNotFound, protocol.CodeNoSuchPuzzle},
		{"/api/puzzles/a:b", http.StatusNotFound, protocol.CodeNoSuchPuzzle},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			if tt.code != "" {
				var er apiError
				require.Equal(t, tt.status, e.do("GET", tt.path, p.Token, nil, &er))
				assert.Equal(t, tt.code, er.Error.Code)
				return
			}
			var v protocol.PuzzleView
			require.Equal(t, tt.status, e.do("GET", tt.path, p.Token, nil, &v))
			assert.Equal(t, protocol.Puzzle{ID: "vcf-test", Rule: "freestyle", Size: 15, ToMove: "black",
				Moves: []string{"h8", "a1", "i8", "a2", "j8", "a3"}, Category: "vcf", Source: "shipped",
				Rating: 1500, RD: puzzles.PriorRD, Provisional: true}, v.Puzzle)
			assert.Equal(t, protocol.PuzzleRating{Rating: 1500, RD: 350, Provisional: true}, v.Player)
		})
	}
}

// attempt starts an attempt of the test puzzle.
func (e *testEnv) attempt(token string) protocol.PuzzleAttempt {
	e.t.Helper()
	var a protocol.PuzzleAttempt
	require.Equal(e.t, http.StatusCreated, e.do("POST", "/api/puzzles/vcf-test/attempts", token, nil, &a))
	return a
}

func TestPuzzleSolvedRatedOnce(t *testing.T) {
	e := newEnv(t, nil)
	p := e.player("Bea")
	a := e.attempt(p.Token)
	assert.True(t, a.Rated)
	path := "/api/puzzles/attempts/" + a.Attempt + "/moves"

	refusals := []struct {
		body any
		code string
	}{
		{`{"move":`, protocol.CodeBadJSON},
		{map[string]string{"move": "zz"}, protocol.CodeBadMove},
		{map[string]string{"move": "z9"}, protocol.CodeBadMove},  // off the 15×15 board
		{map[string]string{"move": "h8"}, protocol.CodeBadMove},  // occupied
		{map[string]string{"move": "a16"}, protocol.CodeBadMove}, // off the board
	}
	for _, r := range refusals {
		var er apiError
		require.Equal(t, protocol.HTTPStatus(r.code), e.do("POST", path, p.Token, r.body, &er), "%v", r.body)
		assert.Equal(t, r.code, er.Error.Code, "%v", r.body)
	}

	var st protocol.PuzzleStep
	require.Equal(t, http.StatusOK, e.do("POST", path, p.Token, map[string]string{"move": "K8"}, &st))
	assert.Equal(t, protocol.PuzzleStep{Result: "continue", Reply: "g8", Line: []string{"k8", "g8"}}, st)
	st = protocol.PuzzleStep{}
	require.Equal(t, http.StatusOK, e.do("POST", path, p.Token, map[string]string{"move": "l8"}, &st))
	assert.Equal(t, "solved", st.Result)
	assert.Equal(t, []string{"k8", "g8", "l8"}, st.Line)
	require.NotNil(t, st.Rating)
	assert.Equal(t, 1500.0, st.Rating.Before)
	assert.Greater(t, st.Rating.After, 1500.0)

	var er apiError
	require.Equal(t, http.StatusConflict, e.do("POST", path, p.Token, map[string]string{"move": "m8"}, &er))
	assert.Equal(t, protocol.CodeAttemptOver, er.Error.Code)

	var v protocol.PuzzleView
	require.Equal(t, http.StatusOK, e.do("GET", "/api/puzzles/vcf-test", p.Token, nil, &v))
	assert.Equal(t, st.Rating.After, v.Player.Rating)
	assert.Less(t, v.Puzzle.Rating, 1500.0, "the puzzle lost to its solver")
	assert.Equal(t, 1, v.Puzzle.Plays)
	assert.Equal(t, 1, v.Puzzle.SolvedBy)

	// Another player cannot touch the attempt; a second attempt is practice.
	q := e.player("Cid")
	require.Equal(t, http.StatusNotFound, e.do("POST", "/api/puzzles/attempts/"+a.Attempt+"/hint", q.Token, nil, &er))
	assert.Equal(t, protocol.CodeNoSuchAttempt, er.Error.Code)
	b := e.attempt(p.Token)
	assert.False(t, b.Rated)
	st = protocol.PuzzleStep{}
	require.Equal(t, http.StatusOK, e.do("POST", "/api/puzzles/attempts/"+b.Attempt+"/moves", p.Token, map[string]string{"move": "g8"}, &st))
	assert.Equal(t, protocol.PuzzleStep{Result: "wrong", Line: []string{"g8"}, Solution: scriptLine}, st, "unrated: no rating")

	m := e.srv.metrics
	assert.Equal(t, 2.0, testutilCounter(m.PuzzleStarted))
	assert.Equal(t, 1.0, testutilCounter(m.PuzzleEnded.WithLabelValues(puzzles.OutcomeSolved)))
	assert.Equal(t, 1.0, testutilCounter(m.PuzzleEnded.WithLabelValues(puzzles.OutcomeFailed)))
}

// A renju forbidden point is a wrong move (the trap), not a refused one.
func TestPuzzleForbiddenPointIsWrong(t *testing.T) {
	e := newEnv(t, nil)
	p := e.player("Hal")
	var a protocol.PuzzleAttempt
	require.Equal(t, http.StatusCreated, e.do("POST", "/api/puzzles/renju-test/attempts", p.Token, nil, &a))
	var st protocol.PuzzleStep
	require.Equal(t, http.StatusOK, e.do("POST", "/api/puzzles/attempts/"+a.Attempt+"/moves", p.Token, map[string]string{"move": "j8"}, &st))
	assert.Equal(t, "wrong", st.Result)
	require.NotNil(t, st.Rating)
	assert.Less(t, st.Rating.After, st.Rating.Before)
}

func TestPuzzleHintAndSolution(t *testing.T) {
	e := newEnv(t, nil)
	p, q := e.player("Dee"), e.player("Eve")

	// A hint makes the first attempt unrated.
	a := e.attempt(p.Token)
	var h protocol.PuzzleHint
	require.Equal(t, http.StatusOK, e.do("POST", "/api/puzzles/attempts/"+a.Attempt+"/hint", p.Token, nil, &h))
	assert.Equal(t, "k8", h.Hint)
	var sol protocol.PuzzleSolution
	require.Equal(t, http.StatusOK, e.do("POST", "/api/puzzles/attempts/"+a.Attempt+"/solution", p.Token, nil, &sol))
	assert.Equal(t, protocol.PuzzleSolution{Solution: scriptLine, Line: []string{}}, sol)

	// The solution without a hint ends a first attempt as a rated failure.
	b := e.attempt(q.Token)
	sol = protocol.PuzzleSolution{}
	require.Equal(t, http.StatusOK, e.do("POST", "/api/puzzles/attempts/"+b.Attempt+"/solution", q.Token, nil, &sol))
	require.NotNil(t, sol.Rating)
	assert.Less(t, sol.Rating.After, sol.Rating.Before)
	var er apiError
	require.Equal(t, http.StatusConflict, e.do("POST", "/api/puzzles/attempts/"+b.Attempt+"/hint", q.Token, nil, &er))
	assert.Equal(t, protocol.CodeAttemptOver, er.Error.Code)
	require.Equal(t, http.StatusNotFound, e.do("POST", "/api/puzzles/attempts/nosuch/hint", q.Token, nil, &er))
	assert.Equal(t, protocol.CodeNoSuchAttempt, er.Error.Code)
}

// A player's second solver request while the first runs is refused with
// puzzle_busy; the first one completes.
func TestPuzzleBusyPerPlayer(t *testing.T) {
	e := newEnv(t, nil)
	p := e.player("Fay")
	a := e.attempt(p.Token)
	gate, entered := make(chan struct{}), make(chan struct{}, 1)
	e.solver.mu.Lock()
	e.solver.gate, e.solver.entered = gate, entered
	e.solver.mu.Unlock()
	done := make(chan int, 1)
	go func() {
		var h protocol.PuzzleHint
		done <- e.do("POST", "/api/puzzles/attempts/"+a.Attempt+"/hint", p.Token, nil, &h)
	}()
	<-entered
	var er apiError
	require.Equal(t, http.StatusTooManyRequests, e.do("POST", "/api/puzzles/attempts/"+a.Attempt+"/solution", p.Token, nil, &er))
	assert.Equal(t, protocol.CodePuzzleBusy, er.Error.Code)
	close(gate)
	assert.Equal(t, http.StatusOK, <-done)
	assert.Equal(t, 1.0, testutilCounter(e.srv.metrics.PuzzleBusy.WithLabelValues("player")))
}

// The trainer's pages are the web app.
func TestPuzzlePages(t *testing.T) {
	e := newEnv(t, nil)
	for _, path := range []string{"/puzzles", "/puzzles/vcf-001"} {
		res := e.raw("GET", path, nil)
		assert.Equal(t, http.StatusOK, res.status, path)
		assert.Contains(t, string(res.body), "<!doctype html>", path)
	}
}

// A game that ends on the server is mined for puzzles on the background lane: black's
// open three h8 i8 j8 with black to move is a short VCF; the puzzle is then served.
func TestFinishedGamesAreMined(t *testing.T) {
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, open(t))
			ctx, cancel := context.WithCancel(context.Background())
			t.Cleanup(cancel)
			mined := e.srv.metrics.PuzzlesMined
			m := startMining(ctx, e.srv.deps.Puzzles, puzzles.NewEngineSolver(), e.mgr.Scheduler(), e.srv.rooms.(gameSource), e.ends, e.srv.metrics, e.srv.log)
			require.NotNil(t, m)
			id := finishedGame(t, e)
			var n int64
			require.Eventually(t, func() bool {
				var err error
				n, err = e.srv.deps.Puzzles.MinedCount(ctx)
				return err == nil && n > 0
			}, time.Minute, 20*time.Millisecond)
			ids, err := e.rc.ZRange(ctx, puzzles.KeyMined, 0, -1).Result()
			require.NoError(t, err)
			require.Eventually(t, func() bool { return testutilCounter(mined) == float64(n) }, 10*time.Second, 10*time.Millisecond,
				"every stored puzzle counted")
			assert.Zero(t, testutilCounter(e.srv.metrics.PuzzleMineErrors))
			p := e.player("Gus")
			var v protocol.PuzzleView
			require.Equal(t, http.StatusOK, e.do("GET", "/api/puzzles/"+ids[0], p.Token, nil, &v))
			assert.Equal(t, "mined", v.Puzzle.Source)
			assert.Equal(t, "freestyle", v.Puzzle.Rule)
			assert.Contains(t, []string{"vcf", "vct"}, v.Puzzle.Category)
			// Mining the same game again (another node told of it) stores nothing.
			added, err := m.MineGame(ctx, id, 1)
			require.NoError(t, err)
			assert.Zero(t, added)
			after, err := e.srv.deps.Puzzles.MinedCount(ctx)
			require.NoError(t, err)
			assert.Equal(t, n, after)
		})
	}
}
