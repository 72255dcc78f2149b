package rating

import (
	"errors"
	"strings"
	"time"
)

// ErrBadPool is returned for a pool id that names no pool.
var ErrBadPool = errors.New("rating: unknown pool")

// Speed is a speed class, by a game's estimated duration (EstimatedDuration).
type Speed string

// Speed classes and their upper bounds (exclusive) of the estimated duration, as on
// lichess: bullet under 3 minutes, blitz under 8, rapid under 25, classical above.
const (
	Bullet    Speed = "bullet"
	Blitz     Speed = "blitz"
	Rapid     Speed = "rapid"
	Classical Speed = "classical"

	BulletBelow = 3 * time.Minute
	BlitzBelow  = 8 * time.Minute
	RapidBelow  = 25 * time.Minute
)

// Speeds lists the speed classes, fastest first.
var Speeds = []Speed{Bullet, Blitz, Rapid, Classical}

// Rules lists the rules that have pools.
var Rules = []string{"freestyle", "standard", "renju"}

// MovesPerGame is the number of moves per side a game is estimated to last: the base
// time is counted once and the increment (or the per-move limit) that many times.
const MovesPerGame = 40

// EstimatedDuration is how long one side's clock lasts at most in a game of
// MovesPerGame moves: base + MovesPerGame×increment for a Fischer clock; a per-move
// limit caps it at MovesPerGame×perMove (a per-move clock alone gives exactly that).
// Zero means untimed.
func EstimatedDuration(base, increment, perMove time.Duration) time.Duration {
	var d time.Duration
	if base > 0 {
		d = base + MovesPerGame*increment
	}
	if perMove > 0 {
		if pm := MovesPerGame * perMove; d == 0 || pm < d {
			d = pm
		}
	}
	return d
}

// SpeedOf returns the speed class of a time control; ok is false for an untimed game,
// which has no pool: untimed rooms are casual only (a game with no clock has no
// speed to compare players at, and nothing makes a losing player finish it).
func SpeedOf(base, increment, perMove time.Duration) (s Speed, ok bool) {
	d := EstimatedDuration(base, increment, perMove)
	switch {
	case d <= 0:
		return "", false
	case d < BulletBelow:
		return Bullet, true
	case d < BlitzBelow:
		return Blitz, true
	case d < RapidBelow:
		return Rapid, true
	}
	return Classical, true
}

// Pool is a rating pool: a rule and a speed class. A player has one rating per pool.
type Pool struct {
	Rule  string
	Speed Speed
}

// ID returns the pool's stable id, "<rule>-<speed>" (e.g. "freestyle-blitz"), used in
// keys, URLs and the protocol.
func (p Pool) ID() string { return p.Rule + "-" + string(p.Speed) }

// String returns the id.
func (p Pool) String() string { return p.ID() }

// PoolOf returns the pool of a game of rule with a time control; ok is false when the
// rule is unknown or the game is untimed.
func PoolOf(rule string, base, increment, perMove time.Duration) (Pool, bool) {
	s, ok := SpeedOf(base, increment, perMove)
	if !ok || !knownRule(rule) {
		return Pool{}, false
	}
	return Pool{Rule: rule, Speed: s}, true
}

// ParsePool parses a pool id.
func ParsePool(id string) (Pool, error) {
	rule, speed, ok := strings.Cut(id, "-")
	if !ok || !knownRule(rule) || !knownSpeed(Speed(speed)) {
		return Pool{}, ErrBadPool
	}
	return Pool{Rule: rule, Speed: Speed(speed)}, nil
}

// Pools lists every pool, by rule then speed.
func Pools() []Pool {
	out := make([]Pool, 0, len(Rules)*len(Speeds))
	for _, r := range Rules {
		for _, s := range Speeds {
			out = append(out, Pool{Rule: r, Speed: s})
		}
	}
	return out
}

func knownRule(r string) bool {
	for _, x := range Rules {
		if x == r {
			return true
		}
	}
	return false
}

func knownSpeed(s Speed) bool {
	for _, x := range Speeds {
		if x == s {
			return true
		}
	}
	return false
}
