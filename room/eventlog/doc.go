// Package eventlog is the Redis persistence of Gomoku Arena rooms: an
// append-only, seq-checked event log per room with a snapshot hash, lobby
// indexes, per-room leases and per-room pub/sub. It is room-type agnostic:
// events and snapshot fields are opaque bytes and strings; package room
// adapts it to its Store interface.
//
// # Key layout (schema version 3, see package migrations)
//
// Every key of one room carries the hash tag {room:ID}, so all of them live in
// one Redis Cluster slot and the append script may touch them together:
//
//	gomoku:{room:ID}:state   hash   snapshot fields (opaque strings) + "seq"
//	                                (the seq of the last stored event; 0 = none)
//	                                + "alive_at" (Unix ms of the lease holder's
//	                                last renewal or release, FieldAliveAt)
//	gomoku:{room:ID}:events  list   the event log; element i (0-based) is the
//	                                event with seq i+1; the whole game is kept
//	gomoku:{room:ID}:owner   string node id holding the room lease (PX expiry)
//	gomoku:{room:ID}:chan    pub/sub channel (not a key); message "<seq>:<event>",
//	                                seq 0 for ephemeral messages (Publish)
//
// Lobby indexes, one sorted set each, member = room id, score = last
// activity as Unix milliseconds (layout v1 used Unix seconds; migration 2
// converted them so that rooms active in the same second keep their order):
//
//	gomoku:lobby:live        listed rooms not finished (games to watch)
//	gomoku:lobby:open        listed rooms with a seat anyone may take
//	gomoku:lobby:finished    listed finished games, pruned past the retention
//	gomoku:rooms:active      EVERY room not finished, listed or private,
//	                         maintained by the store itself (IndexActive);
//	                         recovery reads it (LiveRooms). Added in layout v3;
//	                         v2 recovery used live+open and so missed
//	                         private rooms.
//
// Which lobby sets a room is in is the caller's choice (IndexUpdate), e.g.
// private rooms in none.
//
//	gomoku:schema            hash: "version" = layout version, plus one
//	                         "applied:N" = ms timestamp per applied migration
//	{gomoku:schema}:lock      migration lock (SET NX PX, token compare-and-delete)
//
// Players, sessions and usernames live beside them (gomoku:{player:ID},
// gomoku:session:<token hash>, gomoku:username:<name>), written by package
// server, not by this package (docs/persistence.md).
//
// # Writes: one script, one round trip
//
// Create, Append, Finish and UpdateIndex all run one Lua script (loaded
// once, called with EVALSHA by go-redis's redis.Script, falling back to
// EVAL on NOSCRIPT) that checks the expected seq, RPUSHes the events, HSETs
// the snapshot fields and the new seq, sets or removes the retention TTL,
// updates the lobby (see below) and PUBLISHes each event with its seq to the
// room channel. Redis runs a script atomically, so for each seq exactly one
// writer wins; the others get ErrSeqConflict and nothing of theirs is
// written. Append is idempotent: a retry of an append whose reply was lost
// (by go-redis, or by the caller after ErrUnavailable) finds its own events
// stored right after the expected seq and succeeds without writing again, so
// an event is never doubled. The script uses only Lua 5.1 and
// plain commands (no cjson), and is tested against miniredis and a real
// redis-server 7.
//
// # Lobby and Redis Cluster
//
// The lobby sorted sets are global keys outside the room's slot. On a single
// Redis (or Sentinel) they are updated inside the append script, atomically
// with the events. On a *redis.ClusterClient a script may not touch keys of
// other slots, so the store updates them with one pipelined call right after
// the script succeeds (WithLobbyInScript overrides the choice). The lobby is
// derived data: if Redis fails between the two calls the events are stored and
// the index lags (logged); the room's next append or Finish repairs it, and a
// reader of LiveRooms/List must tolerate ErrNoSuchRoom for listed rooms.
//
// # Pub/sub
//
// Events are published by the script itself, so a subscriber sees exactly the
// stored events, in seq order. On a *redis.ClusterClient the store uses
// sharded pub/sub (SPUBLISH/SSUBSCRIBE, Redis >= 7): the channel carries the
// room hash tag, so a room's messages stay on its shard instead of being
// broadcast over the cluster bus. Elsewhere it uses PUBLISH/SUBSCRIBE
// (miniredis supports only these); WithShardedPubSub overrides. Pub/sub is
// at-most-once: a subscriber detects loss by a jump in Seq or a Reconnected
// message, and catches up with Events. Store.Subscribe uses one connection per
// subscription; a node with many rooms should use one Hub (Store.NewHub),
// which multiplexes all its room subscriptions over one connection (except on
// a sharded store, where it falls back to Store.Subscribe).
//
// # Finished rooms and retention
//
// An IndexUpdate that adds the room to IndexFinished (FinishUpdate, Finish)
// sets the retention TTL (WithRetention, default 30 days) on the state and
// events keys in the same script, and prunes finished-index entries older than
// the retention. Adding a room back to IndexLive or IndexOpen (a rematch)
// removes the TTL. Export returns a finished (or live) room whole.
//
// # Leases
//
// AcquireLease/RenewLease/ReleaseLease keep gomoku:{room:ID}:owner = node id
// with a PX expiry; renew and release are compare-and-set scripts, so a node
// can never extend or delete a lease another node took over.
//
// # Failures
//
// When Redis cannot be reached every call returns an error wrapping
// ErrUnavailable (network errors, refused connections, deadlines, pool
// timeouts, LOADING/CLUSTERDOWN/TRYAGAIN/MASTERDOWN replies); go-redis
// reconnects by itself, so calls work again as soon as Redis is back. Ping is
// for readiness probes.
//
// # Embedded Redis
//
// Open("") starts miniredis in-process (TTLs follow the wall clock) so a
// fresh checkout runs with no Redis at all; it logs a WARN that games will not
// survive a restart.
package eventlog
