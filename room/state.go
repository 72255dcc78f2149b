package room

import (
	"time"

	"github.com/gomoku-arena/gomoku/engine"
)

// Phase is the phase of a room's current game.
type Phase string

// Phases: waiting for players, a game in play, the game over (a rematch starts the
// next game).
const (
	PhaseWaiting Phase = "waiting"
	PhasePlaying Phase = "playing"
	PhaseOver    Phase = "over"
)

type seat struct {
	spec   SeatSpec
	player Player // zero when the seat is open (human seats)
	filled bool   // a human sits (machines are always filled)
	left   bool   // the player left after the game ended
}

// State is the complete state of a room: settings, seats, the current game's board
// and clocks, pending offers and the result. It is a value: Apply returns a new State
// and never changes the one it was given (shared slices and the board are never
// written in place), and accessors return copies. The zero State has no room yet.
type State struct {
	id        string
	settings  Settings
	createdAt int64
	updatedAt int64
	seq       uint64
	game      int
	phase     Phase
	seats     [2]seat       // current game's colours: 0 black, 1 white
	board     *engine.Board // never modified once in a State
	moveSeq   []uint64      // seq of each move event of the current game
	clocks    [2]time.Duration
	// plyClocks holds, for each ply of the current game, the clocks as they were when
	// that ply's turn began: a takeback restores them exactly (no banked increments).
	// Rebuilt by fold from the move events' clocks.
	plyClocks []Clocks
	turnStart time.Time
	drawOffer engine.Color // who offered
	takeback  engine.Color // who requested
	rematch   engine.Color // who offered
	result    string
	reason    string
	line      []string
	chat      []ChatLine    // the latest chat lines, never written in place (chat.go)
	step      OpeningStep   // the opening's current step ("" when none runs)
	openPlies int           // stones placed under the opening rule in the current game
	choice    string        // the opening choice awaiting its colours event
	swapped   bool          // the current game's opening swapped the seats
	flipped   bool          // the seats are swapped relative to game 1's settings
	ratedGame int           // the last game whose rating change is stored (rating event)
	rating    *RatingChange // its change, never written in place
}

func ci(c engine.Color) int { return int(c) - 1 }

func parseColor(s string) engine.Color {
	switch s {
	case "black":
		return engine.Black
	case "white":
		return engine.White
	}
	return engine.Empty
}

// ID returns the room id.
func (s State) ID() string { return s.id }

// Settings returns the room settings (of game 1: a rematch swaps the seats, see Seat).
func (s State) Settings() Settings { return s.settings }

// Seq returns the seq of the last event applied (0 for the zero State).
func (s State) Seq() uint64 { return s.seq }

// Game returns the current game number (1, then +1 per rematch).
func (s State) Game() int { return s.game }

// Phase returns the phase of the current game.
func (s State) Phase() Phase { return s.phase }

// SeatInfo describes a seat of the current game.
type SeatInfo struct {
	Spec   SeatSpec `json:"spec"`
	Player *Player  `json:"player,omitempty"` // nil when open or a machine
	Left   bool     `json:"left,omitempty"`
}

// Seat returns the seat of colour c in the current game.
func (s State) Seat(c engine.Color) SeatInfo {
	if c != engine.Black && c != engine.White {
		return SeatInfo{}
	}
	st := s.seats[ci(c)]
	info := SeatInfo{Spec: st.spec, Left: st.left}
	if st.filled && st.spec.Kind == Human {
		p := st.player
		info.Player = &p
	}
	return info
}

// ColorOf returns the colour player id sits at in the current game, or Empty.
func (s State) ColorOf(playerID string) engine.Color {
	if playerID == "" {
		return engine.Empty
	}
	for i, st := range s.seats {
		if st.filled && st.spec.Kind == Human && st.player.ID == playerID {
			return engine.Color(i + 1)
		}
	}
	return engine.Empty
}

// Board returns a copy of the current game's board (nil for the zero State).
func (s State) Board() *engine.Board {
	if s.board == nil {
		return nil
	}
	return s.board.Clone()
}

// Hash returns the current position's hash.
func (s State) Hash() uint64 {
	if s.board == nil {
		return 0
	}
	return s.board.Hash()
}

// Ply returns the number of stones on the board.
func (s State) Ply() int {
	if s.board == nil {
		return 0
	}
	return s.board.Ply()
}

// Moves returns the current game's moves in renju notation.
func (s State) Moves() []string {
	if s.board == nil {
		return nil
	}
	ms := s.board.Moves()
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.String()
	}
	return out
}

// ToMove returns the colour of the seat to act (Empty unless a game is in play): the
// side to move, or while an opening runs the seat whose step it is, whatever colour
// of stone that step places (Stone).
func (s State) ToMove() engine.Color {
	if s.phase != PhasePlaying {
		return engine.Empty
	}
	if s.step != "" {
		return s.step.actor()
	}
	return s.board.ToMove()
}

// Stone returns the colour of the next stone on the board (Empty unless a game is in
// play). It differs from ToMove only during an opening.
func (s State) Stone() engine.Color {
	if s.phase != PhasePlaying {
		return engine.Empty
	}
	return s.board.ToMove()
}

// MachineToMove returns the colour to move when a machine seat (AI or external
// engine) is to move in a game in play, else Empty.
func (s State) MachineToMove() engine.Color {
	c := s.ToMove()
	if c == engine.Empty || !s.seats[ci(c)].spec.IsMachine() {
		return engine.Empty
	}
	return c
}

// ReallyStarted reports whether both sides have moved in the current game (under an
// opening rule: whether the second player has made its first choice).
func (s State) ReallyStarted() bool {
	if s.settings.Opening != OpeningNone && s.settings.Opening != "" {
		return s.phase != PhaseWaiting && s.step != StepPlace3 && s.step != StepChoose
	}
	return s.Ply() >= 2
}

// DrawOffer, TakebackRequest and RematchOffer return who has a pending offer (or Empty).
func (s State) DrawOffer() engine.Color       { return s.drawOffer }
func (s State) TakebackRequest() engine.Color { return s.takeback }
func (s State) RematchOffer() engine.Color    { return s.rematch }

// Result returns the result ("black", "white", "draw", "aborted"; "" while not over),
// the reason and the winning line.
func (s State) Result() (result, reason string, line []string) {
	return s.result, s.reason, append([]string(nil), s.line...)
}

// FirstMovePending reports whether the side to move has not made its first move of the
// game yet (under an opening rule: its first action, the placement or the choice): its
// clock does not run, the first-move time applies instead (lichess's rule).
func (s State) FirstMovePending() bool {
	return s.phase == PhasePlaying && !s.ReallyStarted()
}

// clockStart returns when the side to move's clock starts running in this turn: the
// turn's start, or its end of the AI pace in a paced AI vs AI game (the pause is
// not charged to the AI).
func (s State) clockStart() time.Time {
	if p := s.PaceUntil(); !p.IsZero() {
		return p
	}
	return s.turnStart
}

// Clock returns both sides' remaining time at now (the side to move is charged the
// time since its turn began), and whether a clock is running. Before a side's first
// move its clock does not run; while the room waits for players both clocks show the
// base time.
func (s State) Clock(now time.Time) (Clocks, bool) {
	c := s.clocks
	running := s.phase == PhasePlaying && s.settings.Time.BaseMS > 0 && !s.FirstMovePending()
	if running {
		m := ci(s.ToMove())
		c[m] -= elapsed(s.clockStart(), now)
		if c[m] < 0 {
			c[m] = 0
		}
	}
	return Clocks{BlackMS: c[0].Milliseconds(), WhiteMS: c[1].Milliseconds()}, running
}

// FirstMoveDeadline returns when the game is aborted if the side to move has not made
// its first move by then (timed games only), or the zero time.
func (s State) FirstMoveDeadline() time.Time {
	if !s.FirstMovePending() || !s.settings.Time.Enabled() {
		return time.Time{}
	}
	return s.turnStart.Add(s.settings.FirstMove())
}

// PaceUntil returns the earliest time the next move of a paced AI vs AI game may be
// applied (Settings.AIPaceMS after the turn began), or the zero time when no pace
// applies.
func (s State) PaceUntil() time.Time {
	if s.phase != PhasePlaying || s.settings.AIPaceMS <= 0 ||
		!s.seats[0].spec.IsMachine() || !s.seats[1].spec.IsMachine() {
		return time.Time{}
	}
	return s.turnStart.Add(s.settings.AIPace())
}

// Deadline returns when the side to move runs out of time (its clock, the per-move
// limit, or the first-move time), or the zero time when no clock runs.
func (s State) Deadline() time.Time {
	if s.phase != PhasePlaying || !s.settings.Time.Enabled() {
		return time.Time{}
	}
	if s.FirstMovePending() {
		return s.FirstMoveDeadline()
	}
	var d time.Time
	start := s.clockStart()
	if s.settings.Time.BaseMS > 0 {
		d = start.Add(s.clocks[ci(s.ToMove())])
	}
	if pm := s.settings.Time.PerMove(); pm > 0 {
		if t := start.Add(pm); d.IsZero() || t.Before(d) {
			d = t
		}
	}
	return d
}

// Expired reports whether the side to move has run out of time at now.
func (s State) Expired(now time.Time) bool {
	d := s.Deadline()
	return !d.IsZero() && !now.Before(d)
}

// Resume returns s continued at resumed after a time in which no node ran the room:
// the side to move keeps the time its turn had taken until lastAlive, the room's last
// known moment of running (zero when unknown: the turn restarts), and is not charged
// for the gap after it. The returned credit is the time not charged (0 when none): the
// store keeps it (CreditStore) so that every node charges the turn the same, through
// any later hand-over.
func (s State) Resume(lastAlive, resumed time.Time) (State, time.Duration) {
	if s.phase != PhasePlaying {
		return s, 0
	}
	if lastAlive.After(resumed) {
		lastAlive = time.Time{} // a clock ahead of ours: charge nothing rather than too much
	}
	from := s.turnStart
	if lastAlive.After(from) {
		from = lastAlive
	}
	gap := resumed.Sub(from).Truncate(time.Millisecond)
	if gap <= 0 {
		return s, 0
	}
	s.turnStart = s.turnStart.Add(gap)
	return s, gap
}

// Credited returns s with a stored credit applied: the time its current turn is not
// charged for, when c is for that turn (it started at c.TurnStartMS).
func (s State) Credited(c TurnCredit) State {
	if s.phase == PhasePlaying && c.MS > 0 && s.turnStart.UnixMilli() == c.TurnStartMS {
		s.turnStart = s.turnStart.Add(time.Duration(c.MS) * time.Millisecond)
	}
	return s
}

// TurnStart returns when the current turn started, as far as it is charged.
func (s State) TurnStart() time.Time { return s.turnStart }

func elapsed(from, to time.Time) time.Duration {
	if d := to.Sub(from); d > 0 {
		return d
	}
	return 0
}

// MoveSeq returns the seq of the move event at ply in the current game (0 if none).
func (s State) MoveSeq(ply int) uint64 {
	if ply < 0 || ply >= len(s.moveSeq) {
		return 0
	}
	return s.moveSeq[ply]
}

// CreatedAt and UpdatedAt return the times of the first and the last event.
func (s State) CreatedAt() time.Time { return time.UnixMilli(s.createdAt).UTC() }
func (s State) UpdatedAt() time.Time { return time.UnixMilli(s.updatedAt).UTC() }

// Status is the lobby status of a room: "open" (waiting with a free human seat),
// "live" (a game in play) or "finished".
func (s State) Status() string {
	switch s.phase {
	case PhasePlaying:
		return "live"
	case PhaseOver:
		return "finished"
	}
	return "open"
}

// GameSeed returns the seed of game number game of room id: the level noise of the AI
// seats and the opening of an AI vs AI game follow it, so that games differ from one
// another while a replay or another node taking the room over chooses the same.
func GameSeed(id string, game int) uint64 {
	h := uint64(14695981039346656037) // FNV-1a of the id, then the game number mixed in
	for i := 0; i < len(id); i++ {
		h = (h ^ uint64(id[i])) * 1099511628211
	}
	h ^= uint64(game) * 0x9E3779B97F4A7C15
	h ^= h >> 31
	h *= 0xBF58476D1CE4E5B9
	h ^= h >> 29
	if h == 0 {
		h = 1 // 0 means "unseeded" to the engine
	}
	return h
}

// gameOpening returns the stones game number game starts from: a balanced opening
// drawn by the game's seed when both seats are machines and no opening rule (swap,
// swap2) applies, else none.
func (s State) gameOpening(game int) []string {
	if !s.seats[0].spec.IsMachine() || !s.seats[1].spec.IsMachine() || s.settings.Opening != OpeningNone {
		return nil
	}
	ops := engine.BalancedOpenings(s.settings.Size, s.settings.rule())
	if len(ops) == 0 {
		return nil
	}
	o := ops[GameSeed(s.id, game)%uint64(len(ops))]
	out := make([]string, len(o))
	for i, p := range o {
		out[i] = p.String()
	}
	return out
}
