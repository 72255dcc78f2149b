package room

import (
	"time"

	"github.com/gomoku-arena/gomoku/engine"
)

// ClockSnapshot is the clock part of a snapshot: remaining times at AtMS, whether they
// run, the side to move and the per-move deadline.
type ClockSnapshot struct {
	BlackMS    int64  `json:"black_ms"`
	WhiteMS    int64  `json:"white_ms"`
	Running    bool   `json:"running"`
	ToMove     string `json:"to_move,omitempty"`
	AtMS       int64  `json:"at"`                    // server time the values are for (Unix ms)
	DeadlineMS int64  `json:"deadline_ms,omitempty"` // when the side to move flags (Unix ms)
	// FirstMoveDeadlineMS is set while the side to move has not made its first move (its
	// clock does not run yet): the game is aborted if it has not moved by then (Unix ms).
	FirstMoveDeadlineMS int64 `json:"first_move_deadline_ms,omitempty"`
}

// Snapshot is the full state of a room as sent to clients (protocol "snapshot").
type Snapshot struct {
	ID              string         `json:"id"`
	Seq             uint64         `json:"seq"`
	Game            int            `json:"game"`
	Phase           Phase          `json:"phase"`
	Status          string         `json:"status"`
	Settings        Settings       `json:"settings"`
	Black           SeatInfo       `json:"black"`
	White           SeatInfo       `json:"white"`
	Moves           []string       `json:"moves"`
	Ply             int            `json:"ply"`
	ToMove          string         `json:"to_move,omitempty"`
	Clock           *ClockSnapshot `json:"clock,omitempty"`
	DrawOffer       string         `json:"draw_offer,omitempty"`
	TakebackRequest string         `json:"takeback_request,omitempty"`
	RematchOffer    string         `json:"rematch_offer,omitempty"`
	// Opening is the opening step in progress (place3, choose, place2, choose2; empty
	// when none runs); Stone the colour of the next stone, which differs from ToMove
	// (the seat to act) only during an opening.
	Opening string `json:"opening,omitempty"`
	Stone   string `json:"stone,omitempty"`
	// OpeningPlies is how many stones the opening placed in this game (takebacks never
	// remove them).
	OpeningPlies int      `json:"opening_plies,omitempty"`
	Result       string   `json:"result,omitempty"`
	Reason       string   `json:"reason,omitempty"`
	Line         []string `json:"line,omitempty"`
	// Forbidden lists black's renju forbidden points while black is to move (State.Forbidden).
	Forbidden []ForbiddenPoint `json:"forbidden,omitempty"`
	Presence  *Presence        `json:"presence,omitempty"` // filled in by the actor
	// Chat holds the room's latest chat lines of both channels (State.Chat), oldest first.
	Chat []ChatLine `json:"chat,omitempty"`
	// Rating is the current game's rating change once recorded (rated rooms).
	Rating    *RatingChange `json:"rating,omitempty"`
	CreatedAt int64         `json:"created_at"`
	UpdatedAt int64         `json:"updated_at"`
}

func colorName(c engine.Color) string {
	if c == engine.Empty {
		return ""
	}
	return c.String()
}

// Snapshot returns the room's snapshot at now (clocks charged until now).
func (s State) Snapshot(now time.Time) Snapshot {
	res, reason, line := s.Result()
	snap := Snapshot{
		ID: s.id, Seq: s.seq, Game: s.game, Phase: s.phase, Status: s.Status(), Settings: s.settings,
		Black: s.Seat(engine.Black), White: s.Seat(engine.White), Moves: s.Moves(), Ply: s.Ply(),
		ToMove: colorName(s.ToMove()), DrawOffer: colorName(s.drawOffer),
		TakebackRequest: colorName(s.takeback), RematchOffer: colorName(s.rematch),
		Opening: string(s.Opening()), Stone: colorName(s.Stone()), OpeningPlies: s.openPlies,
		Result: res, Reason: reason, Line: line, Forbidden: s.Forbidden(), Chat: s.Chat(), CreatedAt: s.createdAt, UpdatedAt: s.updatedAt,
	}
	snap.Rating = s.RatingChange()
	if snap.Moves == nil {
		snap.Moves = []string{}
	}
	if s.settings.Time.Enabled() {
		c, running := s.Clock(now)
		cs := &ClockSnapshot{BlackMS: c.BlackMS, WhiteMS: c.WhiteMS, Running: running,
			ToMove: colorName(s.ToMove()), AtMS: now.UnixMilli()}
		if d := s.FirstMoveDeadline(); !d.IsZero() {
			cs.FirstMoveDeadlineMS = d.UnixMilli()
		} else if d := s.Deadline(); !d.IsZero() {
			cs.DeadlineMS = d.UnixMilli()
			cs.Running = true
		}
		snap.Clock = cs
	}
	return snap
}

// SeatSummary is a seat as listed in the lobby.
type SeatSummary struct {
	Kind     SeatKind `json:"kind"`
	Level    string   `json:"level,omitempty"`
	Engine   string   `json:"engine,omitempty"`
	PlayerID string   `json:"player_id,omitempty"`
	Name     string   `json:"name,omitempty"`
	// Rating is the seated player's rating in the room's pool as displayed (Player.Rating).
	Rating string `json:"rating,omitempty"`
	// Reserved: the seat is kept for one player (SeatSpec.Player).
	Reserved bool `json:"reserved,omitempty"`
}

// Summary is a room's lobby entry, written to the store with every append.
type Summary struct {
	ID        string      `json:"id"`
	Status    string      `json:"status"` // open, live, finished
	Public    bool        `json:"public"`
	Rule      string      `json:"rule"`
	Size      int         `json:"size"`
	Time      TimeControl `json:"time"`
	Opening   string      `json:"opening,omitempty"` // swap or swap2 (omitted: none)
	Black     SeatSummary `json:"black"`
	White     SeatSummary `json:"white"`
	Game      int         `json:"game"`
	Ply       int         `json:"ply"`
	Result    string      `json:"result,omitempty"`
	Reason    string      `json:"reason,omitempty"`
	Seq       uint64      `json:"seq"`
	CreatedAt int64       `json:"created_at"`
	UpdatedAt int64       `json:"updated_at"`
}

// Summary returns the room's lobby entry.
func (s State) Summary() Summary {
	seat := func(c engine.Color) SeatSummary {
		st := s.seats[ci(c)]
		ss := SeatSummary{Kind: st.spec.Kind, Level: st.spec.Level, Engine: st.spec.Engine, Reserved: st.spec.Player != ""}
		if st.filled && st.spec.Kind == Human {
			ss.PlayerID, ss.Name, ss.Rating = st.player.ID, st.player.Name, st.player.Rating
		}
		return ss
	}
	return Summary{
		ID: s.id, Status: s.Status(), Public: s.settings.Public, Rule: s.settings.Rule,
		Size: s.settings.Size, Time: s.settings.Time, Black: seat(engine.Black), White: seat(engine.White),
		Opening: openingSummary(s.settings.Opening),
		Game:    s.game, Ply: s.Ply(), Result: s.result, Reason: s.reason, Seq: s.seq,
		CreatedAt: s.createdAt, UpdatedAt: s.updatedAt,
	}
}

func openingSummary(o string) string {
	if o == OpeningNone {
		return ""
	}
	return o
}
