// Package pairing is quick pairing: the seek pool that matches two players asking for a
// game in the same pool (rule, clock, rated or casual) whose ratings are close enough,
// the range widening with waiting time.
//
// The pool lives in Redis, every key under the hash tag {seeks} (one Redis Cluster
// slot), and each change is one Lua script, so with several nodes on one Redis a seeker
// is matched at most once and a match is seen by every node:
//
//	gomoku:{seeks}:seek:<player>  hash   the player's seek: pool, rating, name, nonce
//	                                     (the connection that owns it), since (Unix ms);
//	                                     once matched also "match" (Match encoded), and
//	                                     once its room is seated or failed "outcome".
//	                                     PX expiry: renewed by the owning node's
//	                                     heartbeat (Heartbeats: all the node's seeks in
//	                                     one script call), so the seek of a node that
//	                                     died runs out; MatchTTL once matched.
//	gomoku:{seeks}:pool:<pool>    zset   member player id, score rating: the seekers of
//	                                     one pool (entries whose seek hash is gone or
//	                                     matched are dropped when a script meets them)
//	gomoku:{seeks}:pools          set    the pools that have seekers (the sweep's list)
//	gomoku:{seeks}:matches        zset   the matches not settled yet (member the match
//	                                     encoded, score the time it was made, Unix ms):
//	                                     added by the script that pairs, removed by the
//	                                     one that records the final outcome
//	gomoku:{seeks}:paired         pub/sub channel (not a key): one message per settled
//	                                     match, its outcome then the match
//
// A match is found when a seek arrives (Seek) and by the periodic Sweep, which pairs
// seekers whose ranges have widened enough meanwhile. The node whose call made the
// match seats both players in its room, then Settles the outcome, which is recorded in
// both seeks and published, once: every node tells its own pages, and a node that
// missed the message reads the outcome with its next heartbeat. A failure is first
// claimed (StatusFailing, told to nobody), then the room is closed, then StatusFailed is
// published, so nobody is seated opposite a player told the match failed. While a
// match waits for its outcome its players' seeks stay as they are (a new seek is
// refused with ErrPending), so nobody is paired twice, and a player is told "paired"
// exactly when both are seated.
//
// # Recovery
//
// When the seating node dies (or loses Redis) after making a match and before settling
// it, the match stays in the unsettled index. Any node finds it there once it is older
// than RecoverAfter (Unsettled), longer than a live node's seating takes, reads its
// room from the room store and settles it by the same script: seated when both players
// sit in the room (Recovered), else failed with the room closed first. The first
// outcome recorded wins, whichever node records it, and every node then acts on the
// recorded one: a room is closed only after a failure was claimed, and once claimed no
// node can record "seated", so a slow seating node and a recovering node agree.
package pairing
