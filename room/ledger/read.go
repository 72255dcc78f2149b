package ledger

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/redis/go-redis/v9"

	"github.com/gomoku-arena/gomoku/room/rating"
)

// Ratings returns a player's ratings by pool id (pools without a rated game are
// absent). The RD is shown as of now: grown for the time since the last rated game
// (rating.Age), as the next game will find it.
func (l *Ledger) Ratings(ctx context.Context, playerID string) (map[string]PoolRating, error) {
	m, err := l.c.HGetAll(ctx, PlayerKey(playerID)).Result()
	if err != nil {
		return nil, wrap("ratings", err)
	}
	out := make(map[string]PoolRating, len(m))
	now := l.now().UnixMilli()
	for f, v := range m {
		if strings.HasPrefix(f, "_") {
			continue
		}
		p := decodePoolRating(v)
		p.Rating = rating.Age(p.Rating, idle(p, now))
		out[f] = p
	}
	return out, nil
}

// Rating returns a player's rating in one pool as of now (rating.Initial for a pool
// without a rated game).
func (l *Ledger) Rating(ctx context.Context, playerID, pool string) (rating.Rating, error) {
	v, err := l.c.HGet(ctx, PlayerKey(playerID), pool).Result()
	if err != nil && !errors.Is(err, redis.Nil) {
		return rating.Rating{}, wrap("rating", err)
	}
	p := decodePoolRating(v)
	return rating.Age(p.Rating, idle(p, l.now().UnixMilli())), nil
}

// History returns the last n points of a player's rating history in a pool, oldest
// first (n <= 0: all).
func (l *Ledger) History(ctx context.Context, playerID, pool string, n int64) ([]Point, error) {
	from := int64(0)
	if n > 0 {
		from = -n
	}
	vals, err := l.c.LRange(ctx, HistoryKey(playerID, pool), from, -1).Result()
	if err != nil {
		return nil, wrap("history", err)
	}
	out := make([]Point, 0, len(vals))
	for _, v := range vals {
		var p Point
		if json.Unmarshal([]byte(v), &p) == nil {
			out = append(out, p)
		}
	}
	return out, nil
}

// Games returns a player's finished games, most recent first, skipping offset.
func (l *Ledger) Games(ctx context.Context, playerID string, offset, n int64) ([]GameEntry, error) {
	if n <= 0 {
		return nil, nil
	}
	vals, err := l.c.ZRevRange(ctx, GamesKey(playerID), offset, offset+n-1).Result()
	if err != nil {
		return nil, wrap("games", err)
	}
	out := make([]GameEntry, 0, len(vals))
	for _, v := range vals {
		var e GameEntry
		if json.Unmarshal([]byte(v), &e) == nil {
			out = append(out, e)
		}
	}
	return out, nil
}

// Leader is one leaderboard row.
type Leader struct {
	PlayerID string `json:"id"`
	Name     string `json:"name"`
	PoolRating
}

// leaderSlack is how many more entries than asked a leaderboard read takes: players
// idle long enough to be provisional again are skipped at read time.
const leaderSlack = 50

// Leaderboard returns the top n established (not provisional) ratings of a pool,
// best first, with the RD as of now: a player idle long enough for the RD to grow
// past the provisional bound drops off until the next rated game.
func (l *Ledger) Leaderboard(ctx context.Context, pool string, n int64) ([]Leader, error) {
	if n <= 0 {
		return nil, nil
	}
	ids, err := l.c.ZRevRange(ctx, TopKey(pool), 0, n+leaderSlack-1).Result()
	if err != nil {
		return nil, wrap("leaderboard", err)
	}
	cmds := make([]*redis.SliceCmd, len(ids))
	_, err = l.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, id := range ids {
			cmds[i] = p.HMGet(ctx, PlayerKey(id), "_name", pool)
		}
		return nil
	})
	if err != nil {
		return nil, wrap("leaderboard", err)
	}
	out := make([]Leader, 0, n)
	now := l.now().UnixMilli()
	for i, c := range cmds {
		v := c.Val()
		name, _ := v[0].(string)
		field, _ := v[1].(string)
		p := decodePoolRating(field)
		p.Rating = rating.Age(p.Rating, idle(p, now))
		if p.Provisional() || int64(len(out)) == n {
			continue
		}
		out = append(out, Leader{PlayerID: ids[i], Name: name, PoolRating: p})
	}
	return out, nil
}

// Keep makes a player's index and ratings permanent (a guest became an account).
func (l *Ledger) Keep(ctx context.Context, playerID string) error {
	_, err := l.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.Persist(ctx, GamesKey(playerID))
		p.Persist(ctx, PlayerKey(playerID))
		return nil
	})
	return wrap("keep", err)
}
