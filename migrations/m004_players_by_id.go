package migrations

import (
	"context"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// Layout v3 stored a player under its only token: hash gomoku:player:<token
// hash> {id, name, created}, TTL 400 days renewed on use. Layout v4 makes a
// player addressable by id and lets it hold several sessions:
//
//	gomoku:{player:ID}           hash {id, name, created[, username, pw]}
//	gomoku:{player:ID}:sessions  set of the player's token hashes
//	gomoku:session:<token hash>  hash {player, created, used, ua}
//	gomoku:username:<lowercase>  string: the player id holding a username
//
// The migration turns each v3 key into a v4 player with one session, with
// the v3 key's remaining TTL, and then deletes the v3 key. It writes with
// HSETNX and SADD, so a re-run (or a v4 node that already wrote the player)
// keeps what is there, and a v3 key already converted is gone. It scans
// every master of a cluster and touches one hash slot per command.
const keyPlayerV3 = "gomoku:player:"

func up4(ctx context.Context, c redis.UniversalClient) error {
	return scanAll(ctx, c, keyPlayerV3+"*", func(ctx context.Context, keys []string) error {
		return convertPlayersV3(ctx, c, keys)
	})
}

// convertPlayersV3 converts one SCAN page in three pipelines: read, write the
// v4 keys, then (only when every write succeeded) delete the v3 keys.
func convertPlayersV3(ctx context.Context, c redis.UniversalClient, keys []string) error {
	type v3 struct {
		h   *redis.MapStringStringCmd
		ttl *redis.DurationCmd
	}
	reads := make([]v3, len(keys))
	_, err := c.Pipelined(ctx, func(pl redis.Pipeliner) error {
		for i, k := range keys {
			reads[i] = v3{pl.HGetAll(ctx, k), pl.PTTL(ctx, k)}
		}
		return nil
	})
	if err != nil {
		return wrap("read v3 players", err)
	}
	var done []string
	_, err = c.Pipelined(ctx, func(pl redis.Pipeliner) error {
		for i, k := range keys {
			hash := strings.TrimPrefix(k, keyPlayerV3)
			h, ttl := reads[i].h.Val(), reads[i].ttl.Val()
			id := h["id"]
			if len(hash) != 64 || id == "" || ttl == -2 {
				continue // not a v3 player, or expired meanwhile
			}
			if ttl <= 0 { // no TTL (-1): v3 always set one; give the v3 lifetime
				ttl = 400 * 24 * time.Hour
			}
			created := h["created"]
			if created == "" {
				created = "0"
			}
			pk := "gomoku:{player:" + id + "}"
			sk := "gomoku:{player:" + id + "}:sessions"
			pl.HSetNX(ctx, pk, "id", id)
			pl.HSetNX(ctx, pk, "name", h["name"])
			pl.HSetNX(ctx, pk, "created", created)
			pl.PExpire(ctx, pk, ttl)
			pl.SAdd(ctx, sk, hash)
			pl.PExpire(ctx, sk, ttl)
			sess := "gomoku:session:" + hash
			pl.HSetNX(ctx, sess, "player", id)
			pl.HSetNX(ctx, sess, "created", created)
			pl.HSetNX(ctx, sess, "used", created)
			pl.PExpire(ctx, sess, ttl)
			done = append(done, k)
		}
		return nil
	})
	if err != nil {
		return wrap("write v4 players", err)
	}
	_, err = c.Pipelined(ctx, func(pl redis.Pipeliner) error {
		for _, k := range done {
			pl.Del(ctx, k)
		}
		return nil
	})
	return wrap("delete v3 players", err)
}

// scanAll calls f with each page of the keys matching pattern, on every
// master of a cluster.
func scanAll(ctx context.Context, c redis.UniversalClient, pattern string, f func(context.Context, []string) error) error {
	scan := func(ctx context.Context, node redis.UniversalClient) error {
		var cursor uint64
		for {
			keys, next, err := node.Scan(ctx, cursor, pattern, 100).Result()
			if err != nil {
				return wrap("scan "+pattern, err)
			}
			if len(keys) > 0 {
				if err := f(ctx, keys); err != nil {
					return err
				}
			}
			if next == 0 {
				return nil
			}
			cursor = next
		}
	}
	if cc, ok := c.(*redis.ClusterClient); ok {
		return cc.ForEachMaster(ctx, func(ctx context.Context, m *redis.Client) error { return scan(ctx, m) })
	}
	return scan(ctx, c)
}
