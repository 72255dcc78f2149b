package puzzles

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/redis/go-redis/v9"

	"github.com/gomoku-arena/gomoku/room/rating"
)

// Outcomes of an attempt that is over.
const (
	OutcomeSolved = "solved"
	OutcomeFailed = "failed"
)

// Attempt is one try of a player at a puzzle.
type Attempt struct {
	ID     string `json:"id"`
	Player string `json:"player"`
	Guest  bool   `json:"guest,omitempty"`
	Puzzle string `json:"puzzle"`
	// Line is every move played since the puzzle's start (attacker, defender, ...).
	Line []string `json:"line"`
	// First: the player's first attempt of this puzzle (rated unless Assisted).
	First    bool   `json:"first,omitempty"`
	Assisted bool   `json:"assisted,omitempty"`
	Over     bool   `json:"over,omitempty"`
	Outcome  string `json:"outcome,omitempty"`
	// Change is the player's rating change, once over (Before == After when unrated).
	Change  *Change `json:"change,omitempty"`
	StartMS int64   `json:"start"`
}

// Rated reports whether the attempt's end changes ratings.
func (a Attempt) Rated() bool { return a.First && !a.Assisted }

// Change is a player's puzzle rating around an attempt's end.
type Change struct {
	Before rating.Rating `json:"before"`
	After  rating.Rating `json:"after"`
	Rated  bool          `json:"rated"`
}

// startScript starts an attempt: KEYS 1 the attempt, 2 the player's played set;
// ARGV 1 the attempt as first try, 2 as a later try, 3 the puzzle id, 4 now (ms),
// 5 the attempt TTL (ms), 6 the played set's TTL (ms; 0 keep). Reply 1 first, 0 not.
var startScript = redis.NewScript(`
local first = redis.call('ZSCORE', KEYS[2], ARGV[3]) == false
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[3])
if ARGV[6] ~= '0' then redis.call('PEXPIRE', KEYS[2], ARGV[6]) end
if first then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[5])
  return 1
end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[5])
return 0`)

// Start starts an attempt of player at a puzzle; it is the player's first (rated)
// attempt unless the player has attempted the puzzle before. guest: the player has
// no account (its puzzle records expire after the retention).
func (s *Store) Start(ctx context.Context, player string, guest bool, puzzleID string) (Attempt, error) {
	if !validID(player) {
		return Attempt{}, fmt.Errorf("puzzles: bad player id %q", player)
	}
	var nonce [12]byte
	_, _ = rand.Read(nonce[:])
	a := Attempt{ID: hex.EncodeToString(nonce[:]), Player: player, Guest: guest, Puzzle: puzzleID,
		Line: []string{}, StartMS: s.now().UnixMilli()}
	later, _ := json.Marshal(a)
	a.First = true
	first, _ := json.Marshal(a)
	n, err := startScript.Run(ctx, s.c, []string{AttemptKey(a.ID), PlayedKey(player)},
		first, later, puzzleID, a.StartMS, s.attemptTTL.Milliseconds(), s.playerTTL(guest)).Int()
	if err != nil {
		return Attempt{}, wrap("start attempt", err)
	}
	a.First = n == 1
	return a, nil
}

func (s *Store) playerTTL(guest bool) string {
	if !guest {
		return "0"
	}
	return strconv.FormatInt(s.retention.Milliseconds(), 10)
}

// Load returns an attempt and its stored encoding (for Save and Finish).
func (s *Store) Load(ctx context.Context, id string) (Attempt, string, error) {
	if !validID(id) {
		return Attempt{}, "", ErrNoSuchAttempt
	}
	raw, err := s.c.Get(ctx, AttemptKey(id)).Result()
	if errors.Is(err, redis.Nil) {
		return Attempt{}, "", ErrNoSuchAttempt
	}
	if err != nil {
		return Attempt{}, "", wrap("load attempt", err)
	}
	var a Attempt
	if err := json.Unmarshal([]byte(raw), &a); err != nil {
		return Attempt{}, "", fmt.Errorf("puzzles: stored attempt %s: %w", id, err)
	}
	return a, raw, nil
}

// casScript replaces KEYS[1] by ARGV[2] if it still holds ARGV[1] (keeping its TTL).
var casScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
return 1`)

// Save stores a changed attempt that is not over (a move and its reply, a hint) if
// the stored one is still prev (as Load returned it), else ErrConflict.
func (s *Store) Save(ctx context.Context, prev string, a Attempt) (string, error) {
	body, err := json.Marshal(a)
	if err != nil {
		return "", err
	}
	n, err := casScript.Run(ctx, s.c, []string{AttemptKey(a.ID)}, prev, body).Int()
	if err != nil {
		return "", wrap("save attempt", err)
	}
	if n != 1 {
		return "", ErrConflict
	}
	return string(body), nil
}
