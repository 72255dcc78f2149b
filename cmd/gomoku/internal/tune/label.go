package tune

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/engine/extengine"
)

// Labelling: the positions of a games file valued by a stronger engine (a teacher)
// instead of the generating engine's own search. The fit then learns the teacher's
// judgement of the positions the engine plays, with the game results left as they
// are.

// Teacher values positions for Label.
type Teacher interface {
	// Value returns b's value from the view of the side to move, in the teacher's
	// units; a win in n plies is 1000000 − n, a loss in n plies −(1000000 − n).
	Value(ctx context.Context, b *engine.Board) (int32, error)
}

// Label returns g with the score of every position after the opening replaced by the
// teacher's value, except where g's own score is a proven win or loss, which is kept
// (the generating engine's mate scores come from forced lines; asking the teacher
// again would only cost its time). It also returns how many positions the teacher
// valued. g is not modified.
func Label(ctx context.Context, g Game, t Teacher) (Game, int, error) {
	b, err := engine.NewBoard(g.Size, g.Rule)
	if err != nil {
		return g, 0, err
	}
	for _, m := range g.Moves[:g.Opening] {
		if err := b.Play(m); err != nil {
			return g, 0, fmt.Errorf("%w: opening move %s: %v", ErrBadGame, m, err)
		}
	}
	out := g
	out.Scores = make([]int32, len(g.Moves)-g.Opening)
	asked := 0
	for i, m := range g.Moves[g.Opening:] {
		if len(g.Scores) > 0 && engine.Score(g.Scores[i]).IsMate() {
			out.Scores[i] = g.Scores[i]
		} else {
			v, err := t.Value(ctx, b)
			if err != nil {
				return g, asked, fmt.Errorf("tune: labelling ply %d: %w", b.Ply()+1, err)
			}
			out.Scores[i] = v
			asked++
		}
		if err := b.Play(m); err != nil {
			return g, asked, fmt.Errorf("%w: move %d %s: %v", ErrBadGame, b.Ply()+1, m, err)
		}
	}
	return out, asked, nil
}

// ErrNoTeacherValue is returned when a teacher brain moved without reporting a value.
var ErrNoTeacherValue = errors.New("tune: the teacher reported no value")

// BrainTeacher is a Teacher backed by a Gomocup brain that reports its search's value
// in MESSAGE lines the way Rapfi does ("... | Eval 204 | ...", "Eval +M25" for a win in
// 25 plies, "Eval -M12" for a loss in 12) and takes a node limit per move
// ("INFO MAX_NODE n"). The value is that of the last such line before the brain's
// move, in the brain's units (Rapfi's win rate is σ(value / its scaling factor)).
type BrainTeacher struct {
	eng *extengine.Engine
	// The last value reported; set by the brain's MESSAGE lines, which extengine
	// passes on from within Play, on the caller's goroutine.
	last    int32
	haveVal bool
}

// NewBrainTeacher returns a teacher that runs the brain at path (its working directory
// is the brain's) with nodes nodes per position. The process starts at the first
// Value; Close ends it.
func NewBrainTeacher(path string, nodes uint64) *BrainTeacher {
	t := &BrainTeacher{}
	t.eng = extengine.New(extengine.Config{
		Path:      path,
		Pause:     -1, // one command at a time: the brain is idle when the next comes
		MoveTime:  time.Minute,
		Grace:     time.Minute, // the node limit ends the search; the time only guards against a hang
		Infos:     []string{"INFO MAX_NODE " + strconv.FormatUint(nodes, 10)},
		OnMessage: t.message,
	})
	return t
}

func (t *BrainTeacher) message(s string) {
	if v, ok := ParseTeacherValue(s); ok {
		t.last, t.haveVal = v, true
	}
}

// Value implements Teacher.
func (t *BrainTeacher) Value(ctx context.Context, b *engine.Board) (int32, error) {
	t.haveVal = false
	if _, err := t.eng.Play(ctx, b, engine.Limits{}, nil); err != nil {
		return 0, err
	}
	if !t.haveVal {
		return 0, ErrNoTeacherValue
	}
	return t.last, nil
}

// Close stops the brain.
func (t *BrainTeacher) Close() error { return t.eng.Close() }

// ParseTeacherValue reads the value from a brain's MESSAGE text in Rapfi's format: the
// field after "Eval" among the " | "-separated fields, a number or ±M n (a win or
// loss in n plies, returned as ±(1000000 − n)).
func ParseTeacherValue(msg string) (int32, bool) {
	for _, f := range strings.Split(msg, "|") {
		f = strings.TrimSpace(f)
		rest, ok := strings.CutPrefix(f, "Eval ")
		if !ok {
			continue
		}
		rest = strings.TrimSpace(rest)
		sign := int32(1)
		switch {
		case strings.HasPrefix(rest, "+M"):
			rest = rest[2:]
		case strings.HasPrefix(rest, "-M"):
			rest, sign = rest[2:], -1
		default:
			v, err := strconv.ParseInt(rest, 10, 32)
			if err != nil || engine.Score(v).IsMate() { // a plain value, not a win or loss
				return 0, false
			}
			return int32(v), true
		}
		n, err := strconv.Atoi(rest)
		if err != nil || n < 0 || n > 1000 {
			return 0, false
		}
		return sign * int32(engine.MateScore-engine.Score(n)), true
	}
	return 0, false
}
