// The view: snapshots and events folded into the room's moves, phase and result, the
// protocol violations seen on the way, and waiting for a condition on it.

package wstest

import (
	"context"
	"fmt"
	"time"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/protocol"
)

// ClockLeft returns colour's remaining time on a snapshot's clock at now (the side to
// move loses now - at while the clock runs).
func ClockLeft(c *room.ClockSnapshot, color string, now time.Time) time.Duration {
	ms := c.BlackMS
	if color == "white" {
		ms = c.WhiteMS
	}
	if c.Running && c.ToMove == color {
		ms -= now.UnixMilli() - c.AtMS
	}
	return time.Duration(ms) * time.Millisecond
}

func (c *Client) problem(format string, args ...any) {
	c.mu.Lock()
	c.problems = append(c.problems, fmt.Sprintf(format, args...))
	c.mu.Unlock()
}

// apply folds one message into the view (c.mu held).
func (c *Client) apply(m Msg) {
	switch m.Type {
	case "ack", "error", protocol.TypeSeeking, protocol.TypeSeekEnded:
		if m.ID != "" {
			c.byID[m.ID] = m
		}
	case "snapshot":
		if m.Room == nil {
			c.problems = append(c.problems, fmt.Sprintf("gen %d: snapshot without room", m.Gen))
			return
		}
		if m.Seq < c.lastSeq {
			c.problems = append(c.problems, fmt.Sprintf("gen %d: snapshot seq %d < last seq %d", m.Gen, m.Seq, c.lastSeq))
		}
		r := m.Room
		c.lastSeq, c.moves, c.phase = m.Seq, append([]string(nil), r.Moves...), string(r.Phase)
		c.result, c.reason = r.Result, r.Reason
	case "event":
		e := m.Event
		if e == nil || e.Seq != m.Seq {
			c.problems = append(c.problems, fmt.Sprintf("gen %d: bad event frame %s", m.Gen, m.Raw))
			return
		}
		if m.Seq <= c.lastSeq {
			c.problems = append(c.problems, fmt.Sprintf("gen %d: event seq %d repeated (last seq %d)", m.Gen, m.Seq, c.lastSeq))
			return
		}
		if m.Seq != c.lastSeq+1 && c.lastSeq != 0 {
			c.problems = append(c.problems, fmt.Sprintf("gen %d: seq gap: event %d after %d", m.Gen, m.Seq, c.lastSeq))
		}
		c.lastSeq = m.Seq
		switch e.Kind {
		case "started":
			// A game may start from stones already on the board (an AI show's balanced
			// opening): they are the first plies.
			c.phase, c.moves = "playing", append([]string(nil), e.OpeningStones...)
		case "move":
			if e.Ply != len(c.moves) {
				c.problems = append(c.problems, fmt.Sprintf("gen %d: move event seq %d at ply %d but view has %d moves", m.Gen, e.Seq, e.Ply, len(c.moves)))
			}
			c.moves = append(c.moves, e.Point)
		case "takeback":
			if n := len(c.moves) - e.Plies; n >= 0 {
				c.moves = c.moves[:n]
			}
		case "game_over":
			c.phase, c.result, c.reason = "over", e.Result, e.Reason
		case "rematch":
			c.phase, c.moves, c.result, c.reason = "playing", append([]string(nil), e.OpeningStones...), "", ""
		}
	}
}

// View is a copy of the client's current view of the room.
type View struct {
	Alive   bool
	Gen     int
	Role    string
	LastSeq uint64
	Moves   []string
	Phase   string
	Result  string
	Reason  string
}

// Over reports whether the game has ended.
func (v View) Over() bool { return v.Phase == "over" }

// ToMove is the colour to move ("black" on even plies).
func (v View) ToMove() string {
	if len(v.Moves)%2 == 0 {
		return "black"
	}
	return "white"
}

// View returns the current view.
func (c *Client) View() View {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.viewLocked()
}

func (c *Client) viewLocked() View {
	return View{Alive: c.alive, Gen: c.gen, Role: c.role, LastSeq: c.lastSeq,
		Moves: append([]string(nil), c.moves...), Phase: c.phase, Result: c.result, Reason: c.reason}
}

// Wait blocks until cond(view) holds, the connection drops (ErrDisconnected), or ctx ends.
func (c *Client) Wait(ctx context.Context, cond func(View) bool) (View, error) {
	for {
		c.mu.Lock()
		v, ch := c.viewLocked(), c.changed
		c.mu.Unlock()
		if cond(v) {
			return v, nil
		}
		if !v.Alive {
			return v, ErrDisconnected
		}
		select {
		case <-ctx.Done():
			return v, ctx.Err()
		case <-ch:
		}
	}
}

// Problems returns the protocol violations seen so far.
func (c *Client) Problems() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.problems...)
}
