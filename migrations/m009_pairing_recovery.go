package migrations

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// Layout v9 adds quick pairing's index of unsettled matches, so that any node settles
// a match whose seating node died (package room/pairing, "Recovery"):
//
//	gomoku:{seeks}:matches   zset: the match (netstrings, as in the seek hashes) →
//	                         when it was made (Unix ms), from the script that pairs
//	                         to the one that records the final outcome
//
// and the seeks' outcome "failing" (a failure claimed while its room is closed). The
// index starts empty: a match made before v9 is settled by its own node as before
// (seeks live seconds), so the migration writes nothing; the version bump tells an
// older node, which neither indexes nor settles through the index, that the layout
// moved on.
func up9(context.Context, redis.UniversalClient) error { return nil }
