// Package brain is the Gomocup protocol brain behind cmd/pbrain-gomoku: it reads
// manager commands line by line, keeps the game position, runs an engine.Player within
// the time the manager allows and writes replies (flushed one by one).
package brain

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/engine/gomocup"
)

// Config configures a brain.
type Config struct {
	// NewPlayer returns a fresh player for a new game; maxMemoryBytes is the manager's
	// max_memory (0: not given).
	NewPlayer                      func(maxMemoryBytes int64) engine.Player
	Name, Version, Author, Country string
	// Margin is kept free of every time limit for process and pipe latency
	// (default 40 ms, plus 5% of the time).
	Margin time.Duration
	// DefaultTurn is the move time used until the manager sends INFO timeout_turn
	// (default 5 s).
	DefaultTurn time.Duration
	// Messages enables MESSAGE lines with search progress (default on; see Quiet).
	Quiet bool
	// Nodes caps every search at this many nodes besides the time (0: none), so that
	// two brains compared in a match play the same at any load of the machine.
	Nodes uint64
}

// Brain is one protocol session.
type Brain struct {
	cfg   Config
	out   *bufio.Writer
	outMu sync.Mutex

	size        int
	rule        engine.Rule
	board       *engine.Board
	player      engine.Player
	turn        time.Duration // timeout_turn; 0 = as fast as possible
	match       time.Duration // timeout_match; 0 = no limit
	left        time.Duration // time_left; <0 = not given
	maxMemory   int64
	inBoard     bool
	boardStones [][3]int
}

// errEnd stops the session.
var errEnd = errors.New("brain: END")

// Run runs a session until END, EOF or ctx is cancelled.
func Run(ctx context.Context, in io.Reader, out io.Writer, cfg Config) error {
	if cfg.DefaultTurn <= 0 {
		cfg.DefaultTurn = 5 * time.Second
	}
	if cfg.Margin <= 0 {
		cfg.Margin = 40 * time.Millisecond
	}
	b := &Brain{cfg: cfg, out: bufio.NewWriter(out), turn: cfg.DefaultTurn, left: -1}
	lines := make(chan string)
	readErr := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 0, 4096), 1<<20)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			case <-ctx.Done():
				return
			}
		}
		readErr <- sc.Err()
		close(lines)
	}()
	var pending []string
	for {
		var line string
		if len(pending) > 0 {
			line, pending = pending[0], pending[1:]
		} else {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case l, ok := <-lines:
				if !ok {
					return <-readErr
				}
				line = l
			}
		}
		more, err := b.handle(ctx, line, lines)
		pending = append(pending, more...)
		if errors.Is(err, errEnd) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// reply writes one line and flushes it.
func (b *Brain) reply(format string, args ...any) {
	b.outMu.Lock()
	defer b.outMu.Unlock()
	fmt.Fprintf(b.out, format, args...)
	b.out.WriteString("\n")
	_ = b.out.Flush()
}

func (b *Brain) newGame(size int) error {
	bd, err := engine.NewBoard(size, b.rule)
	if err != nil {
		return err
	}
	b.size, b.board = size, bd
	b.player = b.cfg.NewPlayer(b.maxMemory)
	b.inBoard = false
	engine.Prepare(b.rule) // the tables' one-time build, off the first move's clock
	return nil
}

// handle processes one line; it returns lines read while thinking that are still to
// be handled.
func (b *Brain) handle(ctx context.Context, line string, lines <-chan string) ([]string, error) {
	cmd, err := gomocup.ParseCommand(line)
	if errors.Is(err, gomocup.ErrEmpty) {
		return nil, nil
	}
	if b.inBoard && cmd.Kind != gomocup.CmdStone && cmd.Kind != gomocup.CmdDone {
		b.inBoard = false
		b.reply("ERROR BOARD block interrupted by %s", cmd.Name)
	}
	if err != nil {
		b.reply("ERROR %s: %v", cmd.Name, err)
		return nil, nil
	}
	switch cmd.Kind {
	case gomocup.CmdStart:
		if err := b.newGame(cmd.Size); err != nil {
			b.reply("ERROR unsupported size %d (15 to 20)", cmd.Size)
			return nil, nil
		}
		b.reply("OK")
	case gomocup.CmdRectStart:
		if cmd.W != cmd.H || b.newGame(cmd.W) != nil {
			b.reply("ERROR only square boards 15x15 to 20x20 are supported")
			return nil, nil
		}
		b.reply("OK")
	case gomocup.CmdRestart:
		if b.board == nil {
			b.reply("ERROR no game started")
			return nil, nil
		}
		_ = b.newGame(b.size)
		b.reply("OK")
	case gomocup.CmdInfo:
		b.info(cmd.Key, cmd.Value)
	case gomocup.CmdBegin:
		if !b.ready() {
			return nil, nil
		}
		if b.board.Ply() != 0 {
			b.reply("ERROR BEGIN on a non-empty board")
			return nil, nil
		}
		return b.think(ctx, lines)
	case gomocup.CmdTurn:
		if !b.ready() {
			return nil, nil
		}
		p, err := gomocup.ToPoint(cmd.X, cmd.Y, b.size)
		if err == nil {
			err = b.board.Play(p)
		}
		if err != nil {
			b.reply("ERROR TURN %d,%d: %v", cmd.X, cmd.Y, err)
			return nil, nil
		}
		return b.think(ctx, lines)
	case gomocup.CmdBoard:
		if !b.ready() {
			return nil, nil
		}
		b.inBoard, b.boardStones = true, b.boardStones[:0]
	case gomocup.CmdStone:
		if !b.inBoard {
			b.reply("UNKNOWN stone line outside BOARD")
			return nil, nil
		}
		b.boardStones = append(b.boardStones, [3]int{cmd.X, cmd.Y, cmd.Field})
	case gomocup.CmdDone:
		if !b.inBoard {
			b.reply("ERROR DONE without BOARD")
			return nil, nil
		}
		b.inBoard = false
		if err := b.setBoard(); err != nil {
			b.reply("ERROR BOARD: %v", err)
			return nil, nil
		}
		if b.board.Outcome().Over {
			b.reply("ERROR BOARD: the game is over")
			return nil, nil
		}
		return b.think(ctx, lines)
	case gomocup.CmdTakeback:
		if !b.ready() {
			return nil, nil
		}
		if err := b.takeback(cmd.X, cmd.Y); err != nil {
			b.reply("ERROR TAKEBACK: %v", err)
			return nil, nil
		}
		b.reply("OK")
	case gomocup.CmdEnd:
		return nil, errEnd
	case gomocup.CmdAbout:
		b.reply("%s", gomocup.AboutLine(b.cfg.Name, b.cfg.Version, b.cfg.Author, b.cfg.Country))
	default:
		b.reply("UNKNOWN command %q", truncate(cmd.Name, 40))
	}
	return nil, nil
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// ready reports whether a game was started, replying ERROR if not.
func (b *Brain) ready() bool {
	if b.board == nil {
		b.reply("ERROR no game started (send START first)")
		return false
	}
	return true
}

// info applies an INFO key.
func (b *Brain) info(key, value string) {
	n, err := strconv.ParseInt(value, 10, 64)
	ms := time.Duration(n) * time.Millisecond
	switch key {
	case "timeout_turn":
		if err == nil && n >= 0 {
			b.turn = ms
		}
	case "timeout_match":
		if err == nil && n >= 0 {
			b.match = ms
		}
	case "time_left":
		if err == nil {
			b.left = max(ms, 0)
		}
	case "max_memory":
		if err == nil && n >= 0 && n != b.maxMemory {
			b.maxMemory = n
			if b.board != nil {
				b.player = b.cfg.NewPlayer(n) // managers send INFO after START
			}
		}
	case "rule":
		if err == nil {
			r, ok := gomocup.RuleFromMask(int(n))
			if !ok {
				b.reply("MESSAGE rule %d: only exact-five (1) and renju (4) bits are supported; playing %s", n, r)
			}
			engine.Prepare(r)
			if b.board != nil && b.board.Ply() == 0 && r != b.rule {
				b.rule = r
				bd, _ := engine.NewBoard(b.size, r)
				b.board = bd
				return
			}
			b.rule = r
		}
	}
	// game_type, folder, evaluate and others need no action.
}

// limits returns the engine's limits for this move and the hard deadline of the
// search: timeout_turn (0 = as fast as possible: 100 ms) minus the safety margin and
// 5%; with time_left, the game clock too (less the margin), with the moves still
// expected, so that the engine's time manager plans the move from both. The deadline
// is never later than the engine's own hard limit for those limits.
func (b *Brain) limits() (engine.Limits, time.Duration) {
	t := b.turn
	if t == 0 {
		t = 100 * time.Millisecond
	}
	t = max(t-b.cfg.Margin-t/20, minThink)
	l := engine.Limits{Time: t, Nodes: b.cfg.Nodes}
	if b.left >= 0 {
		left := max(b.left-b.cfg.Margin-b.left/20, minThink)
		movesLeft := max(10, (b.size*b.size/3-b.board.Ply())/2)
		l.Clock = &engine.Clock{Left: left, MovesToGo: movesLeft}
		t = min(t, max(left/4, minThink))
	}
	return l, t
}

// minThink is the least time a move is given, whatever the clocks say.
const minThink = 5 * time.Millisecond

// think searches the position and replies with a move, relaying progress as MESSAGE
// lines; an END read meanwhile stops the search and the session.
func (b *Brain) think(ctx context.Context, lines <-chan string) ([]string, error) {
	if b.board.Outcome().Over {
		b.reply("ERROR the game is over")
		return nil, nil
	}
	limits, deadline := b.limits()
	sctx, cancel := context.WithTimeout(ctx, deadline)
	defer cancel()
	type result struct {
		res engine.Result
		err error
	}
	done := make(chan result, 1)
	var progress func(engine.Info)
	if !b.cfg.Quiet {
		progress = func(in engine.Info) { b.reply("MESSAGE %s", formatInfo(in)) }
	}
	board := b.board.Clone()
	start := time.Now()
	go func() {
		res, err := b.player.Play(sctx, board, limits, progress)
		done <- result{res, err}
	}()
	var pending []string
	var ended bool
	var r result
wait:
	for {
		select {
		case r = <-done:
			break wait
		case l, ok := <-lines:
			if !ok {
				ended = true
				cancel()
				continue
			}
			if c, _ := gomocup.ParseCommand(l); c.Kind == gomocup.CmdEnd {
				ended = true
				cancel()
				continue
			}
			pending = append(pending, l)
		}
	}
	if ended {
		return nil, errEnd
	}
	mv := r.res.Move
	if r.err != nil || b.board.Check(mv) != nil {
		// Never answer with an illegal move: fall back to the first legal point.
		b.reply("MESSAGE search failed (%v, move %s); playing a fallback", r.err, mv)
		mv = b.fallback()
	}
	if mv == engine.NoPoint {
		b.reply("ERROR no legal move")
		return pending, nil
	}
	_ = b.board.Play(mv)
	if b.left >= 0 {
		b.left = max(b.left-time.Since(start), 0)
	}
	b.reply("%s", gomocup.FormatMove(mv, b.size))
	return pending, nil
}

// fallback returns the legal point nearest the centre.
func (b *Brain) fallback() engine.Point {
	best, bestD := engine.NoPoint, 1<<30
	c := b.size / 2
	for y := 0; y < b.size; y++ {
		for x := 0; x < b.size; x++ {
			p := engine.Point{X: x, Y: y}
			if d := (x-c)*(x-c) + (y-c)*(y-c); d < bestD && b.board.Check(p) == nil {
				best, bestD = p, d
			}
		}
	}
	return best
}

// formatInfo renders a progress report for a MESSAGE line.
func formatInfo(in engine.Info) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "depth %d-%d ", in.Depth, in.SelDepth)
	if in.Score.IsMate() {
		fmt.Fprintf(&sb, "mate %d ", in.Score.MatePlies())
	} else {
		fmt.Fprintf(&sb, "ev %d ", in.Score)
	}
	fmt.Fprintf(&sb, "n %d nps %d tm %d pv", in.Nodes, in.NPS, in.Elapsed.Milliseconds())
	for _, p := range in.PV {
		sb.WriteString(" ")
		sb.WriteString(p.String())
	}
	return sb.String()
}
