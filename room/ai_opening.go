package room

import (
	"context"
	"hash/fnv"
	"strconv"
	"time"

	"github.com/gomoku-arena/gomoku/engine"
)

// Limits of a machine seat's opening decision: each position it weighs gets a
// shallow search, and the whole decision at most openingMaxTime (less when the clock
// or the per-move limit gives less).
const (
	openingDepth      = 3
	openingSearchTime = 150 * time.Millisecond
	openingMaxTime    = 3 * time.Second
)

// openingAction is a machine seat's decision in an opening step: the stones of a
// placement step, or a choice.
type openingAction struct {
	points []engine.Point
	choice engine.OpeningChoice
}

// command returns the CmdAIOpening of the action, for the position of key.
func (o *openingAction) command(key searchKey) Command {
	c := Command{Kind: CmdAIOpening, Color: key.color.String(), Ply: key.ply, Hash: key.hash, Step: string(key.step)}
	if o.choice != 0 {
		c.Choice = o.choice.String()
	}
	for _, p := range o.points {
		c.Points = append(c.Points, p.String())
	}
	return c
}

// openingEvaluator returns the evaluation a machine seat decides its opening with: a
// shallow search of its own player (so that a weaker level proposes and judges less
// well), or for external engines, which report no comparable score, the built-in
// engine at the hint level.
func (r *Room) openingEvaluator(c engine.Color, p engine.Player) engine.Evaluator {
	if r.state.Seat(c).Spec.Kind == Engine {
		if hp, err := r.hintEngine(); err == nil {
			p = hp
		}
	}
	l := engine.Limits{Depth: openingDepth, Time: openingSearchTime}
	if r.opts.AILimits != nil {
		l = r.opts.AILimits(l)
	}
	return engine.PlayerEvaluator(p, l)
}

// openingSeed varies the proposals from game to game and room to room; it is the same
// for the same game, so a node taking the room over proposes what the first would have.
func (r *Room) openingSeed() uint64 {
	h := fnv.New64a()
	h.Write([]byte(r.id))
	h.Write([]byte(strconv.Itoa(r.state.Game())))
	return h.Sum64()
}

// runOpening decides a machine seat's opening action on its own goroutine, like
// runSearch: under a scheduler slot, cancelled when the position stops being current.
// It reads nothing of the room's state (the actor's): rule and seed are passed in.
func (r *Room) runOpening(ctx context.Context, s *search, eval engine.Evaluator, b *engine.Board, rule string, seed uint64, l engine.Limits) {
	defer r.wg.Done()
	defer s.cancel()
	release, ok := r.acquireSlot(ctx, s, AIProgress{Color: s.key.color.String(), Ply: s.key.ply})
	if !ok {
		return
	}
	dctx, cancel := context.WithTimeout(ctx, openingBudget(l))
	act, err := decideOpening(dctx, s.key.step, b, rule, eval, seed)
	cancel()
	release()
	if ctx.Err() != nil {
		return
	}
	select {
	case r.aiC <- aiMsg{s: s, open: &act, err: err}:
	case <-ctx.Done():
	}
}

// openingBudget is the time an opening decision may take under the seat's limits.
func openingBudget(l engine.Limits) time.Duration {
	d := openingMaxTime
	if l.Time > 0 {
		d = min(d, l.Time/2)
	}
	if l.Clock != nil {
		d = min(d, l.Clock.Left/20)
	}
	return max(d, 50*time.Millisecond)
}

// decideOpening is the engine's decision in step st of opening rule rule on b.
func decideOpening(ctx context.Context, st OpeningStep, b *engine.Board, rule string, eval engine.Evaluator, seed uint64) (openingAction, error) {
	opts := engine.OpeningOptions{Seed: seed}
	switch st {
	case StepPlace3, StepPlace2:
		end := 3
		if st == StepPlace2 {
			end = 5
		}
		points, _, err := engine.ProposeOpening(ctx, b, end-b.Ply(), eval, opts)
		return openingAction{points: points}, err
	default:
		ch, _, err := engine.ChooseOpening(ctx, b, st == StepChoose && rule == OpeningSwap2, eval, opts)
		return openingAction{choice: ch}, err
	}
}
