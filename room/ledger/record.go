package ledger

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gomoku-arena/gomoku/room/rating"
)

// recordScript records one game exactly once (see the package doc).
//
// KEYS: 1 result, 2 pending, then per side (black, white) player hash, games zset,
// history list: 3..5 and 6..8; 9 the pool's leaderboard. Every key is in the
// {ratings} slot; a side without a player passes its keys but is skipped.
// ARGV: 1 pending member, 2 record JSON, 3 record TTL ms (0 keep), 4 pool ("" none),
// 5 end ms, then per side from 6 and 15 (9 values each): player id, expected pool
// field ("" absent), new pool field ("" unrated), game entry ("" none), history
// point, leaderboard score ("" remove), index TTL ms (0 keep), index cut ms (prune
// older entries; 0 none), name; 24 "1" to clear the outbox entry ("0" for a rated
// game: its recorder clears it once the room has its rating event, Unmark).
// Reply: {1} recorded, {2, record} already recorded, {0, side} a rating changed
// meanwhile (compute again).
var recordScript = redis.NewScript(`
local stored = redis.call('GET', KEYS[1])
if stored then
  if ARGV[24] == '1' then redis.call('ZREM', KEYS[2], ARGV[1]) end
  return {2, stored}
end
local pool = ARGV[4]
for s = 0, 1 do
  local a = 6 + 9 * s
  if ARGV[a] ~= '' and ARGV[a + 2] ~= '' then
    local cur = redis.call('HGET', KEYS[3 + 3 * s], pool)
    if not cur then cur = '' end
    if cur ~= ARGV[a + 1] then return {0, s} end
  end
end
for s = 0, 1 do
  local a = 6 + 9 * s
  local id = ARGV[a]
  local hk, gk, lk = KEYS[3 + 3 * s], KEYS[4 + 3 * s], KEYS[5 + 3 * s]
  if id ~= '' then
    if ARGV[a + 8] ~= '' then redis.call('HSET', hk, '_name', ARGV[a + 8]) end
    if ARGV[a + 2] ~= '' then
      redis.call('HSET', hk, pool, ARGV[a + 2])
      redis.call('RPUSH', lk, ARGV[a + 4])
      if ARGV[a + 5] ~= '' then
        redis.call('ZADD', KEYS[9], ARGV[a + 5], id)
      else
        redis.call('ZREM', KEYS[9], id)
      end
    end
    if ARGV[a + 3] ~= '' then
      redis.call('ZADD', gk, ARGV[5], ARGV[a + 3])
      if ARGV[a + 7] ~= '0' then
        redis.call('ZREMRANGEBYSCORE', gk, '-inf', '(' .. ARGV[a + 7])
      end
      if ARGV[a + 6] ~= '0' then
        redis.call('PEXPIRE', gk, ARGV[a + 6])
        redis.call('PEXPIRE', hk, ARGV[a + 6])
      else
        redis.call('PERSIST', gk)
        redis.call('PERSIST', hk)
      end
    end
  end
end
if ARGV[3] ~= '0' then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
else
  redis.call('SET', KEYS[1], ARGV[2])
end
if ARGV[24] == '1' then redis.call('ZREM', KEYS[2], ARGV[1]) end
return {1}
`)

// maxTries bounds the compare-and-set retries of Record when the players' ratings
// keep changing (each retry means another game of theirs was recorded meanwhile).
const maxTries = 16

// Record records a finished game exactly once and returns its record: the stored one
// when the game was recorded before (by this node or another), so every caller sees
// the same rating change. A rated game needs a pool and two players.
func (l *Ledger) Record(ctx context.Context, g Game) (*Record, error) {
	if err := check(g); err != nil {
		return nil, err
	}
	if r, err := l.Result(ctx, g.Room, g.Game); err != nil || r != nil {
		return r, err
	}
	g.EndMS = g.End.UnixMilli()
	g.End = time.UnixMilli(g.EndMS).UTC()
	for try := 0; try < maxTries; try++ {
		rec, done, err := l.recordOnce(ctx, g)
		if err != nil || done {
			return rec, err
		}
	}
	return nil, ErrContention
}

func check(g Game) error {
	switch {
	case !validID(g.Room) || g.Game < 1:
		return fmt.Errorf("%w: room %q game %d", ErrBadGame, g.Room, g.Game)
	case g.Result != "black" && g.Result != "white" && g.Result != "draw" && g.Result != "aborted":
		return fmt.Errorf("%w: result %q", ErrBadGame, g.Result)
	case g.Pool != "" && !validPool(g.Pool):
		return fmt.Errorf("%w: pool %q", ErrBadGame, g.Pool)
	case g.Rated && (g.Pool == "" || g.Black.PlayerID == "" || g.White.PlayerID == "" || g.Black.PlayerID == g.White.PlayerID):
		return fmt.Errorf("%w: a rated game needs a pool and two players", ErrBadGame)
	}
	for _, s := range []Side{g.Black, g.White} {
		if s.PlayerID != "" && !validID(s.PlayerID) {
			return fmt.Errorf("%w: player %q", ErrBadGame, s.PlayerID)
		}
	}
	return nil
}

func validPool(p string) bool { _, err := rating.ParsePool(p); return err == nil }

// recordOnce reads the ratings, computes and runs the script once; done false means
// a rating changed meanwhile.
func (l *Ledger) recordOnce(ctx context.Context, g Game) (*Record, bool, error) {
	rated := g.Rated && g.Result != "aborted"
	var cur [2]string
	var pr [2]PoolRating
	if rated {
		vals, err := l.pipeHGet(ctx, g.Pool, g.Black.PlayerID, g.White.PlayerID)
		if err != nil {
			return nil, false, err
		}
		for i, v := range vals {
			cur[i], pr[i] = v, decodePoolRating(v)
		}
		a := rating.Age(pr[0].Rating, idle(pr[0], g.EndMS))
		b := rating.Age(pr[1].Rating, idle(pr[1], g.EndMS))
		na, nb := rating.Pair(a, b, score(g.Result))
		g.Black.Before, g.Black.After = &a, &na
		g.White.Before, g.White.After = &b, &nb
	}
	recJSON, err := json.Marshal(g)
	if err != nil {
		return nil, false, err
	}
	recTTL := "0"
	if !rated {
		recTTL = strconv.FormatInt(l.retention.Milliseconds(), 10)
	}
	keys := []string{ResultKey(g.Room, g.Game), KeyPending}
	args := []any{pendingMember(g.Room, g.Game), recJSON, recTTL, g.Pool, g.EndMS}
	sides := [2]Side{g.Black, g.White}
	for i, s := range sides {
		id := s.PlayerID
		keys = append(keys, PlayerKey(orBlank(id)), GamesKey(orBlank(id)), HistoryKey(orBlank(id), orBlank(g.Pool)))
		if id == "" || g.Result == "aborted" {
			args = append(args, "", "", "", "", "", "", "0", "0", "")
			continue
		}
		e := entry(g, i, rated)
		eJSON, _ := json.Marshal(e)
		newField, point, top := "", "", ""
		if rated {
			n := pr[i]
			n.Rating = *s.After
			n.Games++
			switch e.Result {
			case Win:
				n.Wins++
			case Loss:
				n.Losses++
			default:
				n.Draws++
			}
			n.LastMS = g.EndMS
			b, _ := json.Marshal(n)
			newField = string(b)
			p, _ := json.Marshal(Point{AtMS: g.EndMS, R: n.R, RD: n.RD, Room: g.Room, Game: g.Game})
			point = string(p)
			if !n.Provisional() {
				top = strconv.FormatFloat(n.R, 'f', 2, 64)
			}
		}
		ttl, cut := "0", "0"
		if !s.Account {
			ttl = strconv.FormatInt(l.retention.Milliseconds(), 10)
			cut = strconv.FormatInt(g.EndMS-l.retention.Milliseconds(), 10)
		}
		args = append(args, id, cur[i], newField, string(eJSON), point, top, ttl, cut, s.Name)
	}
	keys = append(keys, TopKey(orBlank(g.Pool)))
	clearOutbox := "1"
	if rated {
		clearOutbox = "0"
	}
	args = append(args, clearOutbox)
	res, err := recordScript.Run(ctx, l.c, keys, args...).Slice()
	if err != nil {
		return nil, false, wrap("record", err)
	}
	code, _ := res[0].(int64)
	switch code {
	case 1:
		return &g, true, nil
	case 2:
		s, _ := res[1].(string)
		var r Record
		if err := json.Unmarshal([]byte(s), &r); err != nil {
			return nil, false, fmt.Errorf("ledger: stored record of %s/%d: %w", g.Room, g.Game, err)
		}
		r.End = time.UnixMilli(r.EndMS).UTC()
		return &r, true, nil
	case 0:
		return nil, false, nil
	}
	return nil, false, fmt.Errorf("ledger: unexpected script reply %v", res)
}

// orBlank keeps key names well-formed for a side or pool that is absent (the script
// never touches them then).
func orBlank(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func (l *Ledger) pipeHGet(ctx context.Context, pool string, ids ...string) ([]string, error) {
	cmds := make([]*redis.StringCmd, len(ids))
	_, err := l.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, id := range ids {
			cmds[i] = p.HGet(ctx, PlayerKey(id), pool)
		}
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		return nil, wrap("read ratings", err)
	}
	out := make([]string, len(ids))
	for i, c := range cmds {
		out[i], _ = c.Result()
	}
	return out, nil
}

// decodePoolRating parses a stored pool field; absent or damaged: a new player.
func decodePoolRating(s string) PoolRating {
	var p PoolRating
	if s == "" || json.Unmarshal([]byte(s), &p) != nil || !p.Valid() {
		return PoolRating{Rating: rating.Initial()}
	}
	return p
}

func idle(p PoolRating, endMS int64) time.Duration {
	if p.LastMS == 0 || endMS <= p.LastMS {
		return 0
	}
	return time.Duration(endMS-p.LastMS) * time.Millisecond
}

func score(result string) float64 {
	switch result {
	case "black":
		return rating.Win
	case "white":
		return rating.Loss
	}
	return rating.Draw
}

// entry is game g from side i's view (0 black, 1 white).
func entry(g Game, i int, rated bool) GameEntry {
	me, opp, color := g.Black, g.White, "black"
	if i == 1 {
		me, opp, color = g.White, g.Black, "white"
	}
	res := Draw
	switch {
	case g.Result == color:
		res = Win
	case g.Result != "draw":
		res = Loss
	}
	opp.Before, opp.After = nil, nil
	opp.Account = false
	e := GameEntry{Room: g.Room, Game: g.Game, EndMS: g.EndMS, Rule: g.Rule, Pool: g.Pool, Rated: rated,
		Color: color, Opponent: opp, Result: res, Reason: g.Reason, Plies: g.Plies}
	if rated {
		e.Before, e.After = me.Before, me.After
	}
	return e
}
