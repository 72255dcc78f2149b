package server

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/gomoku-arena/gomoku/room"
	"github.com/gomoku-arena/gomoku/room/eventlog"
)

// Presence and AI progress between nodes (room/nodes.go). Each node publishes, on a
// room's Redis channel next to its events, what it sees of the room — its
// subscriptions (when they change, and every third of Config.PresenceTTL while it has
// any) and the progress of the AI searches it runs — and feeds what the other nodes
// publish into its own copy. A node that stops publishing (it died) is forgotten after
// Config.PresenceTTL, so its players' grace starts then.

// presenceTTL is the default Config.PresenceTTL.
const presenceTTL = 15 * time.Second

// Kinds of nodeMsg.
const (
	nodeMsgPresence = "presence" // Presence: the sender's subscriptions to the room
	nodeMsgAI       = "ai"       // AI: progress of the sender's search
	nodeMsgProbe    = "probe"    // the sender has just loaded the room: tell it yours
)

// nodeMsg is a node's ephemeral message on a room's channel.
type nodeMsg struct {
	Kind     string             `json:"k"`
	Node     string             `json:"node"`
	Presence *room.NodePresence `json:"p,omitempty"`
	AI       *room.AIProgress   `json:"ai,omitempty"`
}

// outbox coalesces what this node has to publish per room (the latest presence and AI
// progress), so rooms never wait for Redis and a burst costs one message per room.
type outbox struct {
	mu     sync.Mutex
	pres   map[string]room.NodePresence
	ai     map[string]room.AIProgress
	probes map[string]bool
	wake   chan struct{} // capacity 1
}

func newOutbox() *outbox {
	return &outbox{pres: map[string]room.NodePresence{}, ai: map[string]room.AIProgress{},
		probes: map[string]bool{}, wake: make(chan struct{}, 1)}
}

func (o *outbox) notify() {
	select {
	case o.wake <- struct{}{}:
	default:
	}
}

// presence queues this node's presence in roomID (room.Options.OnLocalPresence).
func (o *outbox) presence(roomID string, p room.NodePresence) {
	o.mu.Lock()
	o.pres[roomID] = p
	o.mu.Unlock()
	o.notify()
}

// aiProgress queues the progress of this node's search in roomID (room.Options.OnAIProgress).
func (o *outbox) aiProgress(roomID string, p room.AIProgress) {
	o.mu.Lock()
	o.ai[roomID] = p
	o.mu.Unlock()
	o.notify()
}

func (o *outbox) probe(roomID string) {
	o.mu.Lock()
	o.probes[roomID] = true
	o.mu.Unlock()
	o.notify()
}

// take returns what is queued as messages from node, and empties the outbox.
func (o *outbox) take(node string) map[string][]nodeMsg {
	o.mu.Lock()
	pres, ai, probes := o.pres, o.ai, o.probes
	o.pres, o.ai, o.probes = map[string]room.NodePresence{}, map[string]room.AIProgress{}, map[string]bool{}
	o.mu.Unlock()
	out := map[string][]nodeMsg{}
	for id := range probes {
		out[id] = append(out[id], nodeMsg{Kind: nodeMsgProbe, Node: node})
	}
	for id, p := range pres {
		out[id] = append(out[id], nodeMsg{Kind: nodeMsgPresence, Node: node, Presence: &p})
	}
	for id, p := range ai {
		out[id] = append(out[id], nodeMsg{Kind: nodeMsgAI, Node: node, AI: &p})
	}
	return out
}

// publishLoop publishes the outbox until ctx ends. A failed publish is dropped: the
// heartbeat repeats presence, and AI progress is superseded within a tenth of a second.
func (c *cluster) publishLoop(ctx context.Context, rs *eventlog.Store) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-c.out.wake:
		}
		for id, msgs := range c.out.take(c.node) {
			for _, m := range msgs {
				data, err := json.Marshal(m)
				if err != nil {
					continue
				}
				pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
				if err := rs.Publish(pctx, id, data); err != nil && ctx.Err() == nil {
					c.log.Debug("presence: publish failed", "room", id, "err", err)
				}
				cancel()
			}
		}
	}
}

// heartbeat republishes this node's presence in every room it has subscribers in.
func (c *cluster) heartbeat(m *room.Manager) {
	for _, r := range m.Rooms() {
		if p := r.LocalPresence(); !p.Empty() {
			c.out.presence(r.ID(), p)
		}
	}
}

// remoteNodes tracks, for one room's watcher, when each other node was last heard of.
type remoteNodes map[string]time.Time

// receive applies another node's message to r; false when data is not a nodeMsg.
func (c *cluster) receive(ctx context.Context, r *room.Room, seen remoteNodes, data []byte, now time.Time) bool {
	var m nodeMsg
	if err := json.Unmarshal(data, &m); err != nil || m.Node == "" {
		return false
	}
	if m.Node == c.node {
		return true
	}
	switch m.Kind {
	case nodeMsgPresence:
		if m.Presence == nil {
			return false
		}
		if m.Presence.Empty() {
			delete(seen, m.Node)
		} else {
			seen[m.Node] = now
		}
		_ = r.SetRemotePresence(ctx, m.Node, *m.Presence)
	case nodeMsgAI:
		if m.AI == nil {
			return false
		}
		_ = r.RelayAIProgress(ctx, *m.AI)
	case nodeMsgProbe:
		if p := r.LocalPresence(); !p.Empty() {
			c.out.presence(r.ID(), p)
		}
	default:
		return false
	}
	return true
}

// expire forgets the nodes of r not heard of for presenceTTL (they died).
func (c *cluster) expire(ctx context.Context, r *room.Room, seen remoteNodes, now time.Time) {
	for node, at := range seen {
		if now.Sub(at) > c.presenceTTL {
			delete(seen, node)
			_ = r.SetRemotePresence(ctx, node, room.NodePresence{})
		}
	}
}
