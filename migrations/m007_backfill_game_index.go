package migrations

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/redis/go-redis/v9"
)

// Layout v7 back-fills the players' game indexes (layout v5) with the games that
// finished before v5: the ratings ledger indexed only games ending after it, so a
// player's earlier games, still in their rooms' event logs, did not show on the
// player's page. The migration does not write the ledger itself: for every such game
// it adds "<room>:<game>" to the ledger's outbox,
//
//	gomoku:{ratings}:pending   zset: "<room>:<game>" → game end (Unix ms)
//
// and every node's outbox sweep (package room/ledger) records it from the room's
// event log, exactly once, as it records a game whose node died before recording it:
// an entry in each human player's index (kept for accounts, the room retention for
// guests), no rating change (there were no rated games before v5).
//
// A game counts when its room's log (gomoku:{room:ID}:events) has a game_over event
// with a result other than "aborted" and an end ("at") before v5 was applied (the
// "applied:5" field of gomoku:schema; without one, every game: recording is
// idempotent). Rooms whose retention ended are gone, and so are their games. Re-running
// adds the same members again (ZADD NX): safe.
func up7(ctx context.Context, c redis.UniversalClient) error {
	cut := int64(-1) // -1: no cut
	v, err := c.HGet(ctx, KeySchema, "applied:5").Result()
	if err != nil && !errors.Is(err, redis.Nil) {
		return wrap("read applied:5", err)
	}
	if n, perr := strconv.ParseInt(v, 10, 64); perr == nil {
		cut = n
	}
	return scanAll(ctx, c, "gomoku:{room:*}:events", func(ctx context.Context, keys []string) error {
		for _, k := range keys {
			if err := backfillRoom(ctx, c, k, cut); err != nil {
				return err
			}
		}
		return nil
	})
}

// BackfillGameIndex is the layout version of the back-fill (up7).
const BackfillGameIndex = 7

// gameOverV7 is what the back-fill reads of a stored room event (layout v5's JSON).
type gameOverV7 struct {
	Kind   string `json:"kind"`
	At     int64  `json:"at"`
	Game   int    `json:"game"`
	Result string `json:"result"`
}

// backfillRoom adds the finished games of one room's event log to the ledger outbox.
func backfillRoom(ctx context.Context, c redis.UniversalClient, key string, cut int64) error {
	id, ok := strings.CutPrefix(key, "gomoku:{room:")
	if id, ok = strings.CutSuffix(id, "}:events"); !ok || id == "" {
		return nil
	}
	evs, err := c.LRange(ctx, key, 0, -1).Result()
	if err != nil {
		return wrap("read "+key, err)
	}
	var ended []redis.Z
	for _, raw := range evs {
		if !strings.Contains(raw, `"game_over"`) {
			continue // most events: skip the decoding
		}
		var e gameOverV7
		if json.Unmarshal([]byte(raw), &e) != nil || e.Kind != "game_over" || e.Game < 1 ||
			e.Result == "" || e.Result == "aborted" || (cut >= 0 && e.At >= cut) {
			continue
		}
		ended = append(ended, redis.Z{Score: float64(e.At), Member: id + ":" + strconv.Itoa(e.Game)})
	}
	if len(ended) == 0 {
		return nil
	}
	return wrap("back-fill "+id, c.ZAddNX(ctx, "gomoku:{ratings}:pending", ended...).Err())
}
