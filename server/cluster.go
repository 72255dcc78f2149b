package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/eventlog"
	"github.com/gomoku-arena/gomoku/room/roomstore"
)

// cluster makes a node one of several on one Redis: every live room on this
// node follows the events other nodes append (Redis pub/sub through one Hub, then
// Room.Sync), and room leases (roomstore.LeaseKeeper) make each room's clocks and AI seats
// run on exactly one node; a room whose lease is elsewhere runs passive here. Presence
// and AI progress travel between the nodes' copies too (cluster_presence.go).
type cluster struct {
	node   string
	hub    *eventlog.Hub
	rs     *eventlog.Store
	keeper *roomstore.LeaseKeeper
	log    *slog.Logger

	out         *outbox
	beatEvery   time.Duration // presence republished this often (a third of presenceTTL)
	presenceTTL time.Duration // a node not heard of for this long is forgotten

	mgr    *room.Manager
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu    sync.Mutex
	rooms map[*room.Room]bool
}

// newCluster prepares the wiring; call setOptions before room.NewManager and start after.
func newCluster(st *roomstore.Store, node string, leaseTTL, presenceTTL time.Duration, log *slog.Logger) *cluster {
	if node == "" {
		node = nodeID()
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &cluster{
		node: node, hub: st.Redis().NewHub(), rs: st.Redis(), log: log.With("node", node),
		out: newOutbox(), beatEvery: presenceTTL / 3, presenceTTL: presenceTTL,
		keeper: roomstore.NewLeaseKeeper(st, node, leaseTTL, log.With("component", "lease")),
		ctx:    ctx, cancel: cancel, rooms: map[*room.Room]bool{},
	}
}

// nodeID makes a unique node id for a node configured without one.
func nodeID() string {
	h, _ := os.Hostname()
	var b [4]byte
	_, _ = rand.Read(b[:])
	return h + "-" + hex.EncodeToString(b[:])
}

// setOptions plugs the lease and the presence and AI progress outbox into the rooms'
// options.
func (c *cluster) setOptions(o *room.Options) {
	o.Lease = c.keeper.Acquire
	o.OnLocalPresence, o.OnAIProgress = c.out.presence, c.out.aiProgress
}

// start runs the lease keeper and the watcher of this node's rooms.
func (c *cluster) start(m *room.Manager) {
	c.mgr = m
	c.wg.Add(3)
	go func() { defer c.wg.Done(); c.keeper.Run(c.ctx, m) }()
	go func() { defer c.wg.Done(); c.publishLoop(c.ctx, c.rs) }()
	go func() {
		defer c.wg.Done()
		t := time.NewTicker(250 * time.Millisecond)
		defer t.Stop()
		var beat time.Time
		for {
			for _, r := range m.Rooms() {
				c.watch(r)
			}
			if now := time.Now(); now.Sub(beat) >= c.beatEvery {
				c.heartbeat(m)
				beat = now
			}
			select {
			case <-c.ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
}

// watch subscribes room r to its Redis channel (once) and syncs it whenever another node
// appended events, until the room stops.
func (c *cluster) watch(r *room.Room) {
	c.mu.Lock()
	if c.rooms[r] || c.ctx.Err() != nil {
		c.mu.Unlock()
		return
	}
	c.rooms[r] = true
	c.wg.Add(1)
	c.mu.Unlock()
	go func() {
		defer c.wg.Done()
		defer func() {
			c.mu.Lock()
			delete(c.rooms, r)
			c.mu.Unlock()
		}()
		ctx, cancel := context.WithCancel(c.ctx)
		defer cancel()
		go func() {
			select {
			case <-r.Done():
			case <-ctx.Done():
			}
			cancel()
		}()
		ch, unsubscribe, err := c.hub.Subscribe(ctx, r.ID())
		if err != nil {
			if ctx.Err() == nil {
				c.log.Warn("fan-out: subscribe failed; retrying", "room", r.ID(), "err", err)
			}
			return // the watcher loop subscribes it again
		}
		defer unsubscribe()
		// Events appended between the room's load and the subscription.
		_, _ = r.Sync(ctx)
		// Ask the other nodes for their presence, and tell them ours.
		c.out.probe(r.ID())
		if p := r.LocalPresence(); !p.Empty() {
			c.out.presence(r.ID(), p)
		}
		defer func() {
			select {
			case <-r.Done(): // stopped here: whoever was connected through us is gone
				if !r.LocalPresence().Empty() {
					c.out.presence(r.ID(), room.NodePresence{})
				}
			default:
			}
		}()
		seen := remoteNodes{}
		// The expiry check runs only while another node is known here (a single node
		// never needs it).
		var expiry *time.Ticker
		var expiryC <-chan time.Time
		defer func() {
			if expiry != nil {
				expiry.Stop()
			}
		}()
		for {
			switch {
			case len(seen) > 0 && expiry == nil:
				expiry = time.NewTicker(c.presenceTTL / 3)
				expiryC = expiry.C
			case len(seen) == 0 && expiry != nil:
				expiry.Stop()
				expiry, expiryC = nil, nil
			}
			select {
			case m, ok := <-ch:
				if !ok {
					return
				}
				if m.Reconnected { // messages may have been lost: read the store
					if _, err := r.Sync(ctx); err != nil && ctx.Err() == nil {
						c.log.Debug("fan-out: sync failed", "room", r.ID(), "err", err)
					}
					continue
				}
				if m.Seq == 0 { // another node's presence or AI progress
					if !c.receive(ctx, r, seen, m.Data, time.Now()) {
						c.log.Debug("fan-out: unknown message", "room", r.ID(), "data", string(m.Data))
					}
					continue
				}
				// Free for this node's own events (the room has them); otherwise the
				// room catches up on its own goroutine without blocking this one.
				r.Notify(m.Seq)
			case now := <-expiryC:
				c.expire(ctx, r, seen, now)
			case <-ctx.Done():
				return
			}
		}
	}()
}

// stop ends the watchers and the lease keeper (which releases this node's leases so that
// other nodes take the rooms over at once). Call it after the Manager's Shutdown.
func (c *cluster) stop() {
	c.cancel()
	c.wg.Wait()
	_ = c.hub.Close()
}
