package room

import (
	"time"
	"unicode/utf8"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/room/protocol"
)

// SeatKind says who plays a seat.
type SeatKind string

// Seat kinds.
const (
	Human  SeatKind = "human"  // a person, seated with the sit command
	AI     SeatKind = "ai"     // the built-in engine at a level
	Engine SeatKind = "engine" // a configured external (Gomocup) engine, by name
)

// SeatSpec describes a seat. Level is used by AI seats, Engine by engine seats.
// Player reserves a human seat for one player id: nobody else may sit there (quick
// pairing seats the two players it matched, and a lobby visitor must not take a seat
// in between).
type SeatSpec struct {
	Kind   SeatKind `json:"kind"`
	Level  string   `json:"level,omitempty"`
	Engine string   `json:"engine,omitempty"`
	Player string   `json:"player,omitempty"`
}

// IsMachine reports whether the seat is played by an engine (built-in or external).
func (s SeatSpec) IsMachine() bool { return s.Kind == AI || s.Kind == Engine }

// DefaultAILevel is the level of an AI seat asked for without one.
const DefaultAILevel = "intermediate"

// Normalize is the one resolution of a seat spec: it fills the defaults (kind human,
// an AI seat's level DefaultAILevel), drops the fields the kind does not use, and
// refuses an unknown kind or AI level and an engine seat without a name. Whether a
// named engine is configured is Options.ValidateSeat's check.
func (s SeatSpec) Normalize() (SeatSpec, error) {
	switch s.Kind {
	case "", Human:
		return SeatSpec{Kind: Human, Player: s.Player}, nil
	case AI:
		if s.Level == "" {
			s.Level = DefaultAILevel
		}
		if _, err := engine.LevelByName(s.Level); err != nil {
			return s, protocol.Detail(ErrBadSettings, "unknown AI level %q (see GET /api/engines)", protocol.Truncate(s.Level, 32))
		}
		return SeatSpec{Kind: AI, Level: s.Level}, nil
	case Engine:
		if s.Engine == "" {
			return s, protocol.Detail(ErrBadSettings, "an engine seat needs an engine name")
		}
		return SeatSpec{Kind: Engine, Engine: s.Engine}, nil
	}
	return s, protocol.Detail(ErrBadSettings, `seat "kind" must be human, ai or engine`)
}

// TimeControl is a room's clock. All zero: no clock. BaseMS > 0: Fischer, each side
// starts with BaseMS and gains IncrementMS after each of its moves. PerMoveMS > 0:
// every move must be made within that time (alone or together with Fischer).
type TimeControl struct {
	BaseMS      int64 `json:"base_ms"`
	IncrementMS int64 `json:"increment_ms"`
	PerMoveMS   int64 `json:"per_move_ms"`
}

// Enabled reports whether any clock runs.
func (t TimeControl) Enabled() bool { return t.BaseMS > 0 || t.PerMoveMS > 0 }

// Base, Increment and PerMove return the fields as durations.
func (t TimeControl) Base() time.Duration { return time.Duration(t.BaseMS) * time.Millisecond }
func (t TimeControl) Increment() time.Duration {
	return time.Duration(t.IncrementMS) * time.Millisecond
}
func (t TimeControl) PerMove() time.Duration { return time.Duration(t.PerMoveMS) * time.Millisecond }

// Settings are a room's fixed configuration, stored in its created event.
type Settings struct {
	Rule      string      `json:"rule"` // freestyle, standard, renju
	Size      int         `json:"size"` // 15..20
	Time      TimeControl `json:"time"`
	Black     SeatSpec    `json:"black"` // the seats of game 1; a rematch swaps them
	White     SeatSpec    `json:"white"`
	Public    bool        `json:"public"`
	Takebacks bool        `json:"takebacks"`
	Chat      bool        `json:"chat"`
	Hints     bool        `json:"hints"`
	// Opening is the opening rule: none, swap or swap2 (opening.go).
	Opening string `json:"opening"`
	// FirstMoveMS is how long each side has for its first move in a timed game (its
	// clock starts only with that move); a side that lets it pass aborts the game
	// (no result). Normalize turns 0 into DefaultFirstMoveMS.
	FirstMoveMS int64 `json:"first_move_ms"`
	// AIPaceMS is the least time between two moves of an AI vs AI game, so that people
	// can watch it (the AI thinks meanwhile; the time is not charged to its clock).
	// 0: no pace. New rooms get DefaultAIPaceMS unless they ask otherwise.
	AIPaceMS int64 `json:"ai_pace_ms,omitempty"`
	// Rated: the games count for both players' ratings in the room's pool (Pool). Only
	// between two accounts (the sit command refuses guests), on a 15×15 board with a
	// clock, without machine seats or hints (rated.go).
	Rated bool `json:"rated,omitempty"`
	// AutoAnalysis: the server analyses each finished game of the room by itself
	// (room/analysis, on the AI scheduler's background lane), without anybody asking.
	// Only for rooms with a machine seat (games against the AI).
	AutoAnalysis bool `json:"auto_analysis,omitempty"`
}

// FirstMove and AIPace return the fields as durations.
func (s Settings) FirstMove() time.Duration { return time.Duration(s.FirstMoveMS) * time.Millisecond }
func (s Settings) AIPace() time.Duration    { return time.Duration(s.AIPaceMS) * time.Millisecond }

// DefaultSettings returns a 15x15 freestyle room for two humans, public, with takebacks
// and chat allowed, no clock, the default first-move time and AI pace.
func DefaultSettings() Settings {
	return Settings{Rule: "freestyle", Size: engine.DefaultSize, Black: SeatSpec{Kind: Human},
		White: SeatSpec{Kind: Human}, Public: true, Takebacks: true, Chat: true, Opening: OpeningNone,
		FirstMoveMS: DefaultFirstMoveMS, AIPaceMS: DefaultAIPaceMS}
}

// Limits of settings and inputs.
const (
	MinBaseMS      = int64(10 * time.Second / time.Millisecond)
	MinPerMoveMS   = int64(time.Second / time.Millisecond)
	MaxBaseMS      = int64(3 * time.Hour / time.Millisecond)
	MaxIncrementMS = int64(time.Minute / time.Millisecond)
	MaxPerMoveMS   = int64(time.Hour / time.Millisecond)
	MaxNameRunes   = 40

	DefaultFirstMoveMS = int64(30 * time.Second / time.Millisecond)
	MinFirstMoveMS     = int64(10 * time.Second / time.Millisecond)
	MaxFirstMoveMS     = int64(10 * time.Minute / time.Millisecond)
	DefaultAIPaceMS    = int64(time.Second / time.Millisecond)
	MaxAIPaceMS        = int64(30 * time.Second / time.Millisecond)
)

// Normalize fills defaults (size 15, rule freestyle, seats as SeatSpec.Normalize) and
// validates s.
func (s Settings) Normalize() (Settings, error) {
	if s.Rule == "" {
		s.Rule = "freestyle"
	}
	if s.Size == 0 {
		s.Size = engine.DefaultSize
	}
	if s.Opening == "" {
		s.Opening = OpeningNone
	}
	if !validOpening(s.Opening) {
		return s, protocol.Detail(ErrBadSettings, `"opening" must be none, swap or swap2`)
	}
	if s.FirstMoveMS == 0 {
		s.FirstMoveMS = DefaultFirstMoveMS
	}
	if _, err := engine.ParseRule(s.Rule); err != nil {
		return s, protocol.Detail(ErrBadSettings, `"rule" must be freestyle, standard or renju`)
	}
	if s.Size < engine.MinSize || s.Size > engine.MaxSize {
		return s, protocol.Detail(ErrBadSettings, `"size" must be %d..%d`, engine.MinSize, engine.MaxSize)
	}
	switch t := s.Time; {
	case t.BaseMS != 0 && (t.BaseMS < MinBaseMS || t.BaseMS > MaxBaseMS):
		return s, protocol.Detail(ErrBadSettings, `"time.base_ms" must be 0 or %d..%d`, MinBaseMS, MaxBaseMS)
	case t.IncrementMS < 0 || t.IncrementMS > MaxIncrementMS || (t.BaseMS == 0 && t.IncrementMS != 0):
		return s, protocol.Detail(ErrBadSettings, `"time.increment_ms" must be 0..%d and needs base_ms`, MaxIncrementMS)
	case t.PerMoveMS != 0 && (t.PerMoveMS < MinPerMoveMS || t.PerMoveMS > MaxPerMoveMS):
		return s, protocol.Detail(ErrBadSettings, `"time.per_move_ms" must be 0 or %d..%d`, MinPerMoveMS, MaxPerMoveMS)
	case s.FirstMoveMS < MinFirstMoveMS || s.FirstMoveMS > MaxFirstMoveMS:
		return s, protocol.Detail(ErrBadSettings, `"first_move_ms" must be %d..%d`, MinFirstMoveMS, MaxFirstMoveMS)
	case s.AIPaceMS < 0 || s.AIPaceMS > MaxAIPaceMS:
		return s, protocol.Detail(ErrBadSettings, `"ai_pace_ms" must be 0..%d`, MaxAIPaceMS)
	}
	var err error
	if s.Black, err = s.Black.Normalize(); err != nil {
		return s, err
	}
	if s.White, err = s.White.Normalize(); err != nil {
		return s, err
	}
	if s.AutoAnalysis && !s.Black.IsMachine() && !s.White.IsMachine() {
		return s, protocol.Detail(ErrBadSettings, `"auto_analysis" is for games against the AI: one seat must be "ai" or "engine"`)
	}
	return s, s.checkRated()
}

func (s Settings) rule() engine.Rule {
	r, _ := engine.ParseRule(s.Rule)
	return r
}

// Player identifies a person: ID is the server's stable player id (bound to the
// player's token), Name the display name. The room trusts the caller (the server) to
// have authenticated the ID.
type Player struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Account: the player has an account (not a guest), as the server says; rated
	// rooms seat accounts only.
	Account bool `json:"account,omitempty"`
	// Rating is the player's rating in the room's pool when seated, as displayed
	// ("1520", "1500?" while provisional); empty for rooms without a pool.
	Rating string `json:"rating,omitempty"`
}

func validName(s string) bool {
	return utf8.ValidString(s) && utf8.RuneCountInString(s) <= MaxNameRunes
}
