package pairing

import (
	"strings"

	"github.com/gomoku-arena/gomoku/engine"
	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/protocol"
)

// ErrBadPool refuses a seek for a pool that does not exist (unknown rule or clock).
var ErrBadPool = protocol.NewError("pairing", protocol.CodeBadRequest, `unknown pool: "rule" must be freestyle, standard or renju and "clock" one of 1+0, 3+2, 5+3, 10+5, 15+10, 30+20`)

// Clocks are the time controls one may seek, "minutes+seconds" (Fischer): a short list
// keeps each pool full enough to pair quickly.
var Clocks = []string{"1+0", "3+2", "5+3", "10+5", "15+10", "30+20"}

var clockTimes = map[string]room.TimeControl{
	"1+0":   {BaseMS: 60_000},
	"3+2":   {BaseMS: 180_000, IncrementMS: 2_000},
	"5+3":   {BaseMS: 300_000, IncrementMS: 3_000},
	"10+5":  {BaseMS: 600_000, IncrementMS: 5_000},
	"15+10": {BaseMS: 900_000, IncrementMS: 10_000},
	"30+20": {BaseMS: 1_800_000, IncrementMS: 20_000},
}

// Pool is what a seeker asks for; only seekers of the same pool are paired.
type Pool struct {
	Rule  string // freestyle, standard, renju
	Clock string // one of Clocks
	Rated bool
}

// NewPool validates a pool.
func NewPool(rule, clock string, rated bool) (Pool, error) {
	if _, err := engine.ParseRule(rule); err != nil {
		return Pool{}, ErrBadPool
	}
	if _, ok := clockTimes[clock]; !ok {
		return Pool{}, ErrBadPool
	}
	return Pool{Rule: rule, Clock: clock, Rated: rated}, nil
}

// ParsePool reads a pool's String form.
func ParsePool(s string) (Pool, error) {
	parts := strings.Split(s, "-")
	if len(parts) != 3 || (parts[2] != "rated" && parts[2] != "casual") {
		return Pool{}, ErrBadPool
	}
	return NewPool(parts[0], parts[1], parts[2] == "rated")
}

// String is the pool's name, e.g. "freestyle-3+2-rated" (its key in the seek pool).
func (p Pool) String() string {
	mode := "casual"
	if p.Rated {
		mode = "rated"
	}
	return p.Rule + "-" + p.Clock + "-" + mode
}

// Time is the pool's clock.
func (p Pool) Time() room.TimeControl { return clockTimes[p.Clock] }

// Settings are the settings of a room for match m of this pool: public, both seats
// reserved for the matched players (nobody else may sit), the pool's rule, clock and
// rated flag.
func (p Pool) Settings(m Match) room.Settings {
	s := room.DefaultSettings()
	s.Rule, s.Time, s.Rated = p.Rule, p.Time(), p.Rated
	s.Black = room.SeatSpec{Kind: room.Human, Player: m.Black.ID}
	s.White = room.SeatSpec{Kind: room.Human, Player: m.White.ID}
	return s
}
