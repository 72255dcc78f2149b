package server

import (
	"context"
	"errors"
	"net/http"
	"runtime"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/engine/baseline"
	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/protocol"
)

// Bounds of the classroom's work per request (docs/protocol.md, "Classroom").
const (
	learnNodeCap = 2_000_000       // per mode
	learnTimeCap = 2 * time.Second // per mode
	learnWait    = 3 * time.Second // longest wait for a free slot before learn_busy
	learnBody    = 4 << 10
)

// learnModes are the compared algorithms, from the textbook's first to its last.
var learnModes = [...]baseline.Mode{baseline.ModeMinimax, baseline.ModeAlphaBeta, baseline.ModeOrdered, baseline.ModeOrderedTT}

// learn serves POST /api/learn/compare and /api/learn/tree. Its searches run on the
// background lane of the AI scheduler (a live AI seat preempts them; a preempted search
// runs again) and are bounded three ways: caps per search, one request at a time per
// client IP, and a few node-wide requests at a time (half the CPUs).
type learn struct {
	sched *room.Scheduler
	perIP *ipLimiter
	slots chan struct{}
	// nodeCap and timeCap bound each search, wait the wait for a slot (tests lower them).
	nodeCap uint64
	timeCap time.Duration
	wait    time.Duration
}

func newLearn(sched *room.Scheduler) *learn {
	if sched == nil {
		sched = room.NewScheduler(0, -1)
	}
	return &learn{
		sched:   sched,
		perIP:   newIPLimiter(1),
		slots:   make(chan struct{}, max(1, runtime.NumCPU()/2)),
		nodeCap: learnNodeCap,
		timeCap: learnTimeCap,
		wait:    learnWait,
	}
}

// errLearnBusy refuses a classroom request when every slot stays busy for learnWait.
var errLearnBusy = protocol.NewError("server", protocol.CodeLearnBusy, "the classroom engine is busy: try again in a few seconds")

// acquire takes the client's slot and a node slot; release undoes both.
func (l *learn) acquire(c echo.Context) (release func(), err error) {
	ip := c.RealIP()
	if !l.perIP.acquire(ip) {
		return nil, protocol.Errorf(protocol.CodeRateLimited, "one classroom search at a time per client")
	}
	ctx, cancel := context.WithTimeout(c.Request().Context(), l.wait)
	defer cancel()
	select {
	case l.slots <- struct{}{}:
		return func() { <-l.slots; l.perIP.release(ip) }, nil
	case <-ctx.Done():
		l.perIP.release(ip)
		return nil, errLearnBusy
	}
}

// learnPosition decodes the request body and plays its position out. A position to
// search (maxDepth > 0) must have a move and no winner yet.
func learnPosition(c echo.Context, maxDepth int) (protocol.LearnRequest, *engine.Board, error) {
	body, err := readBody(c, learnBody)
	if err != nil {
		return protocol.LearnRequest{}, nil, err
	}
	req, err := protocol.DecodeLearnRequest(body, maxDepth)
	if err != nil {
		return req, nil, err
	}
	b, err := playOut(req.Moves, req.Rule, req.Size)
	if err != nil {
		return req, nil, err
	}
	if maxDepth == 0 {
		return req, b, nil
	}
	if b.Outcome().Over {
		return req, nil, protocol.Errorf(protocol.CodeGameOver, "the position is a finished game")
	}
	if b.Ply() == 0 {
		return req, nil, protocol.Errorf(protocol.CodeBadRequest, "play at least one move: the first move is not searched")
	}
	return req, b, nil
}

// playOut plays a position given as its moves in renju notation under a rule the
// request's decoder checked (the classroom and the analysis board).
func playOut(movesText, ruleName string, size int) (*engine.Board, error) {
	rule, _ := engine.ParseRule(ruleName)
	moves, err := engine.ParseMoves(movesText, size)
	if err != nil {
		return nil, protocol.Errorf(protocol.CodeBadRequest, "moves: %v", err)
	}
	b, err := engine.BoardFromMoves(size, rule, moves)
	if err != nil {
		return nil, protocol.Errorf(protocol.CodeBadRequest, "moves: %v", err)
	}
	return b, nil
}

func colorName(c engine.Color) string {
	if c == engine.White {
		return "white"
	}
	return "black"
}

// searchable reads a position to search up to maxDepth and takes a search slot; the
// caller defers release.
func (l *learn) searchable(c echo.Context, maxDepth int) (protocol.LearnRequest, *engine.Board, func(), error) {
	req, b, err := learnPosition(c, maxDepth)
	if err != nil {
		return req, nil, nil, err
	}
	release, err := l.acquire(c)
	if err != nil {
		return req, nil, nil, err
	}
	return req, b, release, nil
}

// compare runs the four algorithms on the position, each under the caps.
func (l *learn) compare(c echo.Context) error {
	req, b, release, err := l.searchable(c, protocol.LearnMaxDepth)
	if err != nil {
		return err
	}
	defer release()
	out := protocol.LearnCompare{Depth: req.Depth, ToMove: colorName(b.ToMove()), Win: baseline.WinValue,
		NodeCap: l.nodeCap, TimeCapMS: l.timeCap.Milliseconds()}
	for _, mode := range learnModes {
		var res baseline.SearchResult
		err := l.sched.Background(c.Request().Context(), func(ctx context.Context) error {
			ctx, cancel := context.WithTimeout(ctx, l.timeCap)
			defer cancel()
			var err error
			res, err = baseline.Search(ctx, b, baseline.Options{Mode: mode, Depth: req.Depth, MaxNodes: l.nodeCap})
			return err
		})
		row := protocol.LearnMode{Mode: mode.String(), Nodes: res.Nodes, TimeMS: float64(res.Elapsed.Microseconds()) / 1000}
		switch {
		case err == nil:
			v := res.Value
			row.Complete, row.Move, row.Value = true, res.Move.String(), &v
		case errors.Is(err, baseline.ErrNodeLimit):
			row.Stopped = "nodes"
		case c.Request().Context().Err() != nil:
			return protocol.Errorf(protocol.CodeTimeout, "request cancelled")
		default:
			row.Stopped = "time"
		}
		out.Modes = append(out.Modes, row)
	}
	return c.JSON(http.StatusOK, out)
}

// tree records a shallow alpha-beta search for the drawing.
func (l *learn) tree(c echo.Context) error {
	req, b, release, err := l.searchable(c, protocol.LearnMaxTreeDepth)
	if err != nil {
		return err
	}
	defer release()
	var root *baseline.TreeNode
	err = l.sched.Background(c.Request().Context(), func(ctx context.Context) error {
		ctx, cancel := context.WithTimeout(ctx, l.timeCap)
		defer cancel()
		var err error
		root, err = baseline.Tree(ctx, b, req.Depth, req.Width)
		return err
	})
	if err != nil {
		return protocol.Errorf(protocol.CodeTimeout, "the tree search did not finish in time")
	}
	out := protocol.LearnTree{Depth: req.Depth, Width: req.Width, ToMove: colorName(b.ToMove()), Win: baseline.WinValue}
	out.Root = wireNode(root, &out.Nodes)
	return c.JSON(http.StatusOK, out)
}

func wireNode(n *baseline.TreeNode, count *int) *protocol.LearnNode {
	*count++
	w := &protocol.LearnNode{Max: n.Maximizing, Alpha: n.Alpha, Beta: n.Beta, Value: n.Value, Leaf: n.Leaf,
		Terminal: n.Terminal, Best: n.Best, Cut: n.Cut, CutBy: n.CutBy}
	if n.Move != engine.NoPoint {
		w.Move = n.Move.String()
	}
	for _, p := range n.Pruned {
		w.Pruned = append(w.Pruned, p.String())
	}
	for _, ch := range n.Children {
		w.Children = append(w.Children, wireNode(ch, count))
	}
	return w
}

// eval explains the classroom evaluation of a position (one pass over the board: no
// slot needed).
func (l *learn) eval(c echo.Context) error {
	_, b, err := learnPosition(c, 0)
	if err != nil {
		return err
	}
	ex := baseline.Explain(b)
	out := protocol.LearnEval{ToMove: colorName(ex.ToMove), Black: ex.Black, White: ex.White, Value: ex.Value,
		Weights: map[string]int{"five": baseline.ScoreFive, "open_four": baseline.ScoreOpenFour, "four": baseline.ScoreFour,
			"open_three": baseline.ScoreOpenThree, "closed_three": baseline.ScoreClosedThree,
			"open_two": baseline.ScoreOpenTwo, "closed_two": baseline.ScoreClosedTwo},
		Patterns: []protocol.LearnPattern{}}
	for _, p := range ex.Patterns {
		w := protocol.LearnPattern{Color: colorName(p.Color), Open: p.Open, Kind: p.Kind, Score: p.Score}
		for _, st := range p.Stones {
			w.Stones = append(w.Stones, st.String())
		}
		out.Patterns = append(out.Patterns, w)
	}
	return c.JSON(http.StatusOK, out)
}
