package roomstore

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/eventlog"
)

// LeaseKeeper makes each live room's clocks and AI seats run on exactly one node
// (README invariant 8) through the room's lease in Redis. Plug Acquire into room.Options.Lease
// so that the Manager starts a room active only when this node got its lease, and run
// Run for the node's lifetime: every TTL/3 it renews the leases it holds (a room whose
// lease is lost or cannot be renewed turns passive), takes the free leases of its
// passive rooms (turning them active), releases the leases of rooms that stopped here,
// and adopts games in play that no node holds (a node died) and that need a runner (a
// clock or a machine seat): it restores them, so their clocks and AI seats continue
// within about TTL + TTL/3.
type LeaseKeeper struct {
	st   *Store
	node string
	ttl  time.Duration
	log  *slog.Logger

	mu   sync.Mutex
	held map[string]bool
}

// NewLeaseKeeper returns a keeper for node (a unique node id) with leases of ttl
// (default 6 s).
func NewLeaseKeeper(st *Store, node string, ttl time.Duration, logger *slog.Logger) *LeaseKeeper {
	if ttl <= 0 {
		ttl = 6 * time.Second
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &LeaseKeeper{st: st, node: node, ttl: ttl, log: logger, held: map[string]bool{}}
}

// Acquire tries to take (or extend) room id's lease; it fits room.Options.Lease.
func (k *LeaseKeeper) Acquire(ctx context.Context, id string) bool {
	ok, err := k.st.rs.AcquireLease(ctx, id, k.node, k.ttl)
	if err != nil || !ok {
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

// Run keeps the leases until ctx ends, then releases them (graceful hand-over: stop
// the Manager first so that this node no longer acts for its rooms).
func (k *LeaseKeeper) Run(ctx context.Context, m *room.Manager) {
	t := time.NewTicker(k.ttl / 3)
	defer t.Stop()
	for {
		k.Tick(ctx, m)
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

// Tick runs one round of renewals, take-overs, releases and adoptions.
func (k *LeaseKeeper) Tick(ctx context.Context, m *room.Manager) {
	live := map[string]*room.Room{}
	for _, r := range m.Rooms() {
		live[r.ID()] = r
	}
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
		_, _ = k.st.rs.ReleaseLeases(ctx, k.node, release)
		for _, id := range release {
			k.drop(id)
		}
	}
	held, err := k.st.rs.RenewLeases(ctx, k.node, k.ttl, renew)
	var lost []string
	for i, id := range renew {
		if err != nil || !held[i] {
			lost = append(lost, id)
		}
	}
	if len(lost) > 0 {
		k.log.Warn("roomstore: leases lost, rooms turn passive", "rooms", len(lost), "first", lost[0], "err", err)
	}
	for _, id := range lost {
		k.drop(id)
		_ = live[id].SetPassive(ctx, true)
	}
	for id, r := range live {
		if r.Passive() && k.Acquire(ctx, id) {
			if _, err := r.Sync(ctx); err == nil {
				_ = r.SetPassive(ctx, false)
			} else {
				_, _ = k.st.rs.ReleaseLease(ctx, id, k.node)
				k.drop(id)
			}
		}
	}
	k.adopt(ctx, m, live)
}

// adopt restores unfinished rooms whose lease is free.
func (k *LeaseKeeper) adopt(ctx context.Context, m *room.Manager, live map[string]*room.Room) {
	ids, err := k.st.LiveRooms(ctx)
	if err != nil {
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
	_, err = k.st.rs.Client().Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, id := range cand {
			exists[i] = p.Exists(ctx, eventlog.KeysFor(id).Owner)
		}
		return nil
	})
	if err != nil {
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
	fields, _, err := k.st.rs.LoadMany(ctx, free)
	if err != nil {
		return
	}
	for i, id := range free {
		var sum room.Summary
		if fields[i] == nil || json.Unmarshal([]byte(fields[i][FieldSummary]), &sum) != nil || !needsRunner(sum) {
			continue
		}
		if !k.Acquire(ctx, id) {
			continue
		}
		r, err := m.Get(ctx, id) // Options.Lease sees our lease: the room starts active
		if err != nil {
			_, _ = k.st.rs.ReleaseLease(ctx, id, k.node)
			k.drop(id)
			continue
		}
		if r.Passive() { // Options.Lease not wired: activate it ourselves
			_ = r.SetPassive(ctx, false)
		}
		k.log.Info("roomstore: adopted room", "room", id, "node", k.node)
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
	_, _ = k.st.rs.ReleaseLeases(ctx, k.node, ids)
	for _, id := range ids {
		k.drop(id)
	}
}
