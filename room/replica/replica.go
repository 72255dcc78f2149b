// Package replica makes a node one of several on one Redis: it is the room.Replicator
// of the node's room.Manager. For every room live on the node it runs a watcher that
// follows the room's Redis channel (one pub/sub connection for the node, through an
// eventlog.Hub): events the other nodes stored are handed to the room with
// room.Room.Replicate (a gap in the seqs makes the room read the store), and the
// presence and AI progress the other nodes publish are fed into the room's copy
// (presence.go). Its LeaseKeeper (lease.go) makes each room's clocks and AI seats run on
// exactly one node: the holder of the room's lease runs it active, the others passive;
// a lost lease turns the room passive, a free one is taken over, and games in play that
// a dead node left behind are adopted.
//
// Wiring (server.New does this):
//
//	n := replica.New(store, replica.Config{Node: id})
//	opts.Replicator = n
//	m := room.NewManager(store, opts)
//	n.Start(m.Get)      // lease keeper, presence relay
//	…
//	m.Shutdown(ctx)     // then
//	n.Stop()            // releases this node's leases: other nodes take over at once
package replica

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

// Defaults of Config.
const (
	DefaultLeaseTTL    = 3 * time.Second
	DefaultPresenceTTL = 15 * time.Second
)

// Config configures a Node. Zero fields take the defaults.
type Config struct {
	// Node is this node's unique id (default: the host name and a random suffix).
	Node string
	// LeaseTTL is the room leases' time to live (default DefaultLeaseTTL); they are
	// renewed every third of it, and a dead node's rooms are taken over within about
	// LeaseTTL + LeaseTTL/3.
	LeaseTTL time.Duration
	// PresenceTTL: a node not heard of for this long is forgotten, so its players'
	// grace starts (default DefaultPresenceTTL); presence is republished every third of it.
	PresenceTTL time.Duration
	// CallTimeout bounds each call the replica makes into a room (turning it active or
	// passive, catching it up, adopting it, feeding it presence); default LeaseTTL/3.
	// The lease keeper's calls of one round run side by side, so a round with stuck
	// rooms still renews every lease well within LeaseTTL.
	CallTimeout time.Duration
	Logger      *slog.Logger // default: discard
}

func (c Config) withDefaults() Config {
	if c.Node == "" {
		c.Node = nodeID()
	}
	if c.LeaseTTL <= 0 {
		c.LeaseTTL = DefaultLeaseTTL
	}
	if c.PresenceTTL <= 0 {
		c.PresenceTTL = DefaultPresenceTTL
	}
	if c.CallTimeout <= 0 {
		c.CallTimeout = c.LeaseTTL / 3
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return c
}

// nodeID makes a unique node id for a node configured without one.
func nodeID() string {
	h, _ := os.Hostname()
	var b [4]byte
	_, _ = rand.Read(b[:])
	return h + "-" + hex.EncodeToString(b[:])
}

// Node is this node's side of replication; it implements room.Replicator.
type Node struct {
	cfg    Config
	hub    *eventlog.Hub
	rs     *eventlog.Store
	keeper *LeaseKeeper
	out    *outbox
	log    *slog.Logger

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu    sync.Mutex
	rooms map[string]*room.Room // live on this node (Started, not yet Stopped)
}

var _ room.Replicator = (*Node)(nil)

// New returns the Node for st; plug it into room.Options.Replicator, then Start it.
func New(st *roomstore.Store, cfg Config) *Node {
	cfg = cfg.withDefaults()
	log := cfg.Logger.With("node", cfg.Node)
	ctx, cancel := context.WithCancel(context.Background())
	n := &Node{
		cfg: cfg, hub: st.Redis().NewHub(), rs: st.Redis(), out: newOutbox(), log: log,
		ctx: ctx, cancel: cancel, rooms: map[string]*room.Room{},
	}
	n.keeper = newLeaseKeeper(st, n, log.With("component", "lease"))
	return n
}

// ID returns the node's id.
func (n *Node) ID() string { return n.cfg.Node }

// Restorer starts a stored room on this node (room.Manager.Get fits); the lease keeper
// uses it to adopt games in play that no node runs.
type Restorer func(ctx context.Context, id string) (*room.Room, error)

// Start runs the lease keeper (its first round at once: it adopts the games in play
// that no live node holds), the presence heartbeat and the publisher of presence and
// AI progress, until Stop.
func (n *Node) Start(restore Restorer) {
	n.wg.Add(3)
	go func() { defer n.wg.Done(); n.keeper.run(n.ctx, restore) }()
	go func() { defer n.wg.Done(); n.publishLoop(n.ctx) }()
	go func() { defer n.wg.Done(); n.heartbeatLoop(n.ctx) }()
}

// Stop ends the watchers and the lease keeper, which releases this node's leases so
// that other nodes take its rooms over at once. Call it after the Manager's Shutdown.
func (n *Node) Stop() {
	n.cancel()
	n.wg.Wait()
	_ = n.hub.Close()
}

// Active implements room.Replicator: whether this node got room id's lease.
func (n *Node) Active(ctx context.Context, id string) bool { return n.keeper.acquire(ctx, id) }

// Started implements room.Replicator: it starts the room's watcher.
func (n *Node) Started(r *room.Room) {
	n.mu.Lock()
	n.rooms[r.ID()] = r
	n.mu.Unlock()
	if n.ctx.Err() != nil {
		return
	}
	n.wg.Add(1)
	go func() { defer n.wg.Done(); n.watch(r) }()
}

// Stopped implements room.Replicator: the lease keeper releases the room's lease on
// its next round.
func (n *Node) Stopped(r *room.Room) {
	n.mu.Lock()
	if n.rooms[r.ID()] == r {
		delete(n.rooms, r.ID())
	}
	n.mu.Unlock()
}

// LocalPresence implements room.Replicator: it queues this node's presence in room id
// for the other nodes.
func (n *Node) LocalPresence(id string, p room.NodePresence) { n.out.presence(id, p) }

// AIProgress implements room.Replicator: it queues the progress of this node's search
// in room id for the other nodes.
func (n *Node) AIProgress(id string, p room.AIProgress) { n.out.aiProgress(id, p) }

// live returns the rooms live on this node, by id.
func (n *Node) live() map[string]*room.Room {
	n.mu.Lock()
	defer n.mu.Unlock()
	out := make(map[string]*room.Room, len(n.rooms))
	for id, r := range n.rooms {
		out[id] = r
	}
	return out
}

// Holder describes who runs a room: the node holding its lease ("" when none) and the
// lease's remaining time, and this node's view of it.
type Holder struct {
	Room       string `json:"room"`
	Holder     string `json:"holder"`       // node id holding the lease, "" when free
	LeaseTTLMS int64  `json:"lease_ttl_ms"` // remaining time of the lease
	Node       string `json:"node"`         // this node's id
	LiveHere   bool   `json:"live_here"`    // this node runs a copy of the room
	ActiveHere bool   `json:"active_here"`  // and it is the active one
}

// Holder reports which node holds room id's lease (for operators).
func (n *Node) Holder(ctx context.Context, id string) (Holder, error) {
	holder, ttl, err := n.rs.LeaseHolder(ctx, id)
	if err != nil {
		return Holder{}, err
	}
	h := Holder{Room: id, Holder: holder, LeaseTTLMS: ttl.Milliseconds(), Node: n.cfg.Node}
	n.mu.Lock()
	r := n.rooms[id]
	n.mu.Unlock()
	if r != nil {
		h.LiveHere, h.ActiveHere = true, !r.Passive()
	}
	return h, nil
}
