package migrations

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Layout v5 adds the ratings ledger (package room/ledger), every key under the
// hash tag {ratings} so that the one script recording a game may touch both
// players' keys on Redis Cluster:
//
//	gomoku:{ratings}:result:<room>:<game>  string: the game's record (JSON);
//	                                       kept for rated games, the room
//	                                       retention for others
//	gomoku:{ratings}:pending               zset: the outbox, "<room>:<game>" →
//	                                       game end (Unix ms)
//	gomoku:{ratings}:p:<player>            hash: "<pool>" → rating (JSON),
//	                                       "_name"
//	gomoku:{ratings}:p:<player>:games      zset: game entries (JSON) → end (ms);
//	                                       guests: the room retention
//	gomoku:{ratings}:p:<player>:hist:<pool> list: rating history (JSON points)
//	gomoku:{ratings}:top:<pool>            zset: player id → rating
//	                                       (established ratings only)
//
// The keys are new and start empty: nobody had a rating before v5, and games
// finished before it are not indexed (their rooms expire with the retention).
// So the migration writes nothing; the version bump tells an older node, which
// would not record games, that the layout moved on.
func up5(context.Context, redis.UniversalClient) error { return nil }
