// Package room is where a Gomoku game lives: settings, seats (human, built-in AI,
// external engine), spectators, clocks, offers (draw, takeback, rematch), abort and
// abandonment, and the AI seats' searches.
//
// # Pure core
//
// Apply(state, cmd, now) checks a Command against a State and returns the new State and
// the Events that record the change, numbered from state.Seq()+1. It does no I/O and
// starts no goroutine; State is an immutable value. Replay(events) rebuilds the State
// from the event log (both go through the same fold, so live and replayed states are
// equal). Refusals are the package's sentinels (ErrNotYourTurn, …: protocol errors
// compared by identity, with stable codes that protocol.Code reads);
// a resent duplicate move yields a *DuplicateError holding the seq to acknowledge again.
//
// # Actor
//
// A live room is a *Room: one goroutine owns its state and serialises commands (Do),
// subscriptions (Subscribe), timers (clock flag, abandonment, idle stop) and AI results.
// Persist-then-publish: a command's events are appended to the Store with the expected
// seq; only after that succeeded does the state change, the command get its Reply (with
// the seq) and subscribers see the events. A store failure returns ErrUnavailable and
// changes nothing. Subscribers get Updates through bounded queues; a subscriber whose
// queue is full is dropped (its channel is closed, Err() == ErrSlowSubscriber) and
// catches up by subscribing again with its last seq. AI progress and presence are
// ephemeral Updates without seq.
//
// Presence: a subscription whose Viewer holds a seat makes that seat connected. A seat
// gone longer than Options.StartGrace before both sides have moved aborts the game;
// after that, once it is gone longer than Options.Grace the opponent may send
// claim_victory (presence reports Claimable). Presence updates are broadcast at once
// when a seat's presence changes; changes of the spectator count alone are batched (at
// most one update per Options.PresenceInterval, the last count always follows), so a
// burst of n spectators costs O(n) updates, not O(n²). A joiner gets the current
// presence on join.
//
// AI seats: when a machine seat is to move the actor hands a clone of the board to a
// search goroutine that waits for a slot of the shared Scheduler (status "queued"),
// streams throttled progress (≤ 10/s) and returns its move as an internal command that
// Apply checks against the position hash it was computed for. Searches are cancelled
// when their position stops being current (takeback, resign, abort, …) and when the
// room stops.
//
// Abandonment against a machine: once the game really started, a human gone longer
// than Options.Grace loses by abandonment (the machine cannot claim, so the room does).
//
// # Persistence
//
// Store is the event log (Create, Append with the expected seq, Events); MemStore is the
// in-memory implementation (tests wrap it to inject failures); package room/roomstore adapts room/eventlog (Redis, Lua append script, lobby
// indexes) to Store and Lister and lists the unfinished rooms to restore (LiveRooms).
// A write whose outcome is unknown (Redis unreachable) is reported as unavailable and
// the room reloads from the store before its next write, so a resent move is then
// acknowledged as a duplicate, never applied twice. Restore (or Manager.Get) rebuilds a
// room from its events and resumes its clocks without charging the downtime.
//
// # Several nodes
//
// Any node may apply its clients' commands to a room: the seq-checked append lets exactly
// one writer win each seq. The loser reloads the missing events (as Sync does, publishing
// them to its subscribers) and checks the command again against the fresh state, at most
// a few times, so the client gets an ack or a real refusal (stale_ply, not_your_turn, a
// duplicate ack), not a spurious conflict. A room whose copy may be behind (passive, or
// one that has synced or lost a seq race) also reloads once before it refuses a command
// (game_not_started on a copy that missed the start). Room.Replicate applies an event
// another node stored (carried by the room's pub/sub message; a gap in the seqs makes the
// room read the store) and Room.Sync catches up with the store; both publish the events
// to local subscribers. Only the node holding the room's lease runs its clocks,
// abandonment timers and AI seats: other nodes keep the room passive (Options.Passive,
// Room.SetPassive). With Options.Replicator set (room/replica) the Manager starts a room
// active only when the Replicator got its lease and tells it when rooms start and stop;
// the replica package renews the leases, turns rooms passive when a lease is lost, takes
// over free leases and adopts games in play that a dead node left behind
// (replication.go).
//
// # Manager (what the server uses)
//
//	m := room.NewManager(store, room.Options{})        // store: room.NewMemStore() or roomstore.New(rs)
//	m.RestoreAll(ctx, ids)                             // optional, at start-up: resume live games
//	r, err := m.Create(ctx, room.CreateRequest{Settings: set, Creator: &me, Color: "black"})
//	r, sub, err := m.Join(ctx, id, room.SubscribeOptions{FromSeq: lastSeq, Viewer: me})
//	for u := range sub.C { … u.Snapshot (+u.Resync) / u.Event / u.AI / u.Presence … }
//	// sub.C closed: sub.Err() is ErrSlowSubscriber, ErrRoomStopped or ErrUnsubscribed
//	rep, err := r.Do(ctx, room.Command{Kind: room.CmdMove, By: me, Ply: 4, Point: "h8"})
//	// err: protocol.Code(err) is its stable code; ack with rep.Seq (rep.Duplicate
//	// for a resent move); a hint command's answer is rep.Hint
//	m.Shutdown(ctx)
//
// Client frames decode with protocol.Decode (room/protocol) and become commands with
// ClientCommand (the server sets Command.By from the authenticated token). Internal kinds
// (ai_move, forfeit, abandon, timeout, start, auto_claim) never come from the wire and
// are refused by Do. Tests drive time with FakeClock
// (Options.Clock).
package room
