package migrations

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Layout v6 adds quick pairing's seek pool (package room/pairing; every key under
// the hash tag {seeks}, so that the one script pairing two seekers runs on one
// Redis Cluster slot) and the post-game analyses (package room/analysis; under
// their room's tag):
//
//	gomoku:{seeks}:seek:<player>          hash: one seek (pool, rating, owner,
//	                                      since; the match once paired); PX 15 s,
//	                                      renewed by the owning node
//	gomoku:{seeks}:pool:<pool>            zset: the pool's seekers → rating
//	gomoku:{seeks}:pools                  set: the pools with seekers
//	gomoku:{room:ID}:analysis:N           string: the analysis of game N (JSON)
//	gomoku:{room:ID}:analysis:N:lease     string: the node computing it (PX 10 s)
//
// The keys are new and start empty (seeks live seconds; no game was analysed
// before v6), so the migration writes nothing; the version bump tells an older
// node, which knows neither, that the layout moved on.
func up6(context.Context, redis.UniversalClient) error { return nil }
