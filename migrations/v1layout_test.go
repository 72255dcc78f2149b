package migrations

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"
)

// v1Touch is the lobby write of layout v1, kept to build v1 stores in tests:
// it ZADDs the room to the named lobby sets with the activity time in Unix
// SECONDS and removes it from the other sets.
func v1Touch(ctx context.Context, c redis.UniversalClient, roomID string, at time.Time, in ...string) error {
	_, err := c.Pipelined(ctx, func(p redis.Pipeliner) error {
		for _, name := range []string{"live", "open", "finished"} {
			key := "gomoku:lobby:" + name
			member := false
			for _, n := range in {
				member = member || n == name
			}
			if member {
				p.ZAdd(ctx, key, redis.Z{Score: float64(at.Unix()), Member: roomID})
			} else {
				p.ZRem(ctx, key, roomID)
			}
		}
		return nil
	})
	return err
}

// v1CreateRoom writes a room the way layout v1 (and v2) did: state hash with
// "seq" and the event list under the {room:ID} hash tag; nothing else.
func v1CreateRoom(ctx context.Context, c redis.UniversalClient, roomID string, fields map[string]string, events ...string) error {
	base := "gomoku:{room:" + roomID + "}:"
	_, err := c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		args := []any{"seq", len(events)}
		for k, v := range fields {
			args = append(args, k, v)
		}
		p.HSet(ctx, base+"state", args...)
		for _, e := range events {
			p.RPush(ctx, base+"events", e)
		}
		return nil
	})
	return err
}
