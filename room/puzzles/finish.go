package puzzles

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/redis/go-redis/v9"

	"github.com/gomoku-arena/gomoku/engine/puzzle"
	"github.com/gomoku-arena/gomoku/room/rating"
)

// finishScript ends an attempt exactly once (see the package doc).
//
// KEYS: 1 the attempt, 2 the stats hash, 3 the player's rating, 4 the puzzle's rule
// index. ARGV: 1 the attempt as read, 2 the attempt over, 3 the puzzle id, 4 the
// stats as read ("" absent), 5 the new stats ("" first attempts only), 6 the player's
// rating as read ("" absent), 7 the new player rating ("" unrated), 8 the puzzle's
// new index score ("" unrated), 9 the player rating's TTL (ms; 0 keep).
// Reply: {1} done, {0, stored} the attempt changed (or is gone: {0}), {2} a rating
// changed meanwhile (compute again).
var finishScript = redis.NewScript(`
local cur = redis.call('GET', KEYS[1])
if cur ~= ARGV[1] then
  if cur then return {0, cur} end
  return {0}
end
if ARGV[5] ~= '' then
  local st = redis.call('HGET', KEYS[2], ARGV[3])
  if not st then st = '' end
  if st ~= ARGV[4] then return {2} end
end
if ARGV[7] ~= '' then
  local pr = redis.call('GET', KEYS[3])
  if not pr then pr = '' end
  if pr ~= ARGV[6] then return {2} end
end
redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
if ARGV[5] ~= '' then redis.call('HSET', KEYS[2], ARGV[3], ARGV[5]) end
if ARGV[7] ~= '' then
  if ARGV[9] ~= '0' then
    redis.call('SET', KEYS[3], ARGV[7], 'PX', ARGV[9])
  else
    redis.call('SET', KEYS[3], ARGV[7])
  end
end
if ARGV[8] ~= '' then redis.call('ZADD', KEYS[4], ARGV[8], ARGV[3]) end
return {1}`)

// maxTries bounds the compare-and-set retries of Finish while ratings keep changing.
const maxTries = 16

// Finish ends attempt a (as Load returned it, raw its encoding) at puzzle p, solved
// or failed, and returns it over with the player's rating change. A rated attempt
// (the first, without help) updates the player's and the puzzle's ratings as one
// Glicko-2 game (the player scores 1 for solved); the first attempt of a player also
// counts in the puzzle's plays. When the attempt is already over (a retry, another
// node), the stored outcome is returned and nothing changes; when it changed
// otherwise, ErrConflict.
func (s *Store) Finish(ctx context.Context, a Attempt, raw string, p puzzle.Puzzle, solved bool) (Attempt, error) {
	if a.Over {
		return a, ErrAttemptOver
	}
	for try := 0; try < maxTries; try++ {
		out, done, err := s.finishOnce(ctx, a, raw, p, solved)
		if err != nil || done {
			return out, err
		}
	}
	return Attempt{}, ErrContention
}

func (s *Store) finishOnce(ctx context.Context, a Attempt, raw string, p puzzle.Puzzle, solved bool) (Attempt, bool, error) {
	var stCmd, prCmd *redis.StringCmd
	_, err := s.c.Pipelined(ctx, func(pl redis.Pipeliner) error {
		stCmd = pl.HGet(ctx, KeyStats, p.ID)
		prCmd = pl.Get(ctx, PlayerKey(a.Player))
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		return Attempt{}, false, wrap("finish: read ratings", err)
	}
	stRaw, _ := stCmd.Result()
	prRaw, _ := prCmd.Result()
	st, pr := decodeStats(stRaw, p.Category), decodePlayer(prRaw)
	now := s.now().UnixMilli()
	before := rating.Age(pr.Rating, s.idle(pr))
	out := a
	out.Over = true
	out.Outcome = OutcomeFailed
	score := rating.Loss
	if solved {
		out.Outcome, score = OutcomeSolved, rating.Win
	}
	out.Change = &Change{Before: before, After: before, Rated: a.Rated()}
	newSt, newPr, score8 := "", "", ""
	if a.First {
		n := st
		n.Plays++
		if solved {
			n.Solved++
		}
		if a.Rated() {
			after, puz := rating.Pair(before, st.Rating, score)
			out.Change.After = after
			n.Rating = puz
			np := PlayerRating{Rating: after, N: pr.N + 1, LastMS: now}
			b, _ := json.Marshal(np)
			newPr = string(b)
			score8 = strconv.FormatFloat(puz.R, 'f', 2, 64)
		}
		b, _ := json.Marshal(n)
		newSt = string(b)
	}
	body, err := json.Marshal(out)
	if err != nil {
		return Attempt{}, false, err
	}
	ttl := "0"
	if a.Guest {
		ttl = strconv.FormatInt(s.retention.Milliseconds(), 10)
	}
	res, err := finishScript.Run(ctx, s.c,
		[]string{AttemptKey(a.ID), KeyStats, PlayerKey(a.Player), IndexKey(p.Rule.String())},
		raw, body, p.ID, stRaw, newSt, prRaw, newPr, score8, ttl).Slice()
	if err != nil {
		return Attempt{}, false, wrap("finish", err)
	}
	code, _ := res[0].(int64)
	switch code {
	case 1:
		return out, true, nil
	case 2:
		return Attempt{}, false, nil
	case 0:
		if len(res) < 2 {
			return Attempt{}, true, ErrNoSuchAttempt
		}
		str, _ := res[1].(string)
		var stored Attempt
		if err := json.Unmarshal([]byte(str), &stored); err != nil {
			return Attempt{}, true, fmt.Errorf("puzzles: stored attempt %s: %w", a.ID, err)
		}
		if stored.Over {
			return stored, true, nil
		}
		return Attempt{}, true, ErrConflict
	}
	return Attempt{}, false, fmt.Errorf("puzzles: unexpected script reply %v", res)
}
