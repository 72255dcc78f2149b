package replica

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/gomoku-arena/gomoku/room"
)

// The presence relay: presence and AI progress between nodes (room/presence.go). Each
// node publishes, on a room's Redis channel next to its events, what it sees of the
// room — its subscriptions (when they change, and every third of Config.PresenceTTL
// while it has any) and the progress of the AI searches it runs — and feeds what the
// other nodes publish into its own copy. A node that stops publishing (it died) is
// forgotten after Config.PresenceTTL, so its players' grace starts then.

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

// presence queues this node's presence in roomID (Node.LocalPresence).
func (o *outbox) presence(roomID string, p room.NodePresence) {
	o.mu.Lock()
	o.pres[roomID] = p
	o.mu.Unlock()
	o.notify()
}

// aiProgress queues the progress of this node's search in roomID (Node.AIProgress).
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
func (n *Node) publishLoop(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-n.out.wake:
		}
		for id, msgs := range n.out.take(n.cfg.Node) {
			for _, m := range msgs {
				data, err := json.Marshal(m)
				if err != nil {
					continue
				}
				pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
				if err := n.rs.Publish(pctx, id, data); err != nil && ctx.Err() == nil {
					n.log.Debug("replica: publish failed", "room", id, "err", err)
				}
				cancel()
			}
		}
	}
}

// heartbeatLoop republishes, every third of Config.PresenceTTL, this node's presence
// in every room it has subscribers in, until ctx ends.
func (n *Node) heartbeatLoop(ctx context.Context) {
	t := time.NewTicker(n.cfg.PresenceTTL / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		for id, r := range n.live() {
			if p := r.LocalPresence(); !p.Empty() {
				n.out.presence(id, p)
			}
		}
	}
}

// remoteNodes tracks, for one room's watcher, when each other node was last heard of.
type remoteNodes map[string]time.Time

// receive applies another node's message to r; false when data is not a nodeMsg.
func (n *Node) receive(ctx context.Context, r *room.Room, seen remoteNodes, data []byte, now time.Time) bool {
	cctx, cancel := context.WithTimeout(ctx, n.cfg.CallTimeout)
	defer cancel()
	var m nodeMsg
	if err := json.Unmarshal(data, &m); err != nil || m.Node == "" {
		return false
	}
	if m.Node == n.cfg.Node {
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
		n.logFailure(ctx, r, "feeding another node's presence", r.SetRemotePresence(cctx, m.Node, *m.Presence))
	case nodeMsgAI:
		if m.AI == nil {
			return false
		}
		n.logFailure(ctx, r, "relaying AI progress", r.RelayAIProgress(cctx, *m.AI))
	case nodeMsgProbe:
		if p := r.LocalPresence(); !p.Empty() {
			n.out.presence(r.ID(), p)
		}
	default:
		return false
	}
	return true
}

// expire forgets the nodes of r not heard of for presenceTTL (they died).
func (n *Node) expire(ctx context.Context, r *room.Room, seen remoteNodes, now time.Time) {
	for node, at := range seen {
		if now.Sub(at) > n.cfg.PresenceTTL {
			delete(seen, node)
			cctx, cancel := context.WithTimeout(ctx, n.cfg.CallTimeout)
			n.logFailure(ctx, r, "feeding another node's presence", r.SetRemotePresence(cctx, node, room.NodePresence{}))
			cancel()
		}
	}
}

// logFailure logs a failed call into room r, unless the node or the room is stopping.
func (n *Node) logFailure(ctx context.Context, r *room.Room, what string, err error) {
	if err == nil || ctx.Err() != nil && errors.Is(err, ctx.Err()) || errors.Is(err, room.ErrRoomClosed) {
		return
	}
	n.log.Warn("replica: "+what+" failed", "room", r.ID(), "err", err)
}
