package replica

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/eventlog"
	"github.com/gomoku-arena/gomoku/room/roomstore"
)

// LeaseKeeper makes each live room's clocks and AI seats run on exactly one node
// (README invariant 8) through the room's lease in Redis. The Node asks it whether a room
// starting here gets its lease (room.Replicator.Active), and runs it for the node's
// lifetime: every LeaseTTL/3 it renews the leases it holds (a room whose lease is lost
// or cannot be renewed turns passive), takes the free leases of its passive rooms
// (turning them active), releases the leases of rooms that stopped here, and adopts
// games in play that no node holds (a node died) and that need a runner (a clock or a
// machine seat): it restores them, so their clocks and AI seats continue within about
// LeaseTTL + LeaseTTL/3. Each call into a room has a deadline (Config.CallTimeout) and
// the calls of one round run side by side, so a stuck room delays nobody's renewal.
type LeaseKeeper struct {
	st   *roomstore.Store
	n    *Node
	node string
	ttl  time.Duration
	call time.Duration
	log  *slog.Logger

	mu   sync.Mutex
	held map[string]bool
}

func newLeaseKeeper(st *roomstore.Store, n *Node, log *slog.Logger) *LeaseKeeper {
	return &LeaseKeeper{st: st, n: n, node: n.cfg.Node, ttl: n.cfg.LeaseTTL, call: n.cfg.CallTimeout,
		log: log, held: map[string]bool{}}
}

// Keeper returns the node's lease keeper.
func (n *Node) Keeper() *LeaseKeeper { return n.keeper }

// acquire tries to take (or extend) room id's lease.
func (k *LeaseKeeper) acquire(ctx context.Context, id string) bool {
	ok, err := k.st.Redis().AcquireLease(ctx, id, k.node, k.ttl)
	if err != nil {
		k.log.Warn("replica: acquiring a lease failed; the room runs passive here", "room", id, "err", err)
		return false
	}
	if !ok {
		return false
	}
	k.mu.Lock()
	k.held[id] = true
	k.mu.Unlock()
	return true
}

// Held returns the ids of the rooms whose lease this node holds.
func (k *LeaseKeeper) Held() []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	out := make([]string, 0, len(k.held))
	for id := range k.held {
		out = append(out, id)
	}
	return out
}

func (k *LeaseKeeper) drop(id string) {
	k.mu.Lock()
	delete(k.held, id)
	k.mu.Unlock()
}

// run keeps the leases until ctx ends, then releases them (graceful hand-over: stop
// the Manager first so that this node no longer acts for its rooms).
func (k *LeaseKeeper) run(ctx context.Context, restore Restorer) {
	t := time.NewTicker(k.ttl / 3)
	defer t.Stop()
	for {
		k.Tick(ctx, restore)
		select {
		case <-ctx.Done():
			rctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			k.ReleaseAll(rctx)
			cancel()
			return
		case <-t.C:
		}
	}
}

// Tick runs one round of renewals, take-overs, releases and adoptions (restore
// starts an adopted room here; nil: no adoptions).
func (k *LeaseKeeper) Tick(ctx context.Context, restore Restorer) {
	live := k.n.live()
	// Renewals and releases go in pipelines: one round trip for all the rooms (a
	// thousand renewals one by one outlasted the ttl on a busy machine).
	var renew, release []string
	for _, id := range k.Held() {
		if live[id] == nil { // stopped here: let another node take it at once
			release = append(release, id)
		} else {
			renew = append(renew, id)
		}
	}
	if len(release) > 0 {
		if _, err := k.st.Redis().ReleaseLeases(ctx, k.node, release); err != nil {
			k.log.Warn("replica: releasing leases failed; they expire", "rooms", len(release), "err", err)
		}
		for _, id := range release {
			k.drop(id)
		}
	}
	held, err := k.st.Redis().RenewLeases(ctx, k.node, k.ttl, renew)
	var lost []string
	for i, id := range renew {
		if err != nil || !held[i] {
			lost = append(lost, id)
		}
	}
	if len(lost) > 0 {
		k.log.Warn("replica: leases lost, rooms turn passive", "rooms", len(lost), "first", lost[0], "err", err)
	}
	var calls sync.WaitGroup
	justLost := make(map[string]bool, len(lost))
	for _, id := range lost {
		k.drop(id)
		justLost[id] = true // another node holds it: not tried again this round
		r := live[id]
		calls.Go(func() { _ = k.setPassive(ctx, r, true) })
	}
	mine := map[string]bool{}
	for _, id := range k.Held() {
		mine[id] = true
	}
	for id, r := range live {
		switch {
		case justLost[id]:
		case r.Passive():
			if k.acquire(ctx, id) {
				calls.Go(func() { k.takeOver(ctx, r) })
			}
		case !mine[id]: // a room still active without its lease: a switch failed
			calls.Go(func() { _ = k.setPassive(ctx, r, true) })
		}
	}
	calls.Wait()
	if restore != nil {
		k.adopt(ctx, restore, live)
	}
}

// setPassive switches r within the call deadline, logging a failure; the next round
// tries again (meanwhile the room's writes are still seq-checked: nothing is lost or
// applied twice).
func (k *LeaseKeeper) setPassive(ctx context.Context, r *room.Room, passive bool) error {
	cctx, cancel := context.WithTimeout(ctx, k.call)
	defer cancel()
	err := r.SetPassive(cctx, passive)
	if err != nil && ctx.Err() == nil {
		k.log.Warn("replica: switching a room failed", "room", r.ID(), "passive", passive, "err", err)
	}
	return err
}

// takeOver turns passive room r, whose lease this node has just taken, active once it
// has caught up with the store; otherwise it gives the lease back.
func (k *LeaseKeeper) takeOver(ctx context.Context, r *room.Room) {
	cctx, cancel := context.WithTimeout(ctx, k.call)
	_, err := r.Sync(cctx)
	cancel()
	if err == nil {
		err = k.setPassive(ctx, r, false)
	} else if ctx.Err() == nil {
		k.log.Warn("replica: catching up before a take-over failed", "room", r.ID(), "err", err)
	}
	if err == nil {
		return
	}
	k.release(ctx, r.ID())
}

// release gives room id's lease back (within the call deadline) and forgets it.
func (k *LeaseKeeper) release(ctx context.Context, id string) {
	cctx, cancel := context.WithTimeout(ctx, k.call)
	defer cancel()
	if _, err := k.st.Redis().ReleaseLease(cctx, id, k.node); err != nil && ctx.Err() == nil {
		k.log.Warn("replica: releasing a lease failed; it expires", "room", id, "err", err)
	}
	k.drop(id)
}

// adopt restores unfinished rooms whose lease is free.
func (k *LeaseKeeper) adopt(ctx context.Context, restore Restorer, live map[string]*room.Room) {
	ids, err := k.st.LiveRooms(ctx)
	if err != nil {
		k.log.Warn("replica: listing games in play failed", "err", err)
		return
	}
	var cand []string
	for _, id := range ids {
		if live[id] == nil {
			cand = append(cand, id)
		}
	}
	if len(cand) == 0 {
		return
	}
	exists := make([]*redis.IntCmd, len(cand))
	_, err = k.st.Redis().Client().Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, id := range cand {
			exists[i] = p.Exists(ctx, eventlog.KeysFor(id).Owner)
		}
		return nil
	})
	if err != nil {
		k.log.Warn("replica: reading leases failed", "err", err)
		return
	}
	var free []string
	for i, id := range cand {
		if exists[i].Val() == 0 {
			free = append(free, id)
		}
	}
	if len(free) == 0 {
		return
	}
	fields, _, err := k.st.Redis().LoadMany(ctx, free)
	if err != nil {
		k.log.Warn("replica: loading rooms to adopt failed", "err", err)
		return
	}
	for i, id := range free {
		var sum room.Summary
		if fields[i] == nil || json.Unmarshal([]byte(fields[i][roomstore.FieldSummary]), &sum) != nil || !needsRunner(sum) {
			continue
		}
		// restore asks Active, which takes the lease: the room starts active. A room
		// started passive lost the race for the lease to another node.
		cctx, cancel := context.WithTimeout(ctx, k.call)
		_, err := restore(cctx, id)
		cancel()
		if err != nil {
			if ctx.Err() == nil {
				k.log.Warn("replica: adopting a room failed", "room", id, "err", err)
			}
			continue
		}
		k.log.Info("replica: adopted room", "room", id)
	}
}

// needsRunner reports whether a room needs a node even with nobody connected: a game
// in play with a clock or a machine seat.
func needsRunner(s room.Summary) bool {
	return s.Status == "live" && (s.Time.Enabled() || s.Black.Kind != room.Human || s.White.Kind != room.Human)
}

// ReleaseAll releases every lease this node holds (one pipeline).
func (k *LeaseKeeper) ReleaseAll(ctx context.Context) {
	ids := k.Held()
	if _, err := k.st.Redis().ReleaseLeases(ctx, k.node, ids); err != nil {
		k.log.Warn("replica: releasing leases failed; they expire", "rooms", len(ids), "err", err)
	}
	for _, id := range ids {
		k.drop(id)
	}
}
