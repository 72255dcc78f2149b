// Package extengine runs third-party Gomocup brains (pbrain-* executables) as
// engine.Players through the Gomocup protocol. A brain that crashes, hangs past its
// time or answers with garbage or an illegal move fails the move with a typed *Error
// (the caller forfeits that side); its process is killed and always reaped.
package extengine

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/engine/gomocup"
)

// Failure kinds; an *Error matches one of them with errors.Is.
var (
	ErrStart   = errors.New("extengine: engine failed to start")
	ErrCrashed = errors.New("extengine: engine exited")
	ErrTimeout = errors.New("extengine: engine exceeded its time")
	ErrGarbage = errors.New("extengine: engine sent garbage")
	ErrIllegal = errors.New("extengine: engine played an illegal move")
	ErrRefused = errors.New("extengine: engine answered ERROR or UNKNOWN")
)

// Error is a failure of an external engine.
type Error struct {
	Kind   error  // one of the Err* sentinels
	Engine string // the engine's name
	Detail string // what happened (the offending line, the exit status, stderr)
}

// Error implements error.
func (e *Error) Error() string { return fmt.Sprintf("%s (%s): %s", e.Kind, e.Engine, e.Detail) }

// Unwrap returns the failure kind.
func (e *Error) Unwrap() error { return e.Kind }

// Config describes an external engine.
type Config struct {
	Path string   // the executable
	Args []string // its arguments (usually none)
	Dir  string   // working directory (default: the executable's directory)
	Name string   // display name (default: the executable's base name)
	// Pause is waited after each reply before the next command is sent, since some
	// brains drop a command that comes too soon (default 50 ms; negative: none).
	Pause time.Duration
	// StartTimeout bounds the answer to START (default 10 s; brains may load tables).
	StartTimeout time.Duration
	// Grace is added to the move time before the engine is declared hung (default 1 s).
	Grace time.Duration
	// MoveTime is the time per move sent as timeout_turn when the limits give none
	// (default 5 s).
	MoveTime time.Duration
	// MaxMemory is sent as INFO max_memory in bytes (0: not sent).
	MaxMemory int64
	// Infos are further lines sent after the INFO lines of every START, such as
	// "INFO MAX_NODE 20000" for a brain that takes a node limit (default: none).
	Infos []string
	// OnMessage, if set, receives the brain's MESSAGE lines.
	OnMessage func(string)
}

// Engine is an external engine seat. One Engine plays one game at a time; it keeps
// the brain's process between moves and restarts it when needed.
type Engine struct {
	cfg Config

	mu        sync.Mutex
	proc      *process
	size      int
	rule      engine.Rule
	known     []engine.Point // the position the brain holds
	lastReply time.Time
}

var _ engine.Player = (*Engine)(nil)

// New returns an external engine player (the process starts at the first move).
func New(cfg Config) *Engine {
	if cfg.Name == "" {
		cfg.Name = filepath.Base(cfg.Path)
	}
	if cfg.Dir == "" {
		cfg.Dir = filepath.Dir(cfg.Path)
	}
	if cfg.Pause == 0 {
		cfg.Pause = 50 * time.Millisecond
	}
	if cfg.StartTimeout <= 0 {
		cfg.StartTimeout = 10 * time.Second
	}
	if cfg.Grace <= 0 {
		cfg.Grace = time.Second
	}
	if cfg.MoveTime <= 0 {
		cfg.MoveTime = 5 * time.Second
	}
	return &Engine{cfg: cfg}
}

// Name implements engine.Player.
func (e *Engine) Name() string { return e.cfg.Name }

// Close ends the brain's process (END, then a kill after a short grace).
func (e *Engine) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.proc != nil {
		e.proc.stop(500 * time.Millisecond)
		e.proc = nil
	}
	return nil
}

func (e *Engine) fail(kind error, format string, args ...any) error {
	detail := fmt.Sprintf(format, args...)
	if e.proc != nil {
		e.proc.kill()
		if s := e.proc.stderr.String(); s != "" {
			detail += "; stderr: " + s
		}
		e.proc = nil
	}
	return &Error{Kind: kind, Engine: e.cfg.Name, Detail: detail}
}

// send writes a command after the pause that follows the brain's last reply.
func (e *Engine) send(ctx context.Context, line string) error {
	if e.cfg.Pause > 0 {
		if wait := time.Until(e.lastReply.Add(e.cfg.Pause)); wait > 0 {
			t := time.NewTimer(wait)
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
				return ctx.Err()
			}
		}
	}
	if err := e.proc.send(line); err != nil {
		return e.fail(ErrCrashed, "writing %q: %v", line, err)
	}
	return nil
}

// await reads lines until want accepts one, the deadline passes or the brain dies.
// MESSAGE and DEBUG lines are passed to OnMessage; want returns (done, err).
func (e *Engine) await(ctx context.Context, deadline time.Time, what string, want func(gomocup.Reply) (bool, error)) error {
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			e.fail(ErrTimeout, "cancelled")
			return ctx.Err()
		case <-timer.C:
			return e.fail(ErrTimeout, "no answer to %s by the deadline", what)
		case line, ok := <-e.proc.lines:
			if !ok {
				<-e.proc.done
				return e.fail(ErrCrashed, "while waiting for %s: %v", what, e.proc.werr)
			}
			r, err := gomocup.ParseReply(line)
			if errors.Is(err, gomocup.ErrEmpty) {
				continue
			}
			if err != nil {
				return e.fail(ErrGarbage, "%v", err)
			}
			switch r.Kind {
			case gomocup.ReplyMessage, gomocup.ReplyDebug, gomocup.ReplySuggest:
				if e.cfg.OnMessage != nil && r.Kind == gomocup.ReplyMessage {
					e.cfg.OnMessage(r.Text)
				}
				continue
			case gomocup.ReplyError, gomocup.ReplyUnknown:
				return e.fail(ErrRefused, "answer to %s: %q", what, trim(line))
			}
			done, err := want(r)
			if err != nil {
				return err
			}
			if done {
				e.lastReply = time.Now()
				return nil
			}
		}
	}
}

func trim(s string) string {
	for len(s) > 0 && (s[len(s)-1] == '\n' || s[len(s)-1] == '\r') {
		s = s[:len(s)-1]
	}
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// start launches the brain and opens a game of the board's size and rule.
func (e *Engine) start(ctx context.Context, b *engine.Board) error {
	if e.proc == nil {
		p, err := startProcess(e.cfg.Path, e.cfg.Args, e.cfg.Dir)
		if err != nil {
			return &Error{Kind: ErrStart, Engine: e.cfg.Name, Detail: err.Error()}
		}
		e.proc, e.lastReply = p, time.Time{}
	}
	e.known = nil
	if err := e.send(ctx, "START "+strconv.Itoa(b.Size())); err != nil {
		return err
	}
	err := e.await(ctx, time.Now().Add(e.cfg.StartTimeout), "START", func(r gomocup.Reply) (bool, error) {
		if r.Kind == gomocup.ReplyOK {
			return true, nil
		}
		return false, e.fail(ErrGarbage, "answer to START: %q", r.Text)
	})
	if err != nil {
		return err
	}
	e.size, e.rule = b.Size(), b.Rule()
	infos := []string{
		"INFO rule " + strconv.Itoa(gomocup.MaskFromRule(b.Rule())),
		"INFO game_type 1",
		"INFO timeout_match 0",
	}
	if e.cfg.MaxMemory > 0 {
		infos = append(infos, "INFO max_memory "+strconv.FormatInt(e.cfg.MaxMemory, 10))
	}
	infos = append(infos, e.cfg.Infos...)
	for _, l := range infos {
		if err := e.send(ctx, l); err != nil {
			return err
		}
	}
	return nil
}

// Prepare starts the brain and opens a game of the given size and rule, so that a slow
// start (a brain allocating its hash table) is not charged to the first move. Play
// starts the brain itself when Prepare was not called.
func (e *Engine) Prepare(ctx context.Context, size int, rule engine.Rule) error {
	b, err := engine.BoardFromMoves(size, rule, nil)
	if err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.start(ctx, b)
}

// Play implements engine.Player.
func (e *Engine) Play(ctx context.Context, b *engine.Board, limits engine.Limits, _ func(engine.Info)) (engine.Result, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	res := engine.Result{Move: engine.NoPoint}
	res.Best = engine.NoPoint
	if b.Outcome().Over {
		return res, engine.ErrGameOver
	}
	begin := time.Now()
	cur := b.Moves()
	if e.proc == nil || e.size != b.Size() || e.rule != b.Rule() || len(cur) == 0 {
		if err := e.start(ctx, b); err != nil {
			return res, err
		}
	}
	turn := limits.Time
	if turn <= 0 && limits.Clock == nil {
		turn = e.cfg.MoveTime
	}
	wait := turn
	if err := e.send(ctx, "INFO timeout_turn "+strconv.FormatInt(turn.Milliseconds(), 10)); err != nil {
		return res, err
	}
	if c := limits.Clock; c != nil {
		if err := e.send(ctx, "INFO time_left "+strconv.FormatInt(c.Left.Milliseconds(), 10)); err != nil {
			return res, err
		}
		if wait <= 0 || c.Left < wait {
			wait = c.Left
		}
	}
	var cmds []string
	switch {
	case len(cur) == 0:
		cmds = []string{"BEGIN"}
	case extends(cur, e.known):
		x, y := gomocup.FromPoint(cur[len(cur)-1], b.Size())
		cmds = []string{fmt.Sprintf("TURN %d,%d", x, y)}
	default:
		cmds = append(cmds, "BOARD")
		me := b.ToMove()
		for i, m := range cur {
			field := gomocup.FieldOpponent
			if (i%2 == 0) == (me == engine.Black) {
				field = gomocup.FieldOwn
			}
			x, y := gomocup.FromPoint(m, b.Size())
			cmds = append(cmds, fmt.Sprintf("%d,%d,%d", x, y, field))
		}
		cmds = append(cmds, "DONE")
	}
	for _, c := range cmds {
		if err := e.send(ctx, c); err != nil {
			return res, err
		}
	}
	sent := time.Now()
	var mv engine.Point
	err := e.await(ctx, sent.Add(wait+e.cfg.Grace), "the move", func(r gomocup.Reply) (bool, error) {
		switch r.Kind {
		case gomocup.ReplyMove:
			p, err := gomocup.ToPoint(r.X, r.Y, b.Size())
			if err == nil {
				err = b.Check(p)
			}
			if err != nil {
				return false, e.fail(ErrIllegal, "%d,%d: %v", r.X, r.Y, err)
			}
			mv = p
			return true, nil
		case gomocup.ReplyOK:
			return false, nil // a stray OK is harmless
		}
		return false, e.fail(ErrGarbage, "instead of a move: %q", r.Text)
	})
	if err != nil {
		return res, err
	}
	e.known = append(cur, mv)
	res.Move, res.Best, res.PV = mv, mv, []engine.Point{mv}
	res.Elapsed = time.Since(begin)
	return res, nil
}

// extends reports whether cur is known plus exactly one move (the opponent's reply).
func extends(cur, known []engine.Point) bool {
	if len(cur) != len(known)+1 {
		return false
	}
	for i, m := range known {
		if cur[i] != m {
			return false
		}
	}
	return true
}
