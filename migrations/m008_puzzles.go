package migrations

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Layout v8 adds the puzzle trainer (package room/puzzles), every key under the hash
// tag {puzzles}, so that the one script ending an attempt (the attempt, the player's
// and the puzzle's ratings, the puzzle's counts and its place in the rating index)
// runs on one Redis Cluster slot:
//
//	gomoku:{puzzles}:puzzle:<id>            string: a mined puzzle (JSON: category,
//	                                        rule, size, moves, answers, room, game)
//	gomoku:{puzzles}:mined                  zset: mined puzzle ids → time mined
//	gomoku:{puzzles}:game:<room>:<game>     string: the game was mined (retention)
//	gomoku:{puzzles}:index:<rule>           zset: a rule's puzzles → rating
//	gomoku:{puzzles}:stats                  hash: puzzle id → JSON rating and counts
//	gomoku:{puzzles}:player:<id>            string: a player's puzzle rating (JSON)
//	gomoku:{puzzles}:player:<id>:played     zset: puzzles attempted → last attempt
//	gomoku:{puzzles}:attempt:<id>           string: one attempt (JSON; PX 6 h)
//
// A guest's player keys expire after the retention. The keys are new and start empty
// (the shipped puzzles enter the indexes when a node starts), so the migration writes
// nothing; the version bump tells an older node, which knows none of them, that the
// layout moved on.
func up8(context.Context, redis.UniversalClient) error { return nil }
